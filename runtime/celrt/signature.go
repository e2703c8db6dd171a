package celrt

import "strings"

// operatorSymbols are CEL's operator functions, as source code writes them.
var operatorSymbols = map[string]string{
	"_+_": "+", "_-_": "-", "_*_": "*", "_/_": "/", "_%_": "%",
	"_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">=", "_==_": "==", "_!=_": "!=",
	"_&&_": "&&", "_||_": "||", "@in": "in",
}

// Signature is how a failure names a function applied to operands of the
// given types, as source code would write the call: "double + string",
// "!string", "-bool", "list[string]", "string.path" (a field selected from a
// string), "size(bool)", "truncate(double, int)". A run-time error that says
// only "no such overload" leaves an author to guess which of an
// expression's operators failed, and on what.
func Signature(fn string, kinds []string) string {
	arg := func(i int) string {
		if i < len(kinds) {
			return kinds[i]
		}
		return "?"
	}
	if op, ok := operatorSymbols[fn]; ok && len(kinds) == 2 {
		return arg(0) + " " + op + " " + arg(1)
	}
	switch fn {
	case "!_", "-_":
		return fn[:1] + arg(0)
	case "_[_]":
		return arg(0) + "[" + arg(1) + "]"
	case "_[?_]":
		return arg(0) + "[?" + arg(1) + "]"
	case "_?_:_":
		return arg(0) + " ? " + arg(1) + " : " + arg(2)
	}
	if field, ok := strings.CutPrefix(fn, "."); ok {
		return arg(0) + "." + field
	}
	if field, ok := strings.CutPrefix(fn, "?."); ok {
		return arg(0) + ".?" + field
	}
	return fn + "(" + strings.Join(kinds, ", ") + ")"
}
