package gen

import (
	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/common/types"
)

// libraryCall is a function of the formatter language or of a pinned
// extension library: the celrt function that implements it, the CEL types
// of its parameters, and whether it can fail.
type libraryCall struct {
	name     string
	params   []*types.Type
	fallible bool
}

var (
	str  = types.StringType
	i64  = types.IntType
	dynT = types.DynType
	dbl  = types.DoubleType
	strs = types.NewListType(types.StringType)
	dyns = types.NewListType(types.DynType)
	ints = types.NewListType(types.IntType)
)

// libraryCalls are the library overloads translated to celrt calls, by
// overload id.
var libraryCalls = map[string]libraryCall{
	// the formatter language (package celfmt)
	"truncate_string_int":          {"Truncate", []*types.Type{str, i64}, false},
	"lines_string":                 {"Lines", []*types.Type{str}, false},
	"plural_int_string_string":     {"Plural", []*types.Type{i64, str, str}, false},
	"inline_string_int":            {"Inline", []*types.Type{str, i64}, false},
	"oneLine_string_int":           {"OneLine", []*types.Type{str, i64}, false},
	"toolPart_string":              {"ToolPart", []*types.Type{str}, false},
	"minorUnits_dyn_string":        {"MinorUnits", []*types.Type{dynT, str}, false},
	"collapse_string":              {"Collapse", []*types.Type{str}, false},
	"json_dyn":                     {"JSON", []*types.Type{dynT}, false}, // as Budget.JSON: see library
	"nonEmpty_dyn":                 {"NonEmpty", []*types.Type{dynT}, false},
	"promptPath_dyn":               {"PromptPath", []*types.Type{dynT}, false},
	"alternatives_dyn_list_string": {"Alternatives", []*types.Type{dynT, strs}, false},
	"mcpValue_dyn":                 {"MCPValue", []*types.Type{dynT}, false},
	"mcpValue_dyn_string":          {"MCPValueOf", []*types.Type{dynT, str}, true},
	"fields_dyn_int":               {"Fields", []*types.Type{dynT, i64}, false},
	"numberText_double":            {"NumberText", []*types.Type{dbl}, false},
	"numberText_int":               {"IntText", []*types.Type{i64}, false},
	"numberText_dyn_string":        {"NumberTextOf", []*types.Type{dynT, str}, true},
	"sqlKinds_string":              {"SQLKinds", []*types.Type{str}, false},
	"sqlTier_list_string":          {"SQLTier", []*types.Type{strs}, false},
	"sqlResult_string":             {"SQLResult", []*types.Type{str}, false},
	"commandError_dyn_string_int":  {"CommandError", []*types.Type{dynT, str, i64}, false},
	"outputLines_string":           {"OutputLines", []*types.Type{str}, false},
	"parseJSON_string":             {"ParseJSON", []*types.Type{str}, false},
	"rawText_dyn":                  {"RawText", []*types.Type{dynT}, false},
	"fileSize_int":                 {"FileSizeInt", []*types.Type{i64}, false},
	"fileSize_double":              {"FileSize", []*types.Type{dbl}, false},
	"durationText_int":             {"DurationTextInt", []*types.Type{i64}, false},
	"durationText_double":          {"DurationText", []*types.Type{dbl}, false},
	"shortcut_string":              {"Shortcut", []*types.Type{str}, false},
	"baseName_string":              {"BaseName", []*types.Type{str}, false},
	"emph_string_string":           {"Emph", []*types.Type{str, str}, true},
	"menuPath_string":              {"MenuPath", []*types.Type{str}, false},
	"xdDevice_dyn":                 {"XDDevice", []*types.Type{dynT}, false},
	"dimensions_int_int":           {"DimensionsInt", []*types.Type{i64, i64}, false},
	"dimensions_double_double":     {"Dimensions", []*types.Type{dbl, dbl}, false},
	"resultValue_dyn":              {"ResultValue", []*types.Type{dynT}, false},
	"resultObject_dyn":             {"ResultObject", []*types.Type{dynT}, false},
	"redact_string":                {"Redact", []*types.Type{str}, false},
	"redact_string_string":         {"RedactField", []*types.Type{str, str}, false},

	// ext.Strings(4)
	"string_char_at_int":               {"CharAt", []*types.Type{str, i64}, true},
	"string_index_of_string":           {"IndexOf", []*types.Type{str, str}, true},
	"string_index_of_string_int":       {"IndexOfFrom", []*types.Type{str, str, i64}, true},
	"string_last_index_of_string":      {"LastIndexOf", []*types.Type{str, str}, true},
	"string_last_index_of_string_int":  {"LastIndexOfFrom", []*types.Type{str, str, i64}, true},
	"string_lower_ascii":               {"LowerASCII", []*types.Type{str}, false},
	"string_upper_ascii":               {"UpperASCII", []*types.Type{str}, false},
	"string_replace_string_string":     {"Replace", []*types.Type{str, str, str}, false},
	"string_replace_string_string_int": {"ReplaceN", []*types.Type{str, str, str, i64}, false},
	"string_split_string":              {"Split", []*types.Type{str, str}, false},
	"string_split_string_int":          {"SplitN", []*types.Type{str, str, i64}, false},
	"string_substring_int":             {"Substring", []*types.Type{str, i64}, true},
	"string_substring_int_int":         {"SubstringRange", []*types.Type{str, i64, i64}, true},
	"string_trim":                      {"Trim", []*types.Type{str}, false},
	"list_join":                        {"Join", []*types.Type{strs}, false},
	"list_join_string":                 {"JoinSep", []*types.Type{strs, str}, false},
	"strings_quote":                    {"Quote", []*types.Type{str}, false},
	"string_reverse":                   {"Reverse", []*types.Type{str}, false},
	"string_format":                    {"Format", []*types.Type{str, dyns}, true},

	// ext.Lists(3)
	"list_flatten":     {"Flatten", []*types.Type{dyns}, true},
	"list_flatten_int": {"FlattenDepth", []*types.Type{dyns, i64}, true},
	"lists_range":      {"ListsRange", []*types.Type{i64}, true},
	"list_distinct":    {"Distinct", []*types.Type{dyns}, false},
}

