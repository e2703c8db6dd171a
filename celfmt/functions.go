package celfmt

import (
	"math"
	"strconv"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// function describes one function of the formatter language: its CEL
// declaration and how much it costs.
type function struct {
	name string
	doc  string
	// examples are "expression // result" pairs, evaluated by the tests.
	examples []string
	overload []cel.FunctionOpt
	// perUnit, when not 0, makes the cost grow with the length of the
	// string arguments (for json, of the result): one unit per perUnit bytes,
	// measured so that a unit takes no longer than the slowest of cel-go's
	// (see TestCostCalibration). 0 is a constant cost.
	perUnit int
	// resultSize bounds the length of a string result for the cost
	// estimate: -1 for the input bound (the length of the string
	// arguments), 0 for a result that is no string.
	resultSize int
	// growth, when more than 1, makes the input bound of resultSize -1
	// that many times the length of the string arguments (menuPath writes
	// " → " for each ">").
	growth int
}

// functions are the functions formatters are written with, beyond standard
// CEL and its pinned extensions. They bind the plain Go functions of this
// package, so the dispatcher, generated code and CEL share one
// implementation.
var functions = []function{
	{
		name:       "truncate",
		resultSize: -1,
		doc:        "truncate(text, n) keeps the first n characters of text, without splitting a grapheme cluster of up to 32 characters, and appends … when text was longer.",
		examples:   []string{`truncate("abcdef", 3) // "abc…"`, `truncate("hello", 10) // "hello"`, `truncate("abc", 0) // "…"`},
		perUnit:    100,
		overload: []cel.FunctionOpt{cel.Overload("truncate_string_int", []*cel.Type{cel.StringType, cel.IntType}, cel.StringType,
			cel.BinaryBinding(func(s, n ref.Val) ref.Val {
				return types.String(textfmt.Truncate(string(s.(types.String)), clampInt(n)))
			}))},
	},
	{
		name:     "lines",
		doc:      `lines(text) counts the lines of text: 0 for "", otherwise the pieces between "\r\n", "\r" or "\n" line breaks, so "a\n" has 2.`,
		examples: []string{`lines("") // 0`, `lines("a\nb\r\nc") // 3`, `lines("a\n") // 2`},
		perUnit:  20,
		overload: []cel.FunctionOpt{cel.Overload("lines_string", []*cel.Type{cel.StringType}, cel.IntType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				return types.Int(textfmt.LineCount(string(s.(types.String))))
			}))},
	},
	{
		name:       "plural",
		resultSize: -1,
		doc:        `plural(n, singular, plural) is "<n> <singular>" when n is 1 and "<n> <plural>" otherwise.`,
		examples:   []string{`plural(1, "line", "lines") // "1 line"`, `plural(0, "line", "lines") // "0 lines"`, `plural(3, "edit", "edits") // "3 edits"`},
		overload: []cel.FunctionOpt{cel.Overload("plural_int_string_string", []*cel.Type{cel.IntType, cel.StringType, cel.StringType}, cel.StringType,
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				return types.String(textfmt.CountPhrase(int(args[0].(types.Int)), string(args[1].(types.String)), string(args[2].(types.String))))
			}))},
	},
	{
		name:       "inline",
		resultSize: -1,
		doc:        `inline(text, n) prepares a pattern or glob for one line: white space runs become one space, the ends are trimmed, empty text becomes "empty text", and the result is truncated to n characters.`,
		examples:   []string{`inline("  hello   world  ", 80) // "hello world"`, `inline("   ", 80) // "empty text"`, `inline("hello world", 5) // "hello…"`},
		perUnit:    100,
		overload: []cel.FunctionOpt{cel.Overload("inline_string_int", []*cel.Type{cel.StringType, cel.IntType}, cel.StringType,
			cel.BinaryBinding(func(s, n ref.Val) ref.Val {
				return types.String(textfmt.InlineText(string(s.(types.String)), clampInt(n)))
			}))},
	},
	{
		name:       "oneLine",
		resultSize: -1,
		doc: `oneLine(text, n) is the one-line summary of a text, as a result line shows it: inline(text, n), or optional.none() when the text is ` +
			`empty or only white space, so that a result with nothing to say declines.`,
		examples: []string{`oneLine("  3 files\n  changed ", 80) // optional.of("3 files changed")`, `oneLine(" \n ", 80) // optional.none()`,
			`oneLine("hello world", 5) // optional.of("hello…")`},
		perUnit: 100,
		overload: []cel.FunctionOpt{cel.Overload("oneLine_string_int", []*cel.Type{cel.StringType, cel.IntType}, cel.OptionalType(cel.StringType),
			cel.BinaryBinding(func(s, n ref.Val) ref.Val {
				if line, ok := textfmt.OneLine(string(s.(types.String)), clampInt(n)); ok {
					return types.OptionalOf(types.String(line))
				}
				return types.OptionalNone
			}))},
	},
	{
		name:       "minorUnits",
		resultSize: 40,
		doc: `minorUnits(amount, currency) is an amount in a currency's minor units, as Stripe and most payment APIs send it, in major units with the ` +
			`currency's code: zero-decimal currencies (JPY, KRW, …) and three-decimal ones (KWD, BHD, …) as Stripe lists them, two decimals otherwise, ` +
			`and an empty currency as two decimals without a code. It is optional.none() when the amount is not a whole number of at least 0 ` +
			`(below 2^53) or the currency is not three letters.`,
		examples: []string{`minorUnits(1999, "usd") // optional.of("19.99 USD")`, `minorUnits(500.0, "JPY") // optional.of("500 JPY")`,
			`minorUnits(505, "kwd") // optional.of("0.505 KWD")`, `minorUnits(7, "") // optional.of("0.07")`, `minorUnits(19.5, "usd") // optional.none()`,
			`minorUnits("1999", "usd") // optional.none()`},
		overload: []cel.FunctionOpt{cel.Overload("minorUnits_dyn_string", []*cel.Type{cel.DynType, cel.StringType}, cel.OptionalType(cel.StringType),
			cel.BinaryBinding(func(amount, currency ref.Val) ref.Val {
				var n int64
				switch v := amount.(type) {
				case types.Int:
					n = int64(v)
				case types.Double:
					if float64(v) != math.Trunc(float64(v)) || math.Abs(float64(v)) >= 1<<53 {
						return types.OptionalNone
					}
					n = int64(v)
				default:
					return types.OptionalNone
				}
				if text, ok := textfmt.MinorUnits(n, string(currency.(types.String))); ok {
					return types.OptionalOf(types.String(text))
				}
				return types.OptionalNone
			}))},
	},
	{
		name:       "toolPart",
		resultSize: -1,
		doc:        `toolPart(name) is the tool of an MCP key "server:tool": what follows the first ":", or the whole name when it has none.`,
		examples:   []string{`toolPart("github:create_issue") // "create_issue"`, `toolPart("read") // "read"`, `toolPart("a:b:c") // "b:c"`},
		perUnit:    100,
		overload: []cel.FunctionOpt{cel.Overload("toolPart_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				return types.String(textfmt.ToolPart(string(s.(types.String))))
			}))},
	},
	{
		name:       "collapse",
		resultSize: -1,
		doc:        `collapse(text) folds every run of white space (line breaks included) into one space and trims the ends.`,
		examples:   []string{`collapse("SELECT *\n  FROM t\n") // "SELECT * FROM t"`, `collapse("   ") // ""`},
		perUnit:    8,
		overload: []cel.FunctionOpt{cel.Overload("collapse_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				return types.String(textfmt.Collapse(string(s.(types.String))))
			}))},
	},
	{
		name:       "json",
		resultSize: -1,
		doc: `json(value) is the value as compact JSON, the way the default preview shows input: keys in input order, ` +
			`numbers as JavaScript prints them, white space runs folded; null and {} give "". Maps built in CEL have their keys sorted.`,
		examples: []string{`json({"k": "v"}) // "{\"k\":\"v\"}"`, `json([1, 2.5, "x"]) // "[1,2.5,\"x\"]"`, `json(null) // ""`},
		perUnit:  4,
		overload: []cel.FunctionOpt{cel.Overload("json_dyn", []*cel.Type{cel.DynType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				m, ok := toModel(v)
				if !ok {
					return types.String("")
				}
				return types.String(textfmt.CompactJSON(m))
			}))},
	},
	{
		name:       "nonEmpty",
		resultSize: -1,
		doc:        `nonEmpty(value) is the value trimmed, when it is a string that is not blank, and optional.none() otherwise.`,
		examples:   []string{`nonEmpty("  /src  ") // optional.of("/src")`, `nonEmpty("  ") // optional.none()`, `nonEmpty(42) // optional.none()`},
		perUnit:    10,
		overload: []cel.FunctionOpt{cel.Overload("nonEmpty_dyn", []*cel.Type{cel.DynType}, cel.OptionalType(cel.StringType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.OptionalNone
				}
				if t, ok := textfmt.NonEmptyString(string(s)); ok {
					return types.OptionalOf(types.String(t))
				}
				return types.OptionalNone
			}))},
	},
	{
		name:       "promptPath",
		resultSize: -1,
		doc:        `promptPath(input) is the non-empty string of input's "path", else of its "file_path" (a blank "path" falls back to "file_path"), or optional.none().`,
		examples:   []string{`promptPath({"path": "/foo/bar"}) // optional.of("/foo/bar")`, `promptPath({"path": " ", "file_path": "/baz"}) // optional.of("/baz")`, `promptPath({}) // optional.none()`},
		overload: []cel.FunctionOpt{cel.Overload("promptPath_dyn", []*cel.Type{cel.DynType}, cel.OptionalType(cel.StringType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				if p, ok := textfmt.PromptPath(pathFields(v)); ok {
					return types.OptionalOf(types.String(p))
				}
				return types.OptionalNone
			}))},
	},
	{
		name: "alternatives",
		doc: `alternatives(input, names) reads a value that agents send under different names (a path as path, file_path or filePath): ` +
			`the name and trimmed text of each of names, in order, whose field holds a string that is not blank, as [name, text] pairs. ` +
			`When they all hold the same text only the first pair is kept; when they differ each is, so that the entry can show every one ` +
			`(a decoy beside the field the agent reads) rather than pick one.`,
		examples: []string{
			`alternatives({"path": " /src/a.go", "file_path": "/src/a.go"}, ["path", "file_path"]) // [["path", "/src/a.go"]]`,
			`alternatives({"path": "/src/a.go", "filePath": "/etc/shadow"}, ["path", "filePath"]) // [["path", "/src/a.go"], ["filePath", "/etc/shadow"]]`,
			`alternatives({"path": " ", "file_path": 3}, ["path", "file_path"]) // []`,
		},
		// Its cost is the meter's and the estimate's own (callCosts): it
		// reads a field for each name.
		overload: []cel.FunctionOpt{cel.Overload("alternatives_dyn_list_string", []*cel.Type{cel.DynType, cel.ListType(cel.StringType)},
			cel.ListType(cel.ListType(cel.StringType)),
			cel.BinaryBinding(func(v, names ref.Val) ref.Val {
				pairs := textfmt.Alternatives(stringList(names), fieldOf(v))
				out := make([]ref.Val, len(pairs))
				for i, p := range pairs {
					out[i] = types.NewStringList(types.DefaultTypeAdapter, p)
				}
				return types.NewRefValList(types.DefaultTypeAdapter, out)
			}))},
	},
	{
		name: "commandError",
		doc: `commandError(details, text, n) sums up a failed command for its transcript row: "exit N" and the first line of its output, ` +
			`inlined to n characters. The exit code is the first of details' exitCode, exit_code and code that is a number; without one, ` +
			`the code after the output's last "exited with code " (pi's "Command exited with code 2"). It is optional.none() when there is ` +
			`neither code nor output.`,
		examples: []string{
			`commandError({"exitCode": 1}, "FAIL billing\n--- more", 80) // optional.of("exit 1: FAIL billing")`,
			`commandError(null, "boom\n\nCommand exited with code 2", 80) // optional.of("exit 2: boom")`,
			`commandError({"exit_code": 127}, "", 80) // optional.of("exit 127")`,
			`commandError(null, "  permission denied  ", 80) // optional.of("permission denied")`,
			`commandError({}, " ", 80) // optional.none()`,
		},
		perUnit:    100,
		resultSize: -1,
		overload: []cel.FunctionOpt{cel.Overload("commandError_dyn_string_int", []*cel.Type{cel.DynType, cel.StringType, cel.IntType},
			cel.OptionalType(cel.StringType),
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				if line, ok := textfmt.CommandError(fieldOf(args[0]), string(args[1].(types.String)), clampInt(args[2])); ok {
					return types.OptionalOf(types.String(line))
				}
				return types.OptionalNone
			}))},
	},
	{
		name: "outputLines",
		doc: `outputLines(text) are the lines of a command's output or of a file's text, for a transcript to expand: the text split at "\n", ` +
			`without the empty line a final line break leaves. It is optional.none() for blank text.`,
		examples: []string{
			`outputLines("ok  billing\nok  billing/dst\n") // optional.of(["ok  billing", "ok  billing/dst"])`,
			`outputLines("a\n\nb") // optional.of(["a", "", "b"])`,
			`outputLines(" \n") // optional.none()`,
		},
		// Its cost is split's (callCosts).
		overload: []cel.FunctionOpt{cel.Overload("outputLines_string", []*cel.Type{cel.StringType}, cel.OptionalType(cel.ListType(cel.StringType)),
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				lines, ok := textfmt.OutputLines(string(s.(types.String)))
				if !ok {
					return types.OptionalNone
				}
				return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, lines))
			}))},
	},
	{
		name:       "mcpValue",
		resultSize: 64,
		doc: `mcpValue(value) renders an MCP argument value the way the reference summary does: a string quoted and truncated to 60 characters, ` +
			`a number as written, a boolean, null as null, a list as [<n> items], an object as {…}. ` +
			`mcpValue(map, key) renders map[key], with a number of the input printed with the digits the call wrote ` +
			`(a number that passed through CEL arithmetic or indexing is a double and prints as JavaScript prints it).`,
		examples: []string{`mcpValue("test") // "\"test\""`, `mcpValue(5.0) // "5"`, `mcpValue([1, 2, 3]) // "[3 items]"`,
			`mcpValue({"type": "file"}) // "{…}"`, `mcpValue({"n": 1.5}, "n") // "1.5"`},
		overload: []cel.FunctionOpt{
			cel.Overload("mcpValue_dyn", []*cel.Type{cel.DynType}, cel.StringType,
				cel.UnaryBinding(func(v ref.Val) ref.Val {
					m, ok := shallowModel(v)
					if !ok {
						return types.String("")
					}
					return types.String(textfmt.MCPValue(m))
				})),
			cel.Overload("mcpValue_dyn_string", []*cel.Type{cel.DynType, cel.StringType}, cel.StringType,
				cel.BinaryBinding(func(m, key ref.Val) ref.Val {
					v, err := fieldModel(m, key)
					if err != nil {
						return err
					}
					return types.String(textfmt.MCPValue(v))
				})),
		},
	},
	{
		name:       "fields",
		resultSize: -1,
		doc: `fields(value, n) renders a value the way the generic previews show an input whose JSON does not fit: ` +
			`its leaves as "path: value" entries joined by ", ", in input order, fitted to n characters with a fair share for each ` +
			`(nested keys join with ".", list items inline or as path[i], {} and [] shown, strings quoted with \" for a quote inside, ` +
			`numbers as written); a cut value ends with … and says how much it cut, and a last entry counts the entries left out. ` +
			`Maps built in CEL have their keys sorted.`,
		examples: []string{`fields({"k": "v", "n": [1, 2]}, 80) // "k: \"v\", n: [1, 2]"`, `fields({"a": {"b": true}}, 80) // "a.b: true"`,
			`fields({"q": "abcdefghijklmnopqrstuvwxyz0123456789"}, 36) // "q: \"abcdefghijklmnopqr…\" (18 B more)"`},
		// It reads its whole argument: the sizes of what it leaves out, and
		// a cut string that starts as SQL for its statement kinds.
		perUnit: jsonPerUnit,
		overload: []cel.FunctionOpt{cel.Overload("fields_dyn_int", []*cel.Type{cel.DynType, cel.IntType}, cel.StringType,
			cel.BinaryBinding(func(v, n ref.Val) ref.Val {
				m, ok := toModel(v)
				if !ok {
					return types.String("")
				}
				return types.String(textfmt.Fields(m, clampInt(n)))
			}))},
	},
	{
		name:       "numberText",
		resultSize: 32,
		doc: `numberText(n) prints a double as JavaScript does (42, 1.5, 1e+21) and an int exactly. ` +
			`numberText(map, key) prints the number map[key] with the digits the call wrote (9007199254740993, 1.50), ` +
			`which is what the tool receives; it fails when map[key] is not a number.`,
		examples: []string{`numberText(42.0) // "42"`, `numberText(1.5) // "1.5"`, `numberText(1e21) // "1e+21"`, `numberText(7) // "7"`,
			`numberText({"n": 2.0}, "n") // "2"`},
		overload: []cel.FunctionOpt{
			cel.Overload("numberText_double", []*cel.Type{cel.DoubleType}, cel.StringType,
				cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(value.FormatNumber(float64(v.(types.Double)))) })),
			cel.Overload("numberText_int", []*cel.Type{cel.IntType}, cel.StringType,
				cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(strconv.FormatInt(int64(v.(types.Int)), 10)) })),
			cel.Overload("numberText_dyn_string", []*cel.Type{cel.DynType, cel.StringType}, cel.StringType,
				cel.BinaryBinding(func(m, key ref.Val) ref.Val {
					v, err := fieldModel(m, key)
					if err != nil {
						return err
					}
					switch n := v.(type) {
					case value.Number:
						return types.String(n.String())
					case float64:
						return types.String(value.FormatNumber(n))
					}
					return types.NewErr("numberText: %q holds %s, not a number", key.Value(), value.Kind(v))
				})),
		},
	},
	{
		name: "sqlKinds",
		doc: `sqlKinds(sql) lists the kinds of the statements in an SQL text, each once, the most consequential first ` +
			`(DROP before DELETE before UPDATE … before SELECT): each statement's first keyword, uppercased, or SQL when it starts otherwise; ` +
			`the statement a WITH clause leads to and any data-modifying statement inside it. Comments and quoted text are skipped, ` +
			`reading the text as standard SQL, PostgreSQL and MySQL do, so padding, a multi-statement query or a dialect's quirk cannot hide a statement. ` +
			`Side effects lead: PROGRAM, SERVER FILE, INTO OUTFILE, a table SELECT … INTO creates, and calls of side-effecting functions (lo_export(), nextval()).`,
		examples: []string{
			`sqlKinds("SELECT 1;\n\n\nDROP TABLE users; --") // ["DROP", "SELECT"]`,
			`sqlKinds("select ';drop table x'") // ["SELECT"]`,
			`sqlKinds("WITH old AS (SELECT 1) DELETE FROM t") // ["DELETE"]`,
			`sqlKinds("-- nothing") // []`,
			`sqlKinds("SELECT pg_catalog.LO_EXPORT(42, '/tmp/k')") // ["lo_export()", "SELECT"]`,
		},
		// Text that calls for every reading (escapes, dollar signs,
		// comments ended by carriage returns), or words each of which is
		// looked up for side effects, takes about 15 ns a byte
		// (BenchmarkSQLKinds/hostile, /words): a unit of cost is about
		// 90 ns.
		perUnit: 6,
		overload: []cel.FunctionOpt{cel.Overload("sqlKinds_string", []*cel.Type{cel.StringType}, cel.ListType(cel.StringType),
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				return types.NewStringList(types.DefaultTypeAdapter, textfmt.SQLKinds(string(s.(types.String))))
			}))},
	},
	{
		name: "sqlResult",
		doc: `sqlResult(text) summarizes the text an SQL tool returned: "N rows" for the rows of a query (a JSON list, inside the ` +
			`wrappers resultValue removes, or the [{'a': 1}, {'a': 2}] text of Python servers), "N rows affected" for a count of changed ` +
			`rows ('affected_rows': N, "Rows affected: N" in any case; the count is the digits the server wrote), and "N lines" for any ` +
			`other text. It is optional.none() for blank text.`,
		examples: []string{
			`sqlResult("[{\"id\": 7}, {\"id\": 9}]") // optional.of("2 rows")`,
			`sqlResult("[{'affected_rows': 3}]") // optional.of("3 rows affected")`,
			`sqlResult("Query executed successfully. Rows affected: 1") // optional.of("1 row affected")`,
			`sqlResult("Tables_in_shop\norders") // optional.of("2 lines")`,
			`sqlResult(" ") // optional.none()`,
		},
		// It decodes the text as JSON first, as parseJSON does.
		perUnit:    10,
		resultSize: 40,
		overload: []cel.FunctionOpt{cel.Overload("sqlResult_string", []*cel.Type{cel.StringType}, cel.OptionalType(cel.StringType),
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				if summary, ok := textfmt.SQLResult(string(s.(types.String))); ok {
					return types.OptionalOf(types.String(summary))
				}
				return types.OptionalNone
			}))},
	},
	{
		name: "sqlTier",
		doc: `sqlTier(kinds) is the approval tier of a query whose kinds sqlKinds listed: "read" when there is a statement and ` +
			`every kind only reads (SELECT, VALUES, TABLE, SHOW, DESCRIBE, DESC), "execute" when one runs a program, reaches a file ` +
			`on the server or another server, or runs SQL the reader cannot see (PROGRAM, SERVER FILE, INTO OUTFILE, DO, ` +
			`lo_export() and the other functions listed at execute), and "write" otherwise.`,
		examples: []string{
			`sqlTier(sqlKinds("SELECT id FROM invoices")) // "read"`,
			`sqlTier(sqlKinds("SELECT nextval('invoice_ids')")) // "write"`,
			`sqlTier(sqlKinds("COPY invoices TO PROGRAM 'gzip > /tmp/i.gz'")) // "execute"`,
			`sqlTier([]) // "write"`,
		},
		// It looks each kind up in two tables: far less than a unit of cost
		// a kind.
		perUnit:    1,
		resultSize: len("execute"),
		overload: []cel.FunctionOpt{cel.Overload("sqlTier_list_string", []*cel.Type{cel.ListType(cel.StringType)}, cel.StringType,
			cel.UnaryBinding(func(l ref.Val) ref.Val {
				return types.String(textfmt.SQLTier(stringList(l)))
			}))},
	},
	{
		name:    "parseJSON",
		perUnit: 10,
		doc: `parseJSON(text) decodes JSON text, as some agents send a list or an object inside a string argument ` +
			`(pi's edits, a device's arguments): optional.of(the value), or optional.none() when text is not valid JSON. ` +
			`Objects keep their key order and numbers their digits, as in the input.`,
		examples: []string{
			`parseJSON("[{\"oldText\": \"a\"}]").value()[0].oldText // "a"`,
			`parseJSON("{\"n\": 1.50}").value().n // 1.5`,
			`parseJSON("not json") // optional.none()`,
		},
		overload: []cel.FunctionOpt{cel.Overload("parseJSON_string", []*cel.Type{cel.StringType}, cel.OptionalType(cel.DynType),
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				v, err := value.DecodeJSON([]byte(string(s.(types.String))))
				if err != nil {
					return types.OptionalNone
				}
				return types.OptionalOf(adapter{base: types.DefaultTypeAdapter}.NativeToValue(v))
			}))},
	},
	{
		name:       "rawText",
		resultSize: -1,
		doc: `rawText(input) is the text a call carried instead of an object: a JSON string, or text that is not JSON at all ` +
			`(Codex's freeform apply_patch sends the raw patch). Formatters see such input as an empty object; rawText gives ` +
			`optional.of(the text), and optional.none() for an object or any other input.`,
		examples: []string{`rawText(input) // optional.none()`, `rawText({"a": 1}) // optional.none()`},
		overload: []cel.FunctionOpt{cel.Overload("rawText_dyn", []*cel.Type{cel.DynType}, cel.OptionalType(cel.StringType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				if o, ok := v.(objectVal); ok {
					if text, ok := o.o.Text(); ok {
						return types.OptionalOf(types.String(text))
					}
				}
				return types.OptionalNone
			}))},
	},
	{
		name:       "fileSize",
		resultSize: 32,
		doc: `fileSize(n) prints n bytes as people read sizes: whole bytes below 1 KB, then KB, MB, GB and TB, 1024 apart, ` +
			`with three significant digits (1.50 KB, 10.0 KB, 100 KB); a size whose digits would round up to 1024 takes the next unit, ` +
			`so no unit shows 1024 (1048575 bytes is 1.00 MB). A negative size has a minus sign; NaN is "NaN B".`,
		examples: []string{`fileSize(1536) // "1.50 KB"`, `fileSize(1048575) // "1.00 MB"`, `fileSize(512.0) // "512 B"`},
		overload: []cel.FunctionOpt{
			cel.Overload("fileSize_int", []*cel.Type{cel.IntType}, cel.StringType,
				cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(textfmt.FileSizeInt(int64(v.(types.Int)))) })),
			cel.Overload("fileSize_double", []*cel.Type{cel.DoubleType}, cel.StringType,
				cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(textfmt.FileSize(float64(v.(types.Double)))) })),
		},
	},
	{
		name:       "durationText",
		resultSize: 40,
		doc: `durationText(seconds) prints a duration in the unit that suits it: 500µs, 250ms, 1.5s (one decimal below a minute), ` +
			`2min 5s, 1h 2min; a duration whose digits would round up to the next unit takes it (0.9996 is 1.0s). ` +
			`A negative duration has a minus sign; NaN is "NaN s".`,
		examples: []string{`durationText(0.25) // "250ms"`, `durationText(125) // "2min 5s"`, `durationText(3720.0) // "1h 2min"`},
		overload: []cel.FunctionOpt{
			cel.Overload("durationText_int", []*cel.Type{cel.IntType}, cel.StringType,
				cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(textfmt.DurationTextInt(int64(v.(types.Int)))) })),
			cel.Overload("durationText_double", []*cel.Type{cel.DoubleType}, cel.StringType,
				cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(textfmt.DurationText(float64(v.(types.Double)))) })),
		},
	},
	{
		name:       "shortcut",
		resultSize: -1,
		doc: `shortcut(keys) writes a keyboard shortcut in the symbols macOS menus use: keys separated by "+", "," or white space, ` +
			`modifier and special key names matched without regard to case (cmd ⌘, shift ⇧, ctrl ⌃, alt or option ⌥, delete ⌫, tab ⇥, …), ` +
			`any other key kept as written; a "+" or "," where a key is expected is that key.`,
		examples: []string{`shortcut("cmd+shift+a") // "⌘⇧a"`, `shortcut("Ctrl, Alt, Delete") // "⌃⌥⌫"`, `shortcut("cmd++") // "⌘+"`},
		perUnit:  4,
		overload: []cel.FunctionOpt{cel.Overload("shortcut_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				return types.String(textfmt.Shortcut(string(s.(types.String))))
			}))},
	},
	{
		name:       "emph",
		resultSize: -1,
		growth:     4,
		doc: `emph(style, text) asks for text to be emphasized in the named style: dim, accent, strong, success, warning or danger, ` +
			`which the host maps to its theme. Rows, result lines and expanded lines carry it as a runtime.Span, never as an escape, ` +
			`and read the same without it; marks inside text are removed, so spans do not nest. Only row, result, error and expand ` +
			`may use it; any other style is an error.`,
		examples: []string{`emph("dim", "(3 lines)") == "\u0091dim\u0092(3 lines)\u0093" // true`,
			`emph("accent", emph("dim", "x")) == emph("accent", "x") // true`},
		perUnit: 20,
		overload: []cel.FunctionOpt{cel.Overload("emph_string_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType,
			cel.BinaryBinding(func(style, text ref.Val) ref.Val {
				out, err := textfmt.Emph(string(style.(types.String)), string(text.(types.String)))
				if err != nil {
					return types.NewErr("%s", err)
				}
				return types.String(out)
			}))},
	},
	{
		name:       "baseName",
		resultSize: -1,
		doc:        `baseName(path) is the last element of a path separated by "/" or "\", trailing separators ignored: "/a/b/" gives "b", "/" gives "/".`,
		examples:   []string{`baseName("/src/app.go") // "app.go"`, `baseName("C:\\dir\\file.txt") // "file.txt"`, `baseName("/") // "/"`},
		perUnit:    20,
		overload: []cel.FunctionOpt{cel.Overload("baseName_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				return types.String(textfmt.BaseName(string(s.(types.String))))
			}))},
	},
	{
		name:       "xdDevice",
		resultSize: -1,
		doc: `xdDevice(path) is the device oh-my-pi's write runs for a write to path, or optional.none() for a file write or a value that is not a string: ` +
			`the path unwrapped from a hashline header ("[PATH#XXXX]") and trimmed as JavaScript trims, the scheme "xd://" in any case, ` +
			`and a name without "/", "?" or "#", percent-decoded.`,
		examples: []string{`xdDevice("XD://bash") // optional.of("bash")`, `xdDevice(" [xd://web%5Ffetch#ABCD]") // optional.none()`,
			`xdDevice("[xd://web%5Ffetch#ABCD]") // optional.of("web_fetch")`, `xdDevice("xd:/bash") // optional.none()`, `xdDevice("xd://") // optional.none()`},
		perUnit: 20,
		overload: []cel.FunctionOpt{cel.Overload("xdDevice_dyn", []*cel.Type{cel.DynType}, cel.OptionalType(cel.StringType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.OptionalNone
				}
				if name, ok := textfmt.XDDevice(string(s)); ok {
					return types.OptionalOf(types.String(name))
				}
				return types.OptionalNone
			}))},
	},
	{
		name:       "menuPath",
		resultSize: -1,
		growth:     3,
		doc:        `menuPath(text) writes a menu path with arrows: text split at ">", each part trimmed, empty parts dropped, joined with " → ".`,
		examples:   []string{`menuPath("File > Save As") // "File → Save As"`, `menuPath("View>>Zoom >") // "View → Zoom"`},
		perUnit:    4,
		overload: []cel.FunctionOpt{cel.Overload("menuPath_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				return types.String(textfmt.MenuPath(string(s.(types.String))))
			}))},
	},
	{
		name:       "dimensions",
		resultSize: 64,
		doc:        `dimensions(w, h) is "<w>×<h>", ints exactly and doubles as JavaScript prints them (1.5, 1e+21).`,
		examples:   []string{`dimensions(800, 600) // "800×600"`, `dimensions(1.5, 2.0) // "1.5×2"`},
		overload: []cel.FunctionOpt{
			cel.Overload("dimensions_int_int", []*cel.Type{cel.IntType, cel.IntType}, cel.StringType,
				cel.BinaryBinding(func(w, h ref.Val) ref.Val {
					return types.String(textfmt.DimensionsInt(int64(w.(types.Int)), int64(h.(types.Int))))
				})),
			cel.Overload("dimensions_double_double", []*cel.Type{cel.DoubleType, cel.DoubleType}, cel.StringType,
				cel.BinaryBinding(func(w, h ref.Val) ref.Val {
					return types.String(textfmt.Dimensions(float64(w.(types.Double)), float64(h.(types.Double))))
				})),
		},
	},
	{
		name:       "redact",
		resultSize: -1,
		// A credential of one character becomes a placeholder of 25 bytes:
		// "&sig=x" is five times longer redacted (TestSecretTextGrowth).
		growth: 5,
		doc: `redact(text) is text with every credential in it replaced by its size, ‹secret, N characters›, by the one ` +
			`redaction rule of textfmt: a URL's password (and the user of an http or https URL without one), query and form ` +
			`parameters named like credentials (access_token, api_key, password, sig, X-Amz-Signature, …), what follows ` +
			`Authorization: (after a Bearer, Basic or Token scheme, which stays), quoted pairs such as "password": "…", ` +
			`and values shaped like well-known credentials (GitHub, GitLab, Slack, OpenAI, Anthropic, Stripe, AWS, Google, npm ` +
			`and Hugging Face tokens and keys, JWTs, PEM private keys); everything else stays as it is. ` +
			`redact(name, text) is text as a field called name shows it: its placeholder when name means a credential ` +
			`(token, api_key, password, client_secret, Authorization, cookie, private_key, credentials, …, but not max_tokens, ` +
			`secret_name or key), and redact(text) otherwise.`,
		examples: []string{
			`redact("https://deploy:hunter22@ci.example.com/x?access_token=abc123&page=2") // "https://deploy:‹secret, 8 characters›@ci.example.com/x?access_token=‹secret, 6 characters›&page=2"`,
			`redact("curl -H 'Authorization: Bearer abc.def' https://api.example.com") // "curl -H 'Authorization: Bearer ‹secret, 7 characters›' https://api.example.com"`,
			`redact("key AKIAIOSFODNN7EXAMPLE in task-runner") // "key ‹secret, 20 characters› in task-runner"`,
			`redact("{\"password\": \"hunter2\"}") // "{\"password\": \"‹secret, 7 characters›\"}"`,
			`redact("password", "hunter2") // "‹secret, 7 characters›"`,
			`redact("max_tokens", "4096") // "4096"`,
			`redact("secret_name", "prod-db") // "prod-db"`,
			`redact("url", "https://u:pw@host") // "https://u:‹secret, 2 characters›@host"`,
		},
		// Text made of the shortest credentials ("&sig=x" repeated)
		// takes about 11 ns a byte: a unit of cost is about 45 ns.
		perUnit: 4,
		overload: []cel.FunctionOpt{
			cel.Overload("redact_string", []*cel.Type{cel.StringType}, cel.StringType,
				cel.UnaryBinding(func(s ref.Val) ref.Val {
					return types.String(textfmt.SecretText(string(s.(types.String))))
				})),
			cel.Overload("redact_string_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType,
				cel.BinaryBinding(func(name, s ref.Val) ref.Val {
					return types.String(textfmt.RedactField(string(name.(types.String)), string(s.(types.String))))
				})),
		},
	},
	{
		name: "resultValue",
		doc: `resultValue(result) is the value a tool result wraps, at most 8 wrappers deep: {"type": t, "value": v} ` +
			`(exactly these keys) stands for v, {"data": d} and {"data": d, "metadata": m} (exactly these keys) for d; ` +
			`any other value is returned as it is.`,
		examples: []string{`resultValue({"type": "number", "value": 5}) // 5`, `resultValue({"data": {"app": "Safari"}, "metadata": {}}).app // "Safari"`,
			`resultValue({"data": 1, "error": "x"}) // {"data": 1, "error": "x"}`},
		overload: []cel.FunctionOpt{cel.Overload("resultValue_dyn", []*cel.Type{cel.DynType}, cel.DynType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return textfmt.UnwrapResult(v, celFields{}) }))},
	},
	{
		name: "resultObject",
		doc: `resultObject(value) is resultValue(value) when that is an object, and an empty object otherwise, so that a result's ` +
			`details, or a field of them, can be read with .?field whatever the tool returned.`,
		examples: []string{`resultObject({"data": {"app": "Safari"}}).?app.orValue("") // "Safari"`,
			`resultObject(null).?app.orValue("none") // "none"`, `resultObject([1, 2]).size() // 0`},
		overload: []cel.FunctionOpt{cel.Overload("resultObject_dyn", []*cel.Type{cel.DynType}, cel.DynType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				u := textfmt.UnwrapResult(v, celFields{})
				if _, ok := (celFields{}).Object(u); ok {
					return u
				}
				return objectVal{o: emptyObject}
			}))},
	},
}

