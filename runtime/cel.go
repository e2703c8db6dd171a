package runtime

import (
	"fmt"
	"slices"

	"github.com/permgen/permgen/celfmt"
)

// celFormatter runs a checked CEL formatter.
type celFormatter struct{ f *celfmt.Formatter }

func (c celFormatter) Format(req Request) (string, bool, error) {
	return c.f.Format(req.Input, req.Tool, req.Limits.text())
}

// CELFormatter adapts a checked CEL formatter to the Formatter interface.
func CELFormatter(f *celfmt.Formatter) Formatter { return celFormatter{f} }

// LoadCatalog parses and checks a YAML catalog (the same checks as at build
// time) and registers all its formatters at once, each owned by its
// position ("name:line:col"). It registers nothing when the catalog has any
// problem (the error is a celfmt.ErrorList with all of them) or when a key
// is taken (the error lists every conflict).
func (r *Registry) LoadCatalog(name string, src []byte, opts celfmt.Options) (dispose func(), err error) {
	checked, err := celfmt.Load(name, src, opts)
	if err != nil {
		return nil, err
	}
	return r.RegisterChecked(checked)
}

// RegisterChecked registers every formatter of a checked catalog, with its
// aliases, at once: all or none.
func (r *Registry) RegisterChecked(c *celfmt.Checked) (dispose func(), err error) {
	entries := make([]Entry, 0, len(c.Formatters))
	for _, f := range c.Formatters {
		entries = withAliases(entries, f.Entry.Tool, f.Entry.Aliases, f.Entry.Owner(), CELFormatter(f))
	}
	return r.RegisterAll(entries)
}

// withAliases appends the registrations of one catalog entry: its tool and
// each alias, same owner, same formatter.
func withAliases(entries []Entry, tool string, aliases []string, owner string, f Formatter) []Entry {
	entries = append(entries, Entry{Key: tool, Owner: owner, Formatter: f})
	for _, a := range aliases {
		entries = append(entries, Entry{Key: a, Owner: owner, Formatter: f, AliasOf: tool})
	}
	return entries
}

// RegisterCEL checks one CEL expression (its input is a map of dyn) and
// registers it for key on behalf of owner. Diagnostics name owner and the
// expression's own line and column.
func (r *Registry) RegisterCEL(key, owner, expr string, opts celfmt.Options) (dispose func(), err error) {
	if err := celfmt.ValidateKey(key); err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrInvalidKey, key, err)
	}
	pos := celfmt.Pos{File: owner, Line: 1, Col: 1}
	cat := &celfmt.Catalog{File: owner, Version: celfmt.CatalogVersion, Formatters: []*celfmt.Entry{{
		Pos: pos, Tool: key, ToolPos: pos, Preview: celfmt.NewSource(owner, expr),
	}}}
	checked, errs := celfmt.Check(cat, opts)
	if len(errs) > 0 {
		return nil, errs
	}
	return r.Register(key, owner, CELFormatter(checked.Formatters[0]))
}

// CatalogOption selects the formatters RegisterGenerated registers.
type CatalogOption func(*catalogSelection)

type catalogSelection struct {
	only, except map[string]bool
}

// Only registers just the formatters of the given tools. A formatter is
// selected by its entry's tool name (not by an alias) and brings its
// aliases along.
func Only(tools ...string) CatalogOption {
	return func(s *catalogSelection) {
		if s.only == nil {
			s.only = map[string]bool{}
		}
		for _, t := range tools {
			s.only[t] = true
		}
	}
}

// Except registers every formatter but those of the given tools. As with
// Only, tools are entries' tool names; an excluded entry's aliases are
// left out with it.
func Except(tools ...string) CatalogOption {
	return func(s *catalogSelection) {
		if s.except == nil {
			s.except = map[string]bool{}
		}
		for _, t := range tools {
			s.except[t] = true
		}
	}
}

// RegisterGenerated registers the formatters of generated code in r, all or
// none (see Registry.RegisterAll); generated Register functions call it. It
// fails when the code was generated for another CEL environment
// (celfmt.ErrEnvVersion), or when Only or Except names a tool the catalog
// does not have.
func RegisterGenerated(r *Registry, c *celfmt.GeneratedCatalog, opts ...CatalogOption) (dispose func(), err error) {
	if err := c.CheckVersion(); err != nil {
		return nil, err
	}
	var sel catalogSelection
	for _, o := range opts {
		o(&sel)
	}
	known := map[string]bool{}
	aliasOf := map[string]string{}
	for _, e := range c.Entries() {
		known[e.Tool] = true
		for _, a := range e.Aliases {
			aliasOf[a] = e.Tool
		}
	}
	for _, set := range []map[string]bool{sel.only, sel.except} {
		for _, t := range sortedKeys(set) {
			if known[t] {
				continue
			}
			if tool, ok := aliasOf[t]; ok {
				return nil, fmt.Errorf("%q is an alias of %q: select the formatter by its tool %q", t, tool, tool)
			}
			return nil, fmt.Errorf("no formatter for tool %q in the catalog", t)
		}
	}
	var entries []Entry
	for i, e := range c.Entries() {
		if (sel.only != nil && !sel.only[e.Tool]) || sel.except[e.Tool] {
			continue
		}
		entries = withAliases(entries, e.Tool, e.Aliases, e.Owner, generatedFormatter{c, i})
	}
	return r.RegisterAll(entries)
}

type generatedFormatter struct {
	c *celfmt.GeneratedCatalog
	i int
}

func (g generatedFormatter) Format(req Request) (string, bool, error) {
	return g.c.Format(g.i, req.Input, req.Tool, req.Limits.text())
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
