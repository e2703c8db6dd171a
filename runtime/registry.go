package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/permgen/permgen/runtime/value"
)

// Formatter turns a tool call's input into preview text. It returns ok false
// to decline, which sends the dispatcher to the default preview; "" with ok
// true suppresses the preview. An error (or a panic) is a failure: the
// dispatcher treats it as a decline and reports it.
type Formatter interface {
	Format(req Request) (text string, ok bool, err error)
}

// FormatterFunc adapts a function to the Formatter interface.
type FormatterFunc func(req Request) (text string, ok bool, err error)

// Format calls f(req).
func (f FormatterFunc) Format(req Request) (string, bool, error) { return f(req) }

// Request is what a formatter receives.
type Request struct {
	// Tool is the tool name of the call; for MCP calls it is the target
	// ("server:tool"), or "mcp" when the call names none.
	Tool string
	// Input is the call's input as an object; non-object input is an empty
	// object. It is never nil and must not be modified.
	Input *value.Object
	// Limits are the dispatcher's limits.
	Limits Limits
	// Result is, for the result, error and expand slots of a Renderer, the
	// call's result as Result.Object makes it; nil for the others.
	Result *value.Object
	// Partial is set for a row while the call's arguments are still
	// arriving: Input was parsed from a prefix of their JSON text, so
	// fields may be missing or cut short.
	Partial bool
	// Budget is, for a call that a wrapper carries, what the formatters of
	// all the calls the wrapper carries may still spend together: a
	// formatter that counts its costs charges it, and fails with an error
	// matching ErrDescriptionCost when it would spend more. Nil bounds
	// nothing.
	Budget *Budget
}

// Entry is one registration of a batch.
type Entry struct {
	Key       string    // tool name, "server:tool", "server:*" or "mcp"
	Owner     string    // who registers it: "formatters.yaml#read", a host app's name
	Formatter Formatter // what formats the key's calls
	// AliasOf is, for an alias of a catalog entry, the entry's tool: the
	// alias is registered with it, by the same owner, with the same
	// formatter. It is "" for the entry's own key.
	AliasOf string
	// Override allows an MCP key "server:tool" to sit beside another
	// owner's "server:*" (see OverrideError). Only the host sets it, for
	// a registration it trusts to speak for that tool: the tool's
	// formatter then answers the tool's calls first, and their log
	// context names it (LogContext.Override). Tiers are never lowered by
	// it: a call's tier is the highest that any key it matches declares.
	Override bool
}

// Errors returned by Registry.Register and Registry.RegisterAll, for use
// with errors.Is.
var (
	ErrDuplicate  = errors.New("already registered")
	ErrInvalidKey = errors.New("invalid key")
	// ErrOverride matches an OverrideError.
	ErrOverride = errors.New("overrides another owner's server:*")
)

// OverrideError reports an MCP key "server:tool" and a "server:*" of
// another owner, neither registration allowing it (Entry.Override): the
// tool's formatter would answer its calls in place of the server's, and
// could make them read as something else. It matches ErrOverride. Which of
// the two was registered first does not matter.
type OverrideError struct {
	Key      string // the "server:tool"
	Owner    string // who holds or asks for it
	Wildcard string // the "server:*"
	Taken    string // who holds or asks for the wildcard
}

// Error names both keys and their owners, and how to allow it.
func (e *OverrideError) Error() string {
	return fmt.Sprintf("tool %q (%s) would override %q of %s: another owner's server:* is overridden only when the host allows it explicitly",
		e.Key, e.Owner, e.Wildcard, e.Taken)
}

// Unwrap returns ErrOverride.
func (e *OverrideError) Unwrap() error { return ErrOverride }

// ConflictError reports a key that is taken. It matches ErrDuplicate.
type ConflictError struct {
	Key   string // the key
	Owner string // who asked for it
	Taken string // who holds it
}

// Error names the key, who asked for it and who holds it.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("tool %q (%s) is already registered by %s", e.Key, e.Owner, e.Taken)
}

// Unwrap returns ErrDuplicate.
func (e *ConflictError) Unwrap() error { return ErrDuplicate }

type registration struct {
	key, owner string
	layer      string // the name of its layer, "" at the bottom
	group      string // the group it was registered in, or ""
	aliasOf    string
	override   bool   // Entry.Override
	batch      uint64 // the call that registered it: its entries are one owner's
	formatter  Formatter
	failures   atomic.Int64 // failures so far, for Info
	// accounted is the fields it accounts for (see accounts), built on
	// first use: a host registers hundreds of formatters at start, and a
	// process that describes one call reads one of them.
	accountOnce sync.Once
	accounted   *accounting
}

// accounts returns the fields the registration's formatter accounts for;
// nil for all.
func (r *registration) accounts() *accounting {
	r.accountOnce.Do(func() { r.accounted = accountingOf(r.formatter) })
	return r.accounted
}

