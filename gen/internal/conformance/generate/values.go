package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"cel.dev/expr"
	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"github.com/permgen/permgen/gen"
)

const celrtPath = "github.com/permgen/permgen/runtime/celrt"

// dynLit returns a Go expression of a CEL value in celrt's dynamic
// representation: nil, bool, int64, uint64, float64, string, []byte,
// []any, *celrt.Map or celrt.Type.
func dynLit(v *expr.Value) (jen.Code, error) {
	switch k := v.GetKind().(type) {
	case *expr.Value_NullValue:
		return jen.Nil(), nil
	case *expr.Value_BoolValue:
		return jen.Lit(k.BoolValue), nil
	case *expr.Value_Int64Value:
		return intLit(k.Int64Value), nil
	case *expr.Value_Uint64Value:
		return uintLit(k.Uint64Value), nil
	case *expr.Value_DoubleValue:
		return doubleLit(k.DoubleValue), nil
	case *expr.Value_StringValue:
		return jen.Lit(k.StringValue), nil
	case *expr.Value_BytesValue:
		return bytesLit(k.BytesValue), nil
	case *expr.Value_ListValue:
		elems := make([]jen.Code, 0, len(k.ListValue.GetValues()))
		for _, e := range k.ListValue.GetValues() {
			c, err := dynLit(e)
			if err != nil {
				return nil, err
			}
			elems = append(elems, c)
		}
		return jen.Index().Any().Values(elems...), nil
	case *expr.Value_MapValue:
		var keys, values []jen.Code
		for _, e := range k.MapValue.GetEntries() {
			switch e.GetKey().GetKind().(type) {
			case *expr.Value_BoolValue, *expr.Value_Int64Value, *expr.Value_Uint64Value, *expr.Value_StringValue:
			default:
				return nil, valueError{"map keys", "a map with a " + shortValue(e.GetKey()) + " key"}
			}
			kc, err := dynLit(e.GetKey())
			if err != nil {
				return nil, err
			}
			vc, err := dynLit(e.GetValue())
			if err != nil {
				return nil, err
			}
			keys, values = append(keys, kc), append(values, vc)
		}
		return jen.Id("mustMap").Call(jen.Index().Any().Values(keys...), jen.Index().Any().Values(values...)), nil
	case *expr.Value_TypeValue:
		if strings.Contains(k.TypeValue, ".") {
			return nil, valueError{"protobuf types", "the type value " + k.TypeValue}
		}
		return jen.Qual(celrtPath, "Type").Values(jen.Dict{jen.Id("Name"): jen.Lit(k.TypeValue)}), nil
	case *expr.Value_EnumValue:
		return nil, valueError{"protobuf enums", "a " + k.EnumValue.GetType() + " value"}
	case *expr.Value_ObjectValue:
		name := k.ObjectValue.GetTypeUrl()
		name = name[strings.LastIndex(name, "/")+1:]
		return nil, valueError{"protobuf messages", "a " + name + " message"}
	}
	return nil, valueError{"values", "a " + shortValue(v)}
}

// valueError is a value that has no Go literal here: what it is, and the
// category of skip reason it falls in.
type valueError struct{ category, what string }

func (e valueError) Error() string { return e.category + ": " + e.what }

// typedLit returns a Go expression of a CEL value as the Go type of the
// CEL type t: int64 for int, []T for list(T), any for dyn, and so on (see
// gen.GoType).
func typedLit(t *cel.Type, v *expr.Value) (jen.Code, error) {
	mismatch := func() error { return fmt.Errorf("a %s variable bound to %s", t, shortValue(v)) }
	switch t.Kind() {
	case types.BoolKind:
		if k, ok := v.GetKind().(*expr.Value_BoolValue); ok {
			return jen.Lit(k.BoolValue), nil
		}
	case types.IntKind:
		if k, ok := v.GetKind().(*expr.Value_Int64Value); ok {
			return intLit(k.Int64Value), nil
		}
	case types.UintKind:
		if k, ok := v.GetKind().(*expr.Value_Uint64Value); ok {
			return uintLit(k.Uint64Value), nil
		}
	case types.DoubleKind:
		if k, ok := v.GetKind().(*expr.Value_DoubleValue); ok {
			return doubleLit(k.DoubleValue), nil
		}
	case types.StringKind:
		if k, ok := v.GetKind().(*expr.Value_StringValue); ok {
			return jen.Lit(k.StringValue), nil
		}
	case types.BytesKind:
		if k, ok := v.GetKind().(*expr.Value_BytesValue); ok {
			return bytesLit(k.BytesValue), nil
		}
	case types.ListKind:
		k, ok := v.GetKind().(*expr.Value_ListValue)
		if !ok {
			return nil, mismatch()
		}
		elem := t.Parameters()[0]
		elems := make([]jen.Code, 0, len(k.ListValue.GetValues()))
		for _, e := range k.ListValue.GetValues() {
			c, err := typedLit(elem, e)
			if err != nil {
				return nil, err
			}
			elems = append(elems, c)
		}
		return jen.Index().Add(gen.GoType(elem)).Values(elems...), nil
	case types.TypeKind:
		if _, ok := v.GetKind().(*expr.Value_TypeValue); ok {
			return dynLit(v)
		}
	case types.MapKind, types.DynKind, types.NullTypeKind:
		return dynLit(v)
	default:
		return nil, fmt.Errorf("a variable of type %s", t)
	}
	return nil, mismatch()
}

func intLit(i int64) jen.Code { return jen.Id("int64").Call(jen.Id(strconv.FormatInt(i, 10))) }

func uintLit(u uint64) jen.Code { return jen.Id("uint64").Call(jen.Id(strconv.FormatUint(u, 10))) }

// doubleLit writes a float64: constants cannot hold NaN, infinities or
// negative zero, so those are written as calls to math.
func doubleLit(d float64) jen.Code {
	switch {
	case math.IsNaN(d):
		return jen.Qual("math", "NaN").Call()
	case math.IsInf(d, 1):
		return jen.Qual("math", "Inf").Call(jen.Lit(1))
	case math.IsInf(d, -1):
		return jen.Qual("math", "Inf").Call(jen.Lit(-1))
	case d == 0 && math.Signbit(d):
		return jen.Qual("math", "Copysign").Call(jen.Lit(0.0), jen.Lit(-1.0))
	}
	return jen.Lit(d)
}

func bytesLit(b []byte) jen.Code { return jen.Index().Byte().Call(jen.Lit(string(b))) }

// shortValue describes a value for a skip reason.
func shortValue(v *expr.Value) string {
	s := fmt.Sprintf("%T", v.GetKind())
	s = strings.TrimPrefix(s, "*expr.Value_")
	return strings.TrimSuffix(s, "Value") + " value"
}
