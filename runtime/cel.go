package runtime

import (
	"fmt"

	"github.com/permgen/permgen/celfmt"
)

// celFormatter runs a checked CEL formatter.
type celFormatter struct{ f *celfmt.Formatter }

func (c celFormatter) Format(req Request) (string, bool, error) {
	return c.f.Format(req.Input, req.Tool, celfmt.Limits{
		Preview: req.Limits.Preview, Summary: req.Limits.Summary, Log: req.Limits.Log,
	})
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

// RegisterChecked registers every formatter of a checked catalog at once.
func (r *Registry) RegisterChecked(c *celfmt.Checked) (dispose func(), err error) {
	entries := make([]Entry, 0, len(c.Formatters))
	for _, f := range c.Formatters {
		entries = append(entries, Entry{Key: f.Entry.Tool, Owner: f.Entry.Owner(), Formatter: CELFormatter(f)})
	}
	return r.RegisterAll(entries)
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
