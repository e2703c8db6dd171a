package celfmt

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/permgen/permgen/runtime"
)

// Schema returns a JSON Schema (draft-07) of the catalog format, for editors
// (yaml-language-server) and other tools. It checks the structure a schema
// can express: keys, types, required fields, key syntax, declared types. CEL
// itself, duplicates and examples are only checked by Load.
func Schema() []byte {
	str := map[string]any{"type": "string"}
	identifier := map[string]any{"type": "string", "pattern": identifier.String()}
	positive := map[string]any{"type": "integer", "minimum": 1, "maximum": math.MaxInt32}
	key := map[string]any{
		"type": "string", "maxLength": runtime.MaxKeyLen,
		"pattern":     `^(?:[^\s:*]+|[^\s:*]+:(?:\*|[^\s*]+))$`,
		"description": `registry key: a tool name, "server:tool", "server:*" or "mcp"`,
	}
	lets := func(description string) map[string]any {
		return map[string]any{
			"type":        "object",
			"description": description,
			"propertyNames": map[string]any{
				"type": "string", "pattern": identifier["pattern"],
				"not": map[string]any{"enum": reservedNames},
			},
			"additionalProperties": str,
		}
	}
	schema := map[string]any{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"$id":                  "https://github.com/permgen/permgen/catalog.schema.json",
		"title":                "permgen formatter catalog",
		"description":          "Formatters written in CEL that turn AI agents' tool calls into the text of a permission prompt.",
		"type":                 "object",
		"required":             []string{"version"},
		"additionalProperties": false,
		"properties": map[string]any{
			"version": map[string]any{"const": CatalogVersion, "description": "the catalog format version"},
			"let":     lets("named CEL sub-expressions the formatters share: each formatter that names one gets it"),
			"include": map[string]any{
				"type": "array", "description": "more files of the catalog, relative to this file's directory",
				"items": map[string]any{"type": "string", "pattern": `^[^/\\].*\.ya?ml$`},
			},
			"formatters": map[string]any{
				"type": "array", "minItems": 1,
				"items": map[string]any{"$ref": "#/definitions/formatter"},
			},
		},
		"definitions": map[string]any{
			"formatter": map[string]any{
				"type":                 "object",
				"required":             []string{"tool"},
				"additionalProperties": false,
				"anyOf": []any{
					map[string]any{"required": []string{"preview"}},
					map[string]any{"required": []string{"unwrap"}},
					map[string]any{"required": []string{"tier"}},
					map[string]any{"required": []string{"row"}},
					map[string]any{"required": []string{"result"}},
					map[string]any{"required": []string{"error"}},
					map[string]any{"required": []string{"expand"}},
					map[string]any{"required": []string{"title"}, "properties": map[string]any{"title": map[string]any{"type": "object"}}},
				},
				"properties": map[string]any{
					"tool": key,
					"aliases": map[string]any{
						"type": "array", "items": key,
						"description": "other tool names of the same formatter, registered with it",
					},
					"title": map[string]any{
						"description": "the tool's display name in rows (\"\" for none), or a mapping with that name " +
							"and expr, a CEL expression of type string or optional_type(string) for the title of one call",
						"anyOf": []any{
							map[string]any{"type": "string"},
							map[string]any{
								"type": "object", "additionalProperties": false, "required": []string{"expr"},
								"properties": map[string]any{
									"name": map[string]any{"type": "string", "description": "the display name, shown when expr declines or fails"},
									"expr": map[string]any{"type": "string", "minLength": 1, "description": "a CEL expression: the title of one call"},
								},
							},
						},
					},
					"description": str,
					"omits": map[string]any{
						"type": "array", "items": map[string]any{"type": "string", "minLength": 1}, "uniqueItems": true,
						"description": "input fields the formatter deliberately does not show",
					},
					"input": map[string]any{
						"type":          "object",
						"description":   "declared input fields: name to CEL type",
						"propertyNames": identifier,
						"additionalProperties": map[string]any{
							"type":    "string",
							"pattern": "^\\s*" + typePattern(3) + "\\s*$",
						},
					},
					"let": lets("named CEL sub-expressions, usable in later lets and in preview"),
					"preview": map[string]any{
						"type": "string", "minLength": 1,
						"description": "CEL expression of type string or optional_type(string)",
					},
					"unwrap": map[string]any{
						"type": "string", "minLength": 1,
						"description": "CEL expression of the calls a wrapper call carries: a list of maps with tool, input and kind, " +
							"or an optional of one",
					},
					"tier": map[string]any{
						"type": "string", "minLength": 1,
						"description": "the tool's approval tier: " + strings.Join(runtime.TierNames(), ", ") +
							", or a CEL expression of type string that gives one",
					},
					"category": map[string]any{
						"type": "string", "description": "the kind of tool, for rows: file, search, web, shell, desktop, …",
					},
					"icon": map[string]any{
						"description": "the tool's icons in rows: one string (shown in both sets where it can be), or a mapping by set",
						"anyOf": []any{
							map[string]any{"type": "string"},
							map[string]any{
								"type": "object", "additionalProperties": false,
								"properties": map[string]any{
									"nerd":  map[string]any{"type": "string", "description": "a Nerd Font glyph"},
									"plain": map[string]any{"type": "string", "description": "a plain Unicode symbol"},
								},
							},
						},
					},
					"communication": map[string]any{
						"type":        "boolean",
						"description": "the tool talks to the person rather than acting: rows suppress it outside verbose mode",
					},
					"row": map[string]any{
						"type": "string", "minLength": 1,
						"description": "CEL expression of the call's transcript row, of type string or optional_type(string); " +
							"it runs while the arguments arrive",
					},
					"result": map[string]any{
						"type": "string", "minLength": 1,
						"description": "CEL expression of the summary of a finished call, of type string or optional_type(string); " +
							"it sees result",
					},
					"error": map[string]any{
						"type": "string", "minLength": 1,
						"description": "CEL expression of the summary of a failed call, of type string or optional_type(string); " +
							"it sees result",
					},
					"expand": map[string]any{
						"type": "string", "minLength": 1,
						"description": "CEL expression of the result's lines shown on demand, of type list(string) or " +
							"optional_type(list(string)); it sees result",
					},
					"examples": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/example"}},
				},
			},
			"example": map[string]any{
				"type":                 "object",
				"required":             []string{"input"},
				"additionalProperties": false,
				"properties": map[string]any{
					"input": map[string]any{"description": "the tool input"},
					"extra": map[string]any{
						"type":        "boolean",
						"description": "the input has fields the formatter does not declare, on purpose",
					},
					"tool": map[string]any{
						"type": "string", "maxLength": runtime.MaxKeyLen,
						"pattern":     `^(?:[^\s:*]+|[^\s:*]+:[^\s*]+)$`,
						"description": "the tool name of the example's call (default: the formatter's tool)",
					},
					"limits": map[string]any{
						"type":                 "object",
						"description":          "the limits the example runs with; others keep their defaults",
						"additionalProperties": false,
						"properties": map[string]any{
							"preview": positive, "summary": positive, "log": positive, "output": positive,
						},
					},
					"preview":  str,
					"declines": map[string]any{"type": "boolean"},
					"calls": map[string]any{
						"type":        "array",
						"description": "the calls the formatter's unwrap must return; [] when the call carries none",
						"items": map[string]any{
							"type":                 "object",
							"required":             []string{"tool"},
							"additionalProperties": false,
							"properties": map[string]any{
								"tool":  str,
								"input": map[string]any{"description": "the call's input; a string is JSON text"},
								"kind":  str,
							},
						},
					},
					"tier": map[string]any{"enum": runtime.TierNames(), "description": "the tier the formatter must return"},
					"output": map[string]any{
						"type": "object", "additionalProperties": false,
						"description": "the call's result, which result, error and expand see",
						"properties": map[string]any{
							"content": map[string]any{"type": "array", "items": map[string]any{"type": "object"}},
							"details": map[string]any{"description": "any value"},
							"isError": map[string]any{"type": "boolean"},
						},
					},
					"row":         map[string]any{"type": "string", "description": "the row the formatter must render"},
					"rowDeclines": map[string]any{"type": "boolean", "description": "true: the row must decline"},
					"title":       map[string]any{"type": "string", "description": "the title title.expr must compute"},
					"result":      map[string]any{"type": "string", "description": "the summary result must render for output"},
					"error":       map[string]any{"type": "string", "description": "the summary error must render for output"},
					"expand": map[string]any{
						"type": "array", "items": str, "description": "the lines expand must render for output",
					},
				},
				"not": map[string]any{
					"required": []string{"row", "rowDeclines"}, "properties": map[string]any{"rowDeclines": map[string]any{"const": true}},
				},
				"dependencies": map[string]any{
					"result": []string{"output"}, "error": []string{"output"}, "expand": []string{"output"},
				},
				"anyOf": []any{
					map[string]any{"required": []string{"calls"}},
					map[string]any{"required": []string{"tier"}},
					map[string]any{"required": []string{"row"}},
					map[string]any{"required": []string{"rowDeclines"}},
					map[string]any{"required": []string{"title"}},
					map[string]any{"required": []string{"result"}},
					map[string]any{"required": []string{"error"}},
					map[string]any{"required": []string{"expand"}},
					map[string]any{"required": []string{"preview"}, "properties": map[string]any{"declines": map[string]any{"const": false}}},
					map[string]any{"required": []string{"declines"}, "properties": map[string]any{"declines": map[string]any{"const": true}},
						"not": map[string]any{"required": []string{"preview"}}},
				},
			},
		},
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(schema); err != nil {
		panic("celfmt: schema: " + err.Error()) // static data: cannot fail
	}
	return []byte(b.String())
}

// typePattern matches a declared field type nested up to depth levels.
func typePattern(depth int) string {
	t := "(?:string|int|double|bool|dyn)"
	for range depth {
		t = `(?:string|int|double|bool|dyn|list\(\s*` + t + `\s*\)|map\(\s*string\s*,\s*` + t + `\s*\))`
	}
	return t
}
