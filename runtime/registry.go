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
}

// Errors returned by Registry.Register and Registry.RegisterAll, for use
// with errors.Is.
var (
	ErrDuplicate  = errors.New("already registered")
	ErrInvalidKey = errors.New("invalid key")
)

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
	group      string // the group it was registered in, or ""
	aliasOf    string
	formatter  Formatter
	accounting *accounting  // the fields it accounts for; nil for all
	failures   atomic.Int64 // failures so far, for Info
}

// Registry holds at most one formatter per key, each with a named owner.
// Readers (every preview) take no lock: they load an immutable table that
// writers replace whole. The zero value is an empty registry ready to use;
// a Registry must not be copied after first use.
type Registry struct {
	mu    sync.Mutex // serializes writers
	table atomic.Pointer[map[string]*registration]
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

func (r *Registry) load() map[string]*registration {
	if t := r.table.Load(); t != nil {
		return *t
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
	old := r.load()
	replaced := func(reg *registration) bool { return group != "" && reg.group == group }
	added := make(map[string]*registration, len(entries))
	regs := make([]*registration, 0, len(entries))
	for _, e := range entries {
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
		reg := &registration{key: e.Key, owner: e.Owner, group: group, aliasOf: e.AliasOf, formatter: e.Formatter, accounting: accountingOf(e.Formatter)}
		added[e.Key] = reg
		regs = append(regs, reg)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	next := make(map[string]*registration, len(old)+len(added))
	for k, v := range old {
		if !replaced(v) {
			next[k] = v
		}
	}
	for k, v := range added {
		next[k] = v
	}
	r.table.Store(&next)
	return func() { r.remove(regs) }, nil
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
	// Failures counts the calls whose formatting failed. A failure never
	// disables the registration: each one affects its own call only.
	Failures int64
}

// Lookup returns the registration of key.
func (r *Registry) Lookup(key string) (Info, bool) {
	reg := r.find(key)
	if reg == nil {
		return Info{}, false
	}
	return reg.info(), true
}

// List returns every registration, sorted by key.
func (r *Registry) List() []Info {
	t := r.load()
	list := make([]Info, 0, len(t))
	for _, reg := range t {
		list = append(list, reg.info())
	}
	slices.SortFunc(list, func(a, b Info) int { return strings.Compare(a.Key, b.Key) })
	return list
}

// Len returns the number of registrations.
func (r *Registry) Len() int { return len(r.load()) }

func (r *registration) info() Info {
	return Info{Key: r.key, Owner: r.owner, Group: r.group, AliasOf: r.aliasOf, Failures: r.failures.Load()}
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