// Registry holds at most one formatter per key, each with a named owner.
// Readers (every preview) take no lock: they load an immutable table that
// writers replace whole. The zero value is an empty registry ready to use;
// a Registry must not be copied after first use.
type Registry struct {
	mu      sync.Mutex // serializes writers
	table   atomic.Pointer[map[string]*registration]
	batches uint64 // registering calls so far, under mu
	// layers are the layers made with Layer, the last made first: the
	// order the dispatcher consults them in. Only a root registry has
	// any; a layer's root is the registry it was made from.
	layers atomic.Pointer[[]*Registry]
	root   *Registry
	name   string // a layer's name
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

func (r *Registry) load() map[string]*registration {
	if t := r.table.Load(); t != nil {
		return *t
	}
	return nil
}

// Layer returns the layer of r named name, made on first use: a registry
// of its own whose formatters the dispatcher of r consults before r's and
// before those of every layer made earlier, as pi-permission-system
// consults a registered formatter before its built-in preview. The stock
// catalog goes in r; a host's or a team's formatters go in a layer, where
// they may take a key the stock catalog holds. Each layer is single-owner
// as r is (a second registration of a key in one layer is ErrDuplicate),
// and a formatter that declines, fails or reads none of the input's fields
// hands the call to the next layer down, so a host formatter that answers
// some calls of "read" leaves the others to the stock one. Tiers never
// drop across layers: a call's tier is the highest that any registration
// of any layer declares for its keys, so a layer can raise a tier and
// never lower it. The calls a wrapper carries are read from the topmost
// layer whose Unwrapper finds any. A layer of a layer is a layer of its
// root. The name must not be empty.
func (r *Registry) Layer(name string) *Registry {
	if r.root != nil {
		return r.root.Layer(name)
	}
	if name == "" {
		panic("runtime: a layer needs a name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var old []*Registry
	if l := r.layers.Load(); l != nil {
		old = *l
	}
	for _, l := range old {
		if l.name == name {
			return l
		}
	}
	l := &Registry{root: r, name: name}
	next := append([]*Registry{l}, old...)
	r.layers.Store(&next)
	return l
}

// Layers returns the names of r's layers, in the order the dispatcher
// consults them: the last made first. r itself, the bottom, is not named.
func (r *Registry) Layers() []string {
	if r.root != nil {
		return r.root.Layers()
	}
	var names []string
	for _, l := range r.upper() {
		names = append(names, l.name)
	}
	return names
}

// upper returns the layers above r, topmost first; none for a layer.
func (r *Registry) upper() []*Registry {
	if l := r.layers.Load(); l != nil {
		return *l
	}
	return nil
}

// find returns the registration of key, or nil.
func (r *Registry) find(key string) *registration {
	return r.load()[key]
}

// Register registers f for key on behalf of owner. It returns a function
// that removes this registration: it never removes a later registration of
// the same key, and calling it again does nothing.
func (r *Registry) Register(key, owner string, f Formatter) (dispose func(), err error) {
	return r.RegisterAll([]Entry{{Key: key, Owner: owner, Formatter: f}})
}

// RegisterAll registers every entry, or none: when any key is invalid or
// taken (by an earlier registration or by another entry of the batch), it
// returns an error listing every problem and changes nothing. The returned
// function removes the batch's own registrations.
func (r *Registry) RegisterAll(entries []Entry) (dispose func(), err error) {
	return r.register("", entries)
}

// ReplaceGroup registers entries as the group named group (a catalog file,
// a plugin), replacing in one step whatever the group registered before:
// a catalog loaded again under its name replaces its formatters, as a hot
// reload does, and leaves every other owner's alone. Readers see the old
// group or the new one, never a mix. A key taken by another group, or by a
// registration in no group, is an error, and then nothing changes: the old
// group stays in force. The returned function removes the new group's
// registrations; a disposer of the replaced group does nothing any more.
func (r *Registry) ReplaceGroup(group string, entries []Entry) (dispose func(), err error) {
	if group == "" {
		return nil, fmt.Errorf("%w: a group needs a name", ErrInvalidKey)
	}
	return r.register(group, entries)
}

// register registers entries in group, replacing the group's registrations
// when group is not "".
func (r *Registry) register(group string, entries []Entry) (dispose func(), err error) {
	var errs []error
	for _, e := range entries {
		if err := validateEntry(e); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches++
	old := r.load()
	replaced := func(reg *registration) bool { return group != "" && reg.group == group }
	added := make(map[string]*registration, len(entries))
	regs := make([]*registration, 0, len(entries))
	// One allocation for the batch: a process that answers one call
	// registers the stock catalog first.
	backing := make([]registration, len(entries))
	for i, e := range entries {
		taken := ""
		if cur, ok := old[e.Key]; ok && !replaced(cur) {
			taken = cur.owner
		} else if cur, ok := added[e.Key]; ok {
			taken = cur.owner
		}
		if taken != "" {
			errs = append(errs, &ConflictError{Key: e.Key, Owner: e.Owner, Taken: taken})
			continue
		}
		reg := &backing[i]
		reg.key, reg.owner, reg.layer, reg.group, reg.aliasOf = e.Key, e.Owner, r.name, group, e.AliasOf
		reg.override, reg.batch, reg.formatter = e.Override, r.batches, e.Formatter
		added[e.Key] = reg
		regs = append(regs, reg)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	current := func(key string) *registration {
		if reg, ok := added[key]; ok {
			return reg
		}
		if reg, ok := old[key]; ok && !replaced(reg) {
			return reg
		}
		return nil
	}
	for _, reg := range regs {
		errs = append(errs, overrides(reg, current, old, replaced)...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	next := added // the first batch, a host's stock catalog, is the table
	if len(old) > 0 {
		next = make(map[string]*registration, len(old)+len(added))
		for k, v := range old {
			if !replaced(v) {
				next[k] = v
			}
		}
		for k, v := range added {
			next[k] = v
		}
	}
	r.table.Store(&next)
	return func() { r.remove(regs) }, nil
}

// overrides returns the OverrideErrors of a new registration: for a
// "server:tool", another owner's "server:*"; for a "server:*", the
// "server:tool" registrations of other owners already held (those of the
// same batch are checked as they are themselves). current returns the
// registration that key will have.
func overrides(reg *registration, current func(string) *registration, old map[string]*registration, replaced func(*registration) bool) []error {
	server, tool, mcp := strings.Cut(reg.key, ":")
	if !mcp {
		return nil
	}
	if tool != "*" {
		w := current(server + ":*")
		if w == nil || reg.override || sameOwner(reg, w) {
			return nil
		}
		return []error{&OverrideError{Key: reg.key, Owner: reg.owner, Wildcard: w.key, Taken: w.owner}}
	}
	var errs []*OverrideError
	prefix := server + ":"
	for key, t := range old {
		if replaced(t) || t.override || key == reg.key || !strings.HasPrefix(key, prefix) || sameOwner(reg, t) || current(key) != t {
			continue
		}
		errs = append(errs, &OverrideError{Key: key, Owner: t.owner, Wildcard: reg.key, Taken: reg.owner})
	}
	// The table is a map: sorted, the errors read the same on every run.
	slices.SortFunc(errs, func(a, b *OverrideError) int { return strings.Compare(a.Key, b.Key) })
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return out
}

// sameOwner reports whether two registrations have one owner: they were
// registered together (one RegisterAll, as a whole catalog is), or they
// are in one group under one owner name. The stock catalog's "server:*"
// and "server:tool" entries are one owner's; an owner name that merely
// looks like another catalog's entry ("formatters.yaml#…") is not.
func sameOwner(a, b *registration) bool {
	// Batches are counted per layer: equal counts in two layers say
	// nothing.
	return a.layer == b.layer && (a.batch == b.batch || a.group == b.group && a.owner == b.owner)
}

// remove deletes the given registrations where they are still current.
func (r *Registry) remove(regs []*registration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	current := 0
	for _, reg := range regs {
		if old[reg.key] == reg {
			current++
		}
	}
	if current == 0 {
		return
	}
	next := make(map[string]*registration, len(old)-current)
	for k, v := range old {
		next[k] = v
	}
	for _, reg := range regs {
		if next[reg.key] == reg {
			delete(next, reg.key)
		}
	}
	r.table.Store(&next)
}

// Info describes one registration.
type Info struct {
	Key   string
	Owner string
	// Group is the group it was registered in (ReplaceGroup), or "".
	Group string
	// AliasOf names the tool whose alias Key is, or is "".
	AliasOf string
	// Override is set when it was registered with Entry.Override.
	Override bool
	// Layer names the layer it was registered in (Registry.Layer), or is
	// "" for the registry at the bottom.
	Layer string
	// Failures counts the calls whose formatting failed. A failure never
	// disables the registration: each one affects its own call only.
	Failures int64
}

// Lookup returns the registration of key in r itself: a layer's are
// looked up in the layer (see Layer).
func (r *Registry) Lookup(key string) (Info, bool) {
	reg := r.find(key)
	if reg == nil {
		return Info{}, false
	}
	return reg.info(), true
}

// List returns every registration of r itself, sorted by key; not those
// of its layers.
func (r *Registry) List() []Info {
	t := r.load()
	list := make([]Info, 0, len(t))
	for _, reg := range t {
		list = append(list, reg.info())
	}
	slices.SortFunc(list, func(a, b Info) int { return strings.Compare(a.Key, b.Key) })
	return list
}

// Len returns the number of registrations of r itself.
func (r *Registry) Len() int { return len(r.load()) }

func (r *registration) info() Info {
	return Info{Key: r.key, Owner: r.owner, Group: r.group, AliasOf: r.aliasOf, Override: r.override, Layer: r.layer,
		Failures: r.failures.Load()}
}

func validateEntry(e Entry) error {
	if e.Owner == "" {
		return fmt.Errorf("%w %q: no owner given", ErrInvalidKey, e.Key)
	}
	if e.Formatter == nil {
		return fmt.Errorf("%w %q (%s): no formatter given", ErrInvalidKey, e.Key, e.Owner)
	}
	if err := ValidateKey(e.Key); err != nil {
		return fmt.Errorf("%w (%s)", err, e.Owner)
	}
	return nil
}