// emptyObject is the object resultObject gives for a value that is none.
var emptyObject = value.NewObject()

// celFields reads CEL maps for textfmt.UnwrapResult.
type celFields struct{}

func (celFields) Object(v ref.Val) (int, bool) {
	switch m := v.(type) {
	case objectVal:
		return m.o.Len(), true
	case traits.Mapper:
		n, ok := m.Size().(types.Int)
		return int(n), ok
	}
	return 0, false
}

func (celFields) Field(v ref.Val, key string) (ref.Val, bool) {
	return v.(traits.Mapper).Find(types.String(key))
}

// shallowModel converts a value for MCPValue, which shows a list by its
// length and an object as {…}: it converts the top level only, so that its
// cost does not grow with what the value holds.
func shallowModel(v ref.Val) (any, bool) {
	switch v := v.(type) {
	case objectVal:
		return v.o, true
	case traits.Lister:
		if list, ok := v.Value().([]any); ok {
			return list, true // input, as it is
		}
		n, _ := v.Size().(types.Int)
		return make([]any, max(0, int(n))), true
	case traits.Mapper:
		return &value.Object{}, true
	}
	return toModel(v)
}

// fieldModel returns the model value of m[key]: for the input, the value
// as decoded (a Number keeps its literal).
func fieldModel(m, key ref.Val) (any, *types.Err) {
	k, _ := key.(types.String)
	if o, ok := m.(objectVal); ok {
		v, found := o.o.Get(string(k))
		if !found {
			return nil, types.NewErr("no such key: %s", string(k)).(*types.Err)
		}
		return v, nil
	}
	mapper, ok := m.(traits.Mapper)
	if !ok {
		return nil, types.NewErr("no such overload: %s is not a map", m.Type().TypeName()).(*types.Err)
	}
	e, found := mapper.Find(k)
	if !found {
		return nil, types.NewErr("no such key: %s", string(k)).(*types.Err)
	}
	v, ok := shallowModel(e)
	if !ok {
		return nil, types.NewErr("no such overload: a value of type %s", e.Type().TypeName()).(*types.Err)
	}
	return v, nil
}

