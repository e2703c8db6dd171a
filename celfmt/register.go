package celfmt

import (
	"github.com/permgen/permgen/runtime"
)

// The run-time seam: checked CEL formatters registered into a runtime
// registry. It lives here rather than in runtime so that runtime links no
// CEL: a host that registers only Go or generated formatters never pays for
// the interpreter, and one that loads catalogs at run time imports the
// language package it uses anyway.

// Format runs the formatter on a call: it makes a Formatter a
// runtime.Formatter.
func (f *Formatter) Format(req runtime.Request) (string, bool, error) {
	text, ok, _, err := f.run(req.Input, req.Tool, req.Limits, req.Budget)
	return text, ok, err
}

// LoadCatalog parses and checks a YAML catalog (the same checks as at build
// time) and registers all its formatters in reg at once, as the group name
// (see runtime.Registry.ReplaceGroup), each owned by "name#tool". Loading
// a catalog again under the same name replaces the formatters it
// registered before in one step, as a hot reload of the file does, and
// leaves other owners alone; the disposer of the replaced version then does
// nothing. It changes nothing when the catalog has any problem (the error
// is an ErrorList with all of them) or when a key is taken by another
// owner, or an entry "server:tool" would override another owner's
// "server:*" without opts.Override (the error lists every conflict): the
// version loaded before stays.
func LoadCatalog(reg *runtime.Registry, name string, src []byte, opts Options) (dispose func(), err error) {
	checked, err := Load(name, src, opts)
	if err != nil {
		return nil, err
	}
	return reg.ReplaceGroup(name, checkedEntries(checked))
}

// RegisterChecked registers every formatter of a checked catalog, with its
// aliases, at once: all or none. The entries override another owner's
// "server:*" only when the catalog was checked with Options.Override.
func RegisterChecked(reg *runtime.Registry, c *Checked) (dispose func(), err error) {
	return reg.RegisterAll(checkedEntries(c))
}

// checkedEntries returns the registrations of a checked catalog.
func checkedEntries(c *Checked) []runtime.Entry {
	entries := make([]runtime.Entry, 0, len(c.Formatters))
	for _, f := range c.Formatters {
		entries = withAliases(entries, f.Entry.Tool, f.Entry.Aliases, f.Entry.Owner(), f)
	}
	for i := range entries {
		entries[i].Override = c.override
	}
	return entries
}

// withAliases appends the registrations of one catalog entry: its tool and
// each alias, same owner, same formatter.
func withAliases(entries []runtime.Entry, tool string, aliases []string, owner string, f runtime.Formatter) []runtime.Entry {
	entries = append(entries, runtime.Entry{Key: tool, Owner: owner, Formatter: f})
	for _, a := range aliases {
		entries = append(entries, runtime.Entry{Key: a, Owner: owner, Formatter: f, AliasOf: tool})
	}
	return entries
}

// RegisterCEL checks one CEL expression (its input is a map of dyn) and
// registers it in reg for key on behalf of owner. Diagnostics name owner
// and the expression's own line and column.
func RegisterCEL(reg *runtime.Registry, key, owner, expr string, opts Options) (dispose func(), err error) {
	if err := runtime.ValidateKey(key); err != nil {
		return nil, err
	}
	pos := Pos{File: owner, Line: 1, Col: 1}
	cat := &Catalog{File: owner, Version: CatalogVersion, Formatters: []*Entry{{
		Pos: pos, Tool: key, ToolPos: pos, Preview: NewSource(owner, expr),
	}}}
	checked, errs := Check(cat, opts)
	if len(errs) > 0 {
		return nil, errs
	}
	return reg.RegisterAll([]runtime.Entry{{Key: key, Owner: owner, Formatter: checked.Formatters[0], Override: opts.Override}})
}

// RegisterGenerated registers the formatters of generated code in reg, all
// or none (see runtime.Registry.RegisterAll); generated Register functions
// call it. It fails when the code was generated for another CEL environment
// (ErrEnvVersion), or when runtime.Only or runtime.Except names a tool the
// catalog does not have.
func RegisterGenerated(reg *runtime.Registry, c *GeneratedCatalog, opts ...runtime.CatalogOption) (dispose func(), err error) {
	if err := c.CheckVersion(); err != nil {
		return nil, err
	}
	var entries []runtime.Entry
	for i, e := range c.Entries() {
		entries = withAliases(entries, e.Tool, e.Aliases, e.Owner, generatedFormatter{c, i})
	}
	selected, err := runtime.Select(entries, opts...)
	if err != nil {
		return nil, err
	}
	return reg.RegisterAll(selected)
}

// generatedFormatter is the i-th formatter of generated code.
type generatedFormatter struct {
	c *GeneratedCatalog
	i int
}

func (g generatedFormatter) Format(req runtime.Request) (string, bool, error) {
	return g.c.Format(g.i, req.Input, req.Tool, req.Limits)
}

// InputFields returns the input fields the formatter accounts for, as
// generated code records them (see Formatter.InputFields).
func (g generatedFormatter) InputFields() runtime.InputFields { return g.c.entries[g.i].Fields }

// Unwrap returns the calls a wrapper call carries (see Formatter.Unwrap).
func (g generatedFormatter) Unwrap(req runtime.Request) ([]runtime.InnerCall, error) {
	f, err := g.c.formatter(g.i)
	if err != nil {
		return nil, err
	}
	return f.Unwrap(req)
}

// Tier returns the call's tier (see Formatter.Tier).
func (g generatedFormatter) Tier(req runtime.Request) (runtime.Tier, error) {
	f, err := g.c.formatter(g.i)
	if err != nil {
		return runtime.TierUnknown, err
	}
	return f.Tier(req)
}

// Presentation returns the entry's presentation (see
// Formatter.Presentation).
func (g generatedFormatter) Presentation() runtime.Presentation {
	return g.c.entries[g.i].Presentation()
}

// Row renders the call's row (see Formatter.Row).
func (g generatedFormatter) Row(req runtime.Request) (string, bool, error) {
	return g.render(slotRow, req)
}

// Title renders the call's title (see Formatter.Title).
func (g generatedFormatter) Title(req runtime.Request) (string, bool, error) {
	return g.render(slotTitle, req)
}

// Result renders the summary of the call's result (see Formatter.Result).
func (g generatedFormatter) Result(req runtime.Request) (string, bool, error) {
	return g.render(slotResult, req)
}

// ErrorLine renders the summary of the call's failure (see
// Formatter.ErrorLine).
func (g generatedFormatter) ErrorLine(req runtime.Request) (string, bool, error) {
	return g.render(slotError, req)
}

// Expand renders the lines of the call's result (see Formatter.Expand).
func (g generatedFormatter) Expand(req runtime.Request) ([]string, bool, error) {
	f, err := g.c.formatter(g.i)
	if err != nil {
		return nil, false, err
	}
	return f.Expand(req)
}

func (g generatedFormatter) render(s renderSlot, req runtime.Request) (string, bool, error) {
	f, err := g.c.formatter(g.i)
	if err != nil {
		return "", false, err
	}
	return f.renderText(s, req)
}
