package gen

import (
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/permgen/permgen/celfmt"
)

// goType is the Go type of values of a CEL type in translated code (see
// package celrt): Go's own types where the type is known, any where it is
// dyn or a map.
func goType(t *types.Type) *jen.Statement {
	switch t.Kind() {
	case types.BoolKind:
		return jen.Bool()
	case types.IntKind:
		return jen.Int64()
	case types.UintKind:
		return jen.Uint64()
	case types.DoubleKind:
		return jen.Float64()
	case types.StringKind:
		return jen.String()
	case types.BytesKind:
		return jen.Index().Byte()
	case types.ListKind:
		return jen.Index().Add(goType(t.Parameters()[0]))
	case types.TypeKind:
		return qual("Type")
	case types.OpaqueKind:
		if t.TypeName() == "optional_type" {
			return qual("Optional").Types(goType(t.Parameters()[0]))
		}
	case types.StructKind:
		switch {
		case t.TypeName() == "permgen.Limits":
			return jen.Qual(runtimePath, "Limits")
		case isObjectType(t):
			return jen.Op("*").Qual(valuePath, "Object")
		}
	}
	return jen.Any()
}

// isObjectType reports whether a struct type is one whose values are
// objects of the value model: a declared input, or the variable result.
func isObjectType(t *types.Type) bool {
	return strings.HasPrefix(t.TypeName(), "permgen.Input_") || t.TypeName() == celfmt.ResultType().TypeName()
}

// goTypeName is goType as text, to compare Go types.
func goTypeName(t *types.Type) string {
	switch t.Kind() {
	case types.BoolKind:
		return "bool"
	case types.IntKind:
		return "int64"
	case types.UintKind:
		return "uint64"
	case types.DoubleKind:
		return "float64"
	case types.StringKind:
		return "string"
	case types.BytesKind:
		return "[]byte"
	case types.ListKind:
		return "[]" + goTypeName(t.Parameters()[0])
	case types.TypeKind:
		return "celrt.Type"
	case types.OpaqueKind:
		if t.TypeName() == "optional_type" {
			return "celrt.Optional[" + goTypeName(t.Parameters()[0]) + "]"
		}
	case types.StructKind:
		switch {
		case t.TypeName() == "permgen.Limits":
			return "runtime.Limits"
		case isObjectType(t):
			return "*value.Object"
		}
	}
	return "any"
}

// asFunc returns the celrt function that converts a dynamic value to the
// Go type of t, failing as CEL does on a value of another type.
func asFunc(t *types.Type) *jen.Statement {
	switch t.Kind() {
	case types.BoolKind:
		return qual("AsBool")
	case types.IntKind:
		return qual("AsInt")
	case types.UintKind:
		return qual("AsUint")
	case types.DoubleKind:
		return qual("AsDouble")
	case types.StringKind:
		return qual("AsString")
	case types.BytesKind:
		return qual("AsBytes")
	case types.TypeKind:
		return qual("AsType")
	case types.ListKind:
		return jen.Func().Params(jen.Id("v").Any()).Params(goType(t), jen.Error()).Block(
			jen.Return(qual("AsList").Call(jen.Id("v"), asFunc(t.Parameters()[0]))))
	case types.OpaqueKind:
		if t.TypeName() == "optional_type" {
			return jen.Func().Params(jen.Id("v").Any()).Params(goType(t), jen.Error()).Block(
				jen.Return(qual("AsOptional").Call(jen.Id("v"), asFunc(t.Parameters()[0]))))
		}
	}
	return qual("AsDyn")
}

// coerce converts a value to the Go type of another CEL type: a typed
// value to dyn (celrt.Dyn), dyn to a typed value (failing on a value of
// another type), between typed lists or optionals element by element.
func (t *translator) coerce(v val, to *types.Type) val {
	from, want := goTypeName(v.t), goTypeName(to)
	if from == want {
		v.t = to
		return v
	}
	switch {
	case want == "any":
		// []any and Optional[any] are already in dynamic form
		switch {
		case v.t.Kind() == types.ListKind && from != "[]any":
			return val{code: qual("ListOf").Call(v.code), t: to}
		case v.t.Kind() == types.OpaqueKind && from != "celrt.Optional[any]":
			return val{code: qual("OptionalOf").Call(v.code), t: to}
		}
		return val{code: v.code, t: to, op: v.op} // Go converts to any
	case from == "any":
		switch to.Kind() {
		case types.MapKind, types.DynKind, types.AnyKind, types.NullTypeKind:
			return val{code: v.code, t: to, op: v.op}
		}
		return t.fallible(to, "x", jen.Add(asFunc(to)).Call(v.code))
	}
	// typed to typed: through dyn
	return t.coerce(t.coerce(v, types.DynType), to)
}

// literal is a constant.
func literal(c ref.Val, typ *types.Type) (val, error) {
	v, err := literalValue(c)
	v.constant, v.lit = true, c.Value()
	return v, err
}

func literalValue(c ref.Val) (val, error) {
	switch x := c.Value().(type) {
	case string:
		return val{code: jen.Lit(x), t: types.StringType}, nil
	case bool:
		return val{code: jen.Lit(x), t: types.BoolType}, nil
	case int64:
		return val{code: jen.Lit(x), t: types.IntType}, nil
	case uint64:
		return val{code: jen.Lit(x), t: types.UintType}, nil
	case float64:
		switch {
		case math.IsInf(x, 1):
			return val{code: jen.Qual("math", "Inf").Call(jen.Lit(1)), t: types.DoubleType}, nil
		case math.IsInf(x, -1):
			return val{code: jen.Qual("math", "Inf").Call(jen.Lit(-1)), t: types.DoubleType}, nil
		case math.IsNaN(x):
			return val{code: jen.Qual("math", "NaN").Call(), t: types.DoubleType}, nil
		case x == 0 && math.Signbit(x):
			// Go's constants have no negative zero: -0.0 is 0
			return val{code: jen.Qual("math", "Copysign").Call(jen.Lit(0), jen.Lit(-1)), t: types.DoubleType}, nil
		}
		return val{code: jen.Lit(x), t: types.DoubleType}, nil
	case []byte:
		return val{code: jen.Index().Byte().Call(jen.Lit(string(x))), t: types.BytesType}, nil
	}
	if c == types.NullValue {
		return val{code: jen.Nil(), t: types.NullType}, nil
	}
	return val{}, unsupported("constant %v of type %s", c, c.Type().TypeName())
}
