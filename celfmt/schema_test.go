package celfmt

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// schemaRejects lists the broken catalogs whose mistake a JSON Schema can
// express. The schema must reject these and accept every other broken
// catalog that is valid YAML (their mistakes are in CEL, duplicates or
// examples, which only Load checks).
var schemaRejects = map[string]bool{
	"alias-clash.yaml": true, "include-paths.yaml": true, "example-tool-and-limits.yaml": true, "bad-input-type.yaml": true, "empty-formatters.yaml": true, "entry-not-mapping.yaml": true,
	"example-preview-and-declines.yaml": true, "formatters-not-list.yaml": true,
	"invalid-key-space.yaml": true, "invalid-key-wildcard.yaml": true, "let-shadows-input.yaml": true,
	"missing-preview.yaml": true, "missing-tool.yaml": true, "missing-version.yaml": true,
	"multiple-errors.yaml": true, "preview-not-string.yaml": true, "title-not-string.yaml": true, "title-expr.yaml": true,
	"tool-not-string.yaml": true, "unknown-entry-key.yaml": true, "unknown-example-key.yaml": true,
	"unknown-top-level-key.yaml": true, "unknown-version.yaml": true, "version-not-integer.yaml": true,
	"no-slots.yaml": true, "example-calls-mismatch.yaml": true, "example-tier-mismatch.yaml": true,
	"example-result-mismatch.yaml": true, "example-row-mismatch.yaml": true, "icon-a-list.yaml": true,
	"icon-unknown-key.yaml": true, "type-of-another-language.yaml": true,
}

func TestSchemaIsCommitted(t *testing.T) {
	committed, err := os.ReadFile(filepath.Join("..", "catalog.schema.json"))
	require.NoError(t, err)
	assert.Equal(t, string(Schema()), string(committed), "run: go run ./cmd/permgen schema > catalog.schema.json")
}

func TestSchemaAcceptsValidCatalogs(t *testing.T) {
	schema := loadSchema(t)
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "good", "*.yaml"))
	require.NoError(t, err)
	files = append(files, filepath.Join("..", "formatters.yaml"))
	included, err := filepath.Glob(filepath.Join("..", "catalog", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, included)
	files = append(files, included...)
	for _, file := range files {
		doc := yamlDoc(t, file)
		assert.NoError(t, validate(schema, schema, doc, "$"), file)
	}
}

func TestSchemaRejectsInvalidCatalogs(t *testing.T) {
	schema := loadSchema(t)
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "bad", "*.yaml"))
	require.NoError(t, err)
	rejected := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		var doc any
		if yaml.Unmarshal(src, &doc) != nil {
			continue // not YAML: no schema applies
		}
		err = validate(schema, schema, doc, "$")
		if schemaRejects[filepath.Base(file)] {
			assert.Error(t, err, "%s must be rejected", file)
			rejected++
		} else {
			assert.NoError(t, err, "%s: its mistake is beyond a schema", file)
		}
	}
	assert.Equal(t, len(schemaRejects), rejected)
}

func loadSchema(t *testing.T) map[string]any {
	var schema map[string]any
	require.NoError(t, json.Unmarshal(Schema(), &schema))
	return schema
}

func yamlDoc(t *testing.T, file string) any {
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc any
	require.NoError(t, yaml.Unmarshal(src, &doc))
	return doc
}

// validate checks v against the draft-07 keywords the catalog schema uses.
func validate(root, s map[string]any, v any, at string) error {
	if ref, ok := s["$ref"].(string); ok {
		def := root
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			def = def[part].(map[string]any)
		}
		return validate(root, def, v, at)
	}
	if t, ok := s["type"].(string); ok && !hasType(v, t) {
		return fmt.Errorf("%s: want %s, got %T", at, t, v)
	}
	if c, ok := s["const"]; ok && !sameJSON(c, v) {
		return fmt.Errorf("%s: want %v", at, c)
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || sameJSON(x, v)
		}
		if !found {
			return fmt.Errorf("%s: not one of %v", at, e)
		}
	}
	if n, ok := s["not"].(map[string]any); ok && validate(root, n, v, at) == nil {
		return fmt.Errorf("%s: matches a schema it must not", at)
	}
	if alts, ok := s["anyOf"].([]any); ok {
		matched := false
		for _, alt := range alts {
			matched = matched || validate(root, alt.(map[string]any), v, at) == nil
		}
		if !matched {
			return fmt.Errorf("%s: matches none of anyOf", at)
		}
	}
	switch v := v.(type) {
	case int:
		if n, ok := s["minimum"].(float64); ok && float64(v) < n {
			return fmt.Errorf("%s: less than %v", at, n)
		}
		if n, ok := s["maximum"].(float64); ok && float64(v) > n {
			return fmt.Errorf("%s: more than %v", at, n)
		}
	case string:
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(v) {
			return fmt.Errorf("%s: %q does not match %s", at, v, p)
		}
		if n, ok := s["minLength"].(float64); ok && float64(len([]rune(v))) < n {
			return fmt.Errorf("%s: shorter than %v", at, n)
		}
		if n, ok := s["maxLength"].(float64); ok && float64(len([]rune(v))) > n {
			return fmt.Errorf("%s: longer than %v", at, n)
		}
	case []any:
		if n, ok := s["minItems"].(float64); ok && float64(len(v)) < n {
			return fmt.Errorf("%s: fewer than %v items", at, n)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range v {
				if err := validate(root, items, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		if req, ok := s["required"].([]any); ok {
			for _, k := range req {
				if _, ok := v[k.(string)]; !ok {
					return fmt.Errorf("%s: missing %s", at, k)
				}
			}
		}
		if deps, ok := s["dependencies"].(map[string]any); ok {
			for k, d := range deps {
				if _, ok := v[k]; !ok {
					continue
				}
				for _, r := range d.([]any) {
					if _, ok := v[r.(string)]; !ok {
						return fmt.Errorf("%s: %s needs %s", at, k, r)
					}
				}
			}
		}
		props, _ := s["properties"].(map[string]any)
		for k, e := range v {
			if names, ok := s["propertyNames"].(map[string]any); ok {
				if err := validate(root, names, k, at+"."+k+" (name)"); err != nil {
					return err
				}
			}
			if p, ok := props[k].(map[string]any); ok {
				if err := validate(root, p, e, at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch extra := s["additionalProperties"].(type) {
			case bool:
				if !extra {
					return fmt.Errorf("%s: unknown key %s", at, k)
				}
			case map[string]any:
				if err := validate(root, extra, e, at+"."+k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		switch v := v.(type) {
		case int:
			return true
		case float64:
			return v == float64(int64(v))
		}
	}
	return false
}

// sameJSON compares values as JSON does: numbers by value.
func sameJSON(a, b any) bool {
	num := func(x any) (float64, bool) {
		switch x := x.(type) {
		case int:
			return float64(x), true
		case float64:
			return x, true
		}
		return 0, false
	}
	if x, ok := num(a); ok {
		y, ok := num(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}