// dynamicCalls are the functions of the formatter language with overloads
// for ints and doubles, by name and number of arguments: the celrt
// function that picks the overload at run time, for arguments whose type
// is dyn (it fails as cel-go does on a value of another type).
var dynamicCalls = map[string]map[int]string{
	"numberText":   {1: "NumberTextDyn"},
	"fileSize":     {1: "FileSizeDyn"},
	"durationText": {1: "DurationTextDyn"},
	"dimensions":   {2: "DimensionsDyn"},
}

// libraryDynamic translates a call of the formatter language whose
// overload is chosen at run time.
func (t *translator) libraryDynamic(fn string, typ *types.Type, args []val) (val, bool) {
	name, ok := dynamicCalls[fn][len(args)]
	if !ok {
		return val{}, false
	}
	in := make([]jen.Code, len(args))
	for i, a := range args {
		in[i] = t.coerce(a, dynT).code
	}
	return t.fallible(typ, "text", qual(name).Call(in...)), true
}

// library translates a call of the formatter language or of an extension
// library.
func (t *translator) library(id string, typ *types.Type, args []val) (val, bool, error) {
	switch id {
	case "list_slice":
		l := args[0]
		if l.t.Kind() != types.ListKind {
			l = t.coerce(l, dyns)
		}
		v := t.fallible(l.t, "slice", qual("Slice").Call(l.code, t.coerce(args[1], i64).code, t.coerce(args[2], i64).code))
		return t.coerce(v, typ), true, nil
	case "list_reverse":
		l := args[0]
		if l.t.Kind() != types.ListKind {
			l = t.coerce(l, dyns)
		}
		return t.coerce(val{code: qual("ReverseList").Call(l.code), t: l.t}, typ), true, nil
	}
	if id == "json_dyn" && len(args) == 1 {
		// written within what is left of the budget
		return t.coerce(t.fallible(str, "text", t.useBudget().Dot("JSON").Call(t.coerce(args[0], dynT).code)), typ), true, nil
	}
	c, ok := libraryCalls[id]
	if !ok || len(c.params) != len(args) {
		return val{}, false, nil
	}
	in := make([]jen.Code, len(args))
	for i, a := range args {
		in[i] = t.coerce(a, c.params[i]).code
	}
	resultType := libraryResult(id, typ)
	var v val
	if c.fallible {
		v = t.fallible(resultType, "r", qual(c.name).Call(in...))
	} else {
		v = val{code: qual(c.name).Call(in...), t: resultType}
	}
	return t.coerce(v, typ), true, nil
}

// libraryResult is the CEL type of what a library function's Go
// implementation returns, where it differs from the checked type of the
// call (a list of dyn the checker typed more precisely, for example).
func libraryResult(id string, typ *types.Type) *types.Type {
	switch id {
	case "string_split_string", "string_split_string_int", "sqlKinds_string":
		return strs
	case "list_flatten", "list_flatten_int", "list_distinct":
		return dyns
	case "lists_range":
		return ints
	case "parseJSON_string":
		return types.NewOptionalType(dynT)
	case "nonEmpty_dyn", "promptPath_dyn", "rawText_dyn", "xdDevice_dyn", "oneLine_string_int", "minorUnits_dyn_string", "sqlResult_string", "commandError_dyn_string_int":
		return types.NewOptionalType(str)
	}
	return typ
}