// pathFields returns the path and file_path fields of a value, for
// PromptPath, without converting the rest of it.
func pathFields(v ref.Val) *value.Object {
	if o, ok := v.(objectVal); ok {
		return o.o
	}
	m, ok := v.(traits.Mapper)
	if !ok {
		return nil
	}
	var keys []string
	var values []any
	for _, k := range []string{"path", "file_path"} {
		if e, found := m.Find(types.String(k)); found {
			keys = append(keys, k)
			if s, isString := e.(types.String); isString {
				values = append(values, string(s))
			} else {
				values = append(values, nil)
			}
		}
	}
	return value.ObjectOf(keys, values)
}

// fieldOf looks the fields of an input object or a map up by name: a
// string, double or int of a map as the Go value the value model holds,
// and any other value as it is.
func fieldOf(v ref.Val) func(string) (any, bool) {
	switch m := v.(type) {
	case objectVal:
		return m.o.Get
	case traits.Mapper:
		return func(name string) (any, bool) {
			e, found := m.Find(types.String(name))
			if !found {
				return nil, false
			}
			switch x := e.(type) {
			case types.String:
				return string(x), true
			case types.Double:
				return float64(x), true
			case types.Int:
				return int64(x), true
			}
			return e, true
		}
	}
	return func(string) (any, bool) { return nil, false }
}

// clampInt converts a CEL int to int, saturating at the int range.
func clampInt(v ref.Val) int {
	n := int64(v.(types.Int))
	switch {
	case n < 0:
		return 0
	case n > int64(^uint(0)>>1):
		return int(^uint(0) >> 1)
	}
	return int(n)
}

func functionOptions() []cel.EnvOption {
	opts := make([]cel.EnvOption, 0, len(functions))
	for _, f := range functions {
		fopts := append([]cel.FunctionOpt{cel.FunctionDocs(f.doc)}, f.overload...)
		opts = append(opts, cel.Function(f.name, fopts...))
	}
	return opts
}

// stringList returns the strings of a CEL list; an element that is no
// string becomes "", which names nothing.
func stringList(l ref.Val) []string {
	list, ok := l.(traits.Lister)
	if !ok {
		return nil
	}
	var out []string
	for it := list.Iterator(); it.HasNext() == types.True; {
		s, _ := it.Next().(types.String)
		out = append(out, string(s))
	}
	return out
}
