package runtime

import (
	"fmt"
	"maps"
	"slices"
)

// CatalogOption selects the formatters of a catalog that are registered
// (see Select).
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

// Select returns the entries of a catalog that opts select, in order. An
// entry whose AliasOf is set follows the entry of its tool. It fails when
// Only or Except names a tool the entries do not have, or an alias. When
// opts select everything, the result is entries itself.
func Select(entries []Entry, opts ...CatalogOption) ([]Entry, error) {
	if len(opts) == 0 {
		return entries, nil
	}
	var sel catalogSelection
	for _, o := range opts {
		o(&sel)
	}
	if sel.only == nil && len(sel.except) == 0 {
		return entries, nil
	}
	known := map[string]bool{}
	aliasOf := map[string]string{}
	for _, e := range entries {
		if e.AliasOf == "" {
			known[e.Key] = true
		} else {
			aliasOf[e.Key] = e.AliasOf
		}
	}
	for _, set := range []map[string]bool{sel.only, sel.except} {
		for _, t := range slices.Sorted(maps.Keys(set)) {
			if known[t] {
				continue
			}
			if tool, ok := aliasOf[t]; ok {
				return nil, fmt.Errorf("%q is an alias of %q: select the formatter by its tool %q", t, tool, tool)
			}
			return nil, fmt.Errorf("no formatter for tool %q in the catalog", t)
		}
	}
	selected := make([]Entry, 0, len(entries))
	for _, e := range entries {
		tool := e.Key
		if e.AliasOf != "" {
			tool = e.AliasOf
		}
		if (sel.only != nil && !sel.only[tool]) || sel.except[tool] {
			continue
		}
		selected = append(selected, e)
	}
	return selected, nil
}
