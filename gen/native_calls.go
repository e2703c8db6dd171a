package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
)

// call translates a function call or an operator.
func (t *translator) call(e celast.Expr, typ *types.Type) (val, error) {
	c := e.AsCall()
	fn := c.FunctionName()
	ids := t.ast.GetOverloadIDs(e.ID())
	// The operators that do not evaluate all their operands.
	switch fn {
	case operators.LogicalAnd, operators.LogicalOr:
		return t.logical(fn == operators.LogicalOr, c.Args()[0], c.Args()[1])
	case operators.Conditional:
		return t.conditional(typ, c.Args())
	case "or", "orValue":
		if c.IsMemberFunction() && len(ids) == 1 && (ids[0] == "optional_or_optional" || ids[0] == "optional_orValue_value") {
			return t.optionalOr(typ, fn == "orValue", c.Target(), c.Args()[0])
		}
	}
	var args []val
	if c.IsMemberFunction() {
		v, err := t.expr(c.Target())
		if err != nil {
			return val{}, err
		}
		args = append(args, v)
	}
	for _, a := range c.Args() {
		v, err := t.expr(a)
		if err != nil {
			return val{}, err
		}
		args = append(args, v)
	}
	args, v, done := t.chargedCall(fn, ids, typ, args)
	if done {
		return v, nil
	}
	if len(ids) == 1 {
		if v, ok, err := t.overload(ids[0], typ, args); ok || err != nil {
			return v, err
		}
	}
	if v, ok, err := t.dynamic(fn, typ, args); ok || err != nil {
		return v, err
	}
	if len(ids) == 1 {
		return val{}, unsupported("function %s (overload %s)", fn, ids[0])
	}
	return val{}, unsupported("function %s on values whose type is only known at run time (overloads %v)", fn, ids)
}

// logical is && (or false) and ||, with CEL's rules for errors: a side
// that decides the result (false for &&, true for ||) wins over an error
// on the other side.
func (t *translator) logical(or bool, left, right celast.Expr) (val, error) {
	l, lerr, err := t.catching(left, types.BoolType)
	if err != nil {
		return val{}, err
	}
	result := t.goName("ok")
	if lerr == nil {
		// the left side cannot fail: it decides, or the right side is the
		// result, error included
		t.emit(jen.Id(result).Op(":=").Add(l.code))
		block, _, _, err := t.sub(func() (val, error) {
			r, err := t.expr(right)
			if err != nil {
				return val{}, err
			}
			r = t.coerce(r, types.BoolType)
			t.emit(jen.Id(result).Op("=").Add(r.code))
			return r, nil
		})
		if err != nil {
			return val{}, err
		}
		cond := jen.Id(result)
		if or {
			cond = jen.Op("!").Id(result)
		}
		t.emit(jen.If(cond).Block(block...))
		return val{code: jen.Id(result), t: types.BoolType}, nil
	}
	// The left side may fail. As in the interpreter, the right side runs
	// only when the left does not decide: a false left of && (a true one
	// of ||) is the result without it, and what the right side would
	// have charged, or failed with, is not spent.
	failure := t.goName("failure")
	t.emit(jen.List(jen.Id(result), jen.Id(failure)).Op(":=").List(l.code, lerr))
	name := "And"
	undecided := jen.Id(result)
	if or {
		name = "Or"
		undecided = jen.Op("!").Id(result)
	}
	block, _, _, err := t.sub(func() (val, error) {
		r, rerr, err := t.catching(right, types.BoolType)
		if err != nil {
			return val{}, err
		}
		if rerr == nil {
			rerr = jen.Nil()
		}
		t.emit(jen.List(jen.Id(result), jen.Id(failure)).Op("=").Add(qual(name).Call(l.code, lerr, r.code, rerr)))
		return val{}, nil
	})
	if err != nil {
		return val{}, err
	}
	t.emit(jen.If(jen.Add(lerr).Op("!=").Nil().Op("||").Add(undecided)).Block(block...))
	t.emit(jen.If(jen.Id(failure).Op("!=").Nil()).Block(t.failWith(jen.Id(failure))))
	return val{code: jen.Id(result), t: types.BoolType}, nil
}

// conditional is c ? a : b: only the chosen branch is evaluated.
func (t *translator) conditional(typ *types.Type, args []celast.Expr) (val, error) {
	c, err := t.expr(args[0])
	if err != nil {
		return val{}, err
	}
	c = t.coerce(c, types.BoolType)
	result := t.goName("v")
	branch := func(e celast.Expr) ([]jen.Code, error) {
		block, _, _, err := t.sub(func() (val, error) {
			v, err := t.expr(e)
			if err != nil {
				return val{}, err
			}
			v = t.coerce(v, typ)
			t.emit(jen.Id(result).Op("=").Add(v.code))
			return v, nil
		})
		return block, err
	}
	yes, err := branch(args[1])
	if err != nil {
		return val{}, err
	}
	no, err := branch(args[2])
	if err != nil {
		return val{}, err
	}
	t.emit(jen.Var().Id(result).Add(goType(typ)))
	t.emit(jen.If(c.code).Block(yes...).Else().Block(no...))
	return val{code: jen.Id(result), t: typ}, nil
}

// optionalOr is o.or(p) and o.orValue(v): p or v is evaluated only when o
// has no value.
func (t *translator) optionalOr(typ *types.Type, orValue bool, target, alt celast.Expr) (val, error) {
	o, err := t.expr(target)
	if err != nil {
		return val{}, err
	}
	if o.t.Kind() != types.OpaqueKind {
		// a dyn value that holds an optional ([?] on a dyn map)
		o = t.coerce(o, types.NewOptionalType(types.DynType))
	}
	o = t.settle(o, "opt")
	result := t.goName("v")
	block, _, _, err := t.sub(func() (val, error) {
		v, err := t.expr(alt)
		if err != nil {
			return val{}, err
		}
		v = t.coerce(v, typ)
		t.emit(jen.Id(result).Op("=").Add(v.code))
		return v, nil
	})
	if err != nil {
		return val{}, err
	}
	if orValue {
		ot := o.t
		if ot.Kind() == types.OpaqueKind && goTypeName(ot.Parameters()[0]) != goTypeName(typ) {
			// o's value needs a conversion to the result's type, made
			// only when there is a value
			convert, _, _, err := t.sub(func() (val, error) {
				x := t.coerce(val{code: jen.Add(paren(o)).Dot("Value"), t: ot.Parameters()[0]}, typ)
				t.emit(jen.Id(result).Op("=").Add(x.code))
				return x, nil
			})
			if err != nil {
				return val{}, err
			}
			t.emit(jen.Var().Id(result).Add(goType(typ)))
			t.emit(jen.If(jen.Add(paren(o)).Dot("Ok")).Block(convert...).Else().Block(block...))
			return val{code: jen.Id(result), t: typ}, nil
		}
		t.emit(jen.Id(result).Op(":=").Add(paren(o)).Dot("Value"))
	} else {
		t.emit(jen.Id(result).Op(":=").Add(t.coerce(o, typ).code))
	}
	t.emit(jen.If(jen.Op("!").Add(paren(o)).Dot("Ok")).Block(block...))
	return val{code: jen.Id(result), t: typ}, nil
}

// is reports whether the Go types of the arguments are those named.
func is(args []val, names ...string) bool {
	if len(args) != len(names) {
		return false
	}
	for i, n := range names {
		if goTypeName(args[i].t) != n {
			return false
		}
	}
	return true
}

// pure is a call of a celrt function that cannot fail.
func pure(typ *types.Type, name string, args ...val) val {
	return val{code: qual(name).Call(codes(args)...), t: typ}
}

func codes(args []val) []jen.Code {
	out := make([]jen.Code, len(args))
	for i, a := range args {
		out[i] = a.code
	}
	return out
}

// overload translates a call of one known overload whose argument types
// the checker proved. ok is false when the overload is not one this
// translation knows.
func (t *translator) overload(id string, typ *types.Type, args []val) (val, bool, error) {
	// Arguments the overload takes as typed values; a dyn argument (a
	// function whose parameter is dyn) is converted as declared.
	arg := func(i int, to *types.Type) val { return t.coerce(args[i], to) }
	str := func(i int) val { return arg(i, types.StringType) }
	integer := func(i int) val { return arg(i, types.IntType) }
	dyn := func(i int) val { return arg(i, types.DynType) }
	fallible := func(name string, base string, a ...val) (val, bool, error) {
		return t.fallible(typ, base, qual(name).Call(codes(a)...)), true, nil
	}
	op := func(o string, a, b val) (val, bool, error) { return binary(typ, o, a, b), true, nil }
	switch id {
	// arithmetic
	case overloads.AddString:
		return op("+", str(0), str(1))
	case overloads.AddDouble, overloads.SubtractDouble, overloads.MultiplyDouble, overloads.DivideDouble:
		o := map[string]string{overloads.AddDouble: "+", overloads.SubtractDouble: "-", overloads.MultiplyDouble: "*", overloads.DivideDouble: "/"}[id]
		a, b := arg(0, types.DoubleType), arg(1, types.DoubleType)
		// Go computes constant expressions exactly when it compiles, and
		// refuses x / 0.0 and 2.0 * 1e308; CEL computes doubles at run
		// time (+Inf). Constants go through variables.
		if b.constant {
			b = t.settle(b, "d")
			if a.constant {
				a = t.settle(a, "d")
			}
		}
		return op(o, a, b)
	case overloads.AddInt64:
		return fallible("AddInt", "sum", integer(0), integer(1))
	case overloads.SubtractInt64:
		return fallible("SubInt", "diff", integer(0), integer(1))
	case overloads.MultiplyInt64:
		return fallible("MulInt", "product", integer(0), integer(1))
	case overloads.DivideInt64:
		return fallible("DivInt", "quotient", integer(0), integer(1))
	case overloads.ModuloInt64:
		return fallible("ModInt", "rest", integer(0), integer(1))
	case overloads.NegateInt64:
		return fallible("NegInt", "neg", integer(0))
	case overloads.NegateDouble:
		a := arg(0, types.DoubleType)
		if a.constant {
			a = t.settle(a, "d") // -(0.0) is 0 in Go's constants, -0 at run time
		}
		return val{code: jen.Op("-").Add(paren(a)), t: typ, op: "-"}, true, nil
	case overloads.AddUint64:
		return fallible("AddUint", "sum", arg(0, types.UintType), arg(1, types.UintType))
	case overloads.SubtractUint64:
		return fallible("SubUint", "diff", arg(0, types.UintType), arg(1, types.UintType))
	case overloads.MultiplyUint64:
		return fallible("MulUint", "product", arg(0, types.UintType), arg(1, types.UintType))
	case overloads.DivideUint64:
		return fallible("DivUint", "quotient", arg(0, types.UintType), arg(1, types.UintType))
	case overloads.ModuloUint64:
		return fallible("ModUint", "rest", arg(0, types.UintType), arg(1, types.UintType))
	case overloads.AddList:
		return concatLists(typ, arg(0, typ), arg(1, typ)), true, nil
	case overloads.AddBytes:
		return val{code: qual("Concat").Call(args[0].code, args[1].code), t: typ}, true, nil
	case overloads.LogicalNot:
		return val{code: jen.Op("!").Add(paren(arg(0, types.BoolType))), t: typ, op: "!"}, true, nil
	case overloads.NotStrictlyFalse:
		return val{}, false, unsupported("@not_strictly_false outside a macro")
	}
	switch id {
	// sizes
	case overloads.SizeString, overloads.SizeStringInst:
		return pure(typ, "StringSize", str(0)), true, nil
	case overloads.SizeBytes, overloads.SizeBytesInst:
		return val{code: jen.Int64().Call(jen.Len(arg(0, types.BytesType).code)), t: typ}, true, nil
	case overloads.SizeList, overloads.SizeListInst:
		if args[0].t.Kind() == types.ListKind {
			return val{code: jen.Int64().Call(jen.Len(args[0].code)), t: typ}, true, nil
		}
		return fallible("Size", "size", dyn(0))
	case overloads.SizeMap, overloads.SizeMapInst:
		return fallible("Size", "size", dyn(0))
	// conversions
	case overloads.TypeConvertType:
		return t.typeOfValue(typ, args[0]), true, nil
	case overloads.TypeConvertDyn:
		return dyn(0), true, nil
	case overloads.StringToString, overloads.IntToInt, overloads.UintToUint, overloads.DoubleToDouble,
		overloads.BoolToBool, overloads.BytesToBytes:
		return arg(0, typ), true, nil
	case overloads.IntToString:
		return val{code: jen.Qual("strconv", "FormatInt").Call(integer(0).code, jen.Lit(10)), t: typ}, true, nil
	case overloads.UintToString:
		return val{code: jen.Qual("strconv", "FormatUint").Call(arg(0, types.UintType).code, jen.Lit(10)), t: typ}, true, nil
	case overloads.DoubleToString:
		return pure(typ, "DoubleToString", arg(0, types.DoubleType)), true, nil
	case overloads.BoolToString:
		return val{code: jen.Qual("strconv", "FormatBool").Call(arg(0, types.BoolType).code), t: typ}, true, nil
	case overloads.BytesToString:
		return fallible("BytesToString", "s", arg(0, types.BytesType))
	case overloads.StringToBytes:
		return val{code: jen.Index().Byte().Call(str(0).code), t: typ}, true, nil
	case overloads.IntToDouble:
		return val{code: jen.Float64().Call(integer(0).code), t: typ}, true, nil
	case overloads.UintToDouble:
		return val{code: jen.Float64().Call(arg(0, types.UintType).code), t: typ}, true, nil
	case overloads.StringToDouble:
		return fallible("StringToDouble", "d", str(0))
	case overloads.DoubleToInt:
		return fallible("DoubleToInt", "i", arg(0, types.DoubleType))
	case overloads.UintToInt:
		return fallible("UintToInt", "i", arg(0, types.UintType))
	case overloads.StringToInt:
		return fallible("StringToInt", "i", str(0))
	case overloads.IntToUint:
		return fallible("IntToUint", "u", integer(0))
	case overloads.DoubleToUint:
		return fallible("DoubleToUint", "u", arg(0, types.DoubleType))
	case overloads.StringToUint:
		return fallible("ToUint", "u", dyn(0))
	case overloads.StringToBool:
		return fallible("StringToBool", "b", str(0))
	// strings
	case overloads.ContainsString:
		return val{code: jen.Qual("strings", "Contains").Call(str(0).code, str(1).code), t: typ}, true, nil
	case overloads.StartsWithString:
		return val{code: jen.Qual("strings", "HasPrefix").Call(str(0).code, str(1).code), t: typ}, true, nil
	case overloads.EndsWithString:
		return val{code: jen.Qual("strings", "HasSuffix").Call(str(0).code, str(1).code), t: typ}, true, nil
	case overloads.MatchesString, overloads.Matches:
		if pattern, ok := constantString(args[1]); ok && t.patterns != nil {
			name := t.pattern(pattern)
			return t.fallible(typ, "matched", jen.Id(name).Dot("MatchString").Call(str(0).code)), true, nil
		}
		return fallible("Matches", "matched", str(0), str(1))
	}
	if v, ok, err := t.comparison(id, typ, args); ok || err != nil {
		return v, ok, err
	}
	if v, ok, err := t.optionalCall(id, typ, args); ok || err != nil {
		return v, ok, err
	}
	return t.library(id, typ, args)
}

// concatLists is a + b on lists: a + b + c is one concatenation.
func concatLists(typ *types.Type, a, b val) val {
	var lists []jen.Code
	for _, x := range []val{a, b} {
		if x.op == "concat" {
			lists = append(lists, x.parts...)
		} else {
			lists = append(lists, x.code)
		}
	}
	return val{code: qual("Concat").Call(lists...), t: typ, op: "concat", parts: lists}
}

// typeOfValue is type(v).
func (t *translator) typeOfValue(typ *types.Type, v val) val {
	if names := map[string]string{"bool": "BoolType", "int64": "IntType", "uint64": "UintType", "float64": "DoubleType",
		"string": "StringType", "[]byte": "BytesType", "celrt.Type": "TypeType"}; names[goTypeName(v.t)] != "" {
		return val{code: qual(names[goTypeName(v.t)]), t: typ}
	}
	if v.t.Kind() == types.ListKind {
		return val{code: qual("ListType"), t: typ}
	}
	return pure(typ, "TypeOf", t.coerce(v, types.DynType))
}

// comparison translates ==, != and the orderings.
func (t *translator) comparison(id string, typ *types.Type, args []val) (val, bool, error) {
	switch id {
	case overloads.Equals, overloads.NotEquals:
		op := "=="
		if id == overloads.NotEquals {
			op = "!="
		}
		a, b := goTypeName(args[0].t), goTypeName(args[1].t)
		if a == b && comparable(a) {
			return binary(typ, op, args[0], args[1]), true, nil
		}
		// a dyn value against a typed one: compared without boxing it
		typed := map[string]string{"string": "EqualString", "bool": "EqualBool", "int64": "EqualInt", "float64": "EqualDouble"}
		dynArg, typedArg := args[0], args[1]
		if a != "any" {
			dynArg, typedArg = args[1], args[0]
		}
		if fn := typed[goTypeName(typedArg.t)]; fn != "" && goTypeName(dynArg.t) == "any" {
			eq := pure(typ, fn, dynArg, typedArg)
			if op == "!=" {
				eq = val{code: jen.Op("!").Add(eq.code), t: typ, op: "!"}
			}
			return eq, true, nil
		}
		eq := pure(typ, "Equal", t.coerce(args[0], types.DynType), t.coerce(args[1], types.DynType))
		if op == "!=" {
			eq = val{code: jen.Op("!").Add(eq.code), t: typ, op: "!"}
		}
		return eq, true, nil
	}
	ops := [][3]string{
		{"less_equals", "<=", "LessEqual"}, {"greater_equals", ">=", "GreaterEqual"}, {"less", "<", "Less"}, {"greater", ">", "Greater"},
	}
	for _, o := range ops {
		rest, ok := strings.CutPrefix(id, o[0]+"_")
		if !ok {
			continue
		}
		switch rest {
		case "int64", "uint64", "string":
			if is(args, rest, rest) {
				return binary(typ, o[1], args[0], args[1]), true, nil
			}
		}
		return t.fallible(typ, "ok", qual(o[2]).Call(t.coerce(args[0], types.DynType).code, t.coerce(args[1], types.DynType).code)), true, nil
	}
	switch id {
	case overloads.InList:
		// x in a typed list of x's Go type: Go's == is CEL's for these
		if l := args[1]; l.t.Kind() == types.ListKind && comparable(goTypeName(l.t.Parameters()[0])) &&
			goTypeName(l.t.Parameters()[0]) == goTypeName(args[0].t) {
			return val{code: jen.Qual("slices", "Contains").Call(l.code, args[0].code), t: typ}, true, nil
		}
		return t.fallible(typ, "found", qual("In").Call(t.coerce(args[0], types.DynType).code, t.coerce(args[1], types.DynType).code)), true, nil
	case overloads.InMap:
		return t.fallible(typ, "found", qual("In").Call(t.coerce(args[0], types.DynType).code, t.coerce(args[1], types.DynType).code)), true, nil
	case overloads.IndexList:
		if args[0].t.Kind() == types.ListKind && goTypeName(args[1].t) == "int64" {
			return t.fallible(typ, "elem", qual("IndexList").Call(args[0].code, args[1].code)), true, nil
		}
		fallthrough
	case overloads.IndexMap:
		v := t.fallible(types.DynType, "elem", qual("Index").Call(t.coerce(args[0], types.DynType).code, t.coerce(args[1], types.DynType).code))
		return t.coerce(v, typ), true, nil
	}
	return val{}, false, nil
}

// comparable reports whether Go's == on values of a Go type is CEL's.
func comparable(goType string) bool {
	switch goType {
	case "string", "bool", "int64", "uint64", "float64", "celrt.Type":
		return true
	}
	return false
}

// optionalCall translates the functions of optional values.
func (t *translator) optionalCall(id string, typ *types.Type, args []val) (val, bool, error) {
	switch id {
	case "optional_of":
		elem := typ.Parameters()[0]
		of := qual("Of")
		if goTypeName(elem) == "any" {
			of = of.Types(jen.Any()) // Go cannot infer it from nil
		}
		return val{code: of.Call(t.coerce(args[0], elem).code), t: typ}, true, nil
	case "optional_ofNonZeroValue":
		v := val{code: qual("OfNonZero").Call(t.coerce(args[0], types.DynType).code), t: types.NewOptionalType(types.DynType)}
		return t.coerce(v, typ), true, nil
	case "optional_none":
		return val{code: qual("None").Types(goType(typ.Parameters()[0])).Call(), t: typ}, true, nil
	case "optional_hasValue":
		return val{code: jen.Add(paren(args[0])).Dot("Ok"), t: typ}, true, nil
	case "optional_value":
		o := args[0]
		v := t.fallible(o.t.Parameters()[0], "v", jen.Add(paren(o)).Dot("Get").Call())
		return t.coerce(v, typ), true, nil
	case "select_optional_field":
		return val{}, false, nil // handled by dynamic: its field is a string constant
	case "optional_map_index_value", "optional_list_index_int":
		v := t.fallible(types.NewOptionalType(types.DynType), "opt",
			qual("OptIndex").Call(t.coerce(args[0], types.DynType).code, t.coerce(args[1], types.DynType).code))
		return t.coerce(v, typ), true, nil
	}
	return val{}, false, nil
}

// dynamic translates calls whose overload is chosen at run time, because
// an argument's type is dyn.
func (t *translator) dynamic(fn string, typ *types.Type, args []val) (val, bool, error) {
	dyn := func() []jen.Code {
		out := make([]jen.Code, len(args))
		for i, a := range args {
			out[i] = t.coerce(a, types.DynType).code
		}
		return out
	}
	fallible := func(name, base string) (val, bool, error) {
		v := t.fallible(types.DynType, base, qual(name).Call(dyn()...))
		return t.coerce(v, typ), true, nil
	}
	if v, ok := t.libraryDynamic(fn, typ, args); ok {
		return v, true, nil
	}
	switch fn {
	case operators.Add:
		return fallible("Add", "sum")
	case operators.Subtract:
		return fallible("Sub", "diff")
	case operators.Multiply:
		return fallible("Mul", "product")
	case operators.Divide:
		return fallible("Div", "quotient")
	case operators.Modulo:
		return fallible("Mod", "rest")
	case operators.Negate:
		return fallible("Neg", "neg")
	case operators.LogicalNot:
		return t.fallible(typ, "not", qual("Not").Call(dyn()...)), true, nil
	case operators.Equals, operators.NotEquals, operators.Less, operators.LessEquals, operators.Greater, operators.GreaterEquals,
		operators.In, operators.Index:
		id := map[string]string{
			operators.Equals: overloads.Equals, operators.NotEquals: overloads.NotEquals, operators.Less: "less_dyn",
			operators.LessEquals: "less_equals_dyn", operators.Greater: "greater_dyn", operators.GreaterEquals: "greater_equals_dyn",
			operators.In: overloads.InList, operators.Index: overloads.IndexMap,
		}[fn]
		return t.comparison(id, typ, args)
	case "size":
		v := t.fallible(types.IntType, "size", qual("Size").Call(dyn()...))
		return t.coerce(v, typ), true, nil
	case "string", "int", "uint", "double", "bool", "bytes":
		// the conversions return the type they convert to
		conv := map[string]struct {
			name string
			t    *types.Type
		}{
			"string": {"ToString", types.StringType}, "int": {"ToInt", types.IntType}, "uint": {"ToUint", types.UintType},
			"double": {"ToDouble", types.DoubleType}, "bool": {"ToBool", types.BoolType}, "bytes": {"ToBytes", types.BytesType},
		}[fn]
		v := t.fallible(conv.t, fn[:1], qual(conv.name).Call(dyn()...))
		return t.coerce(v, typ), true, nil
	case "type":
		return t.typeOfValue(typ, args[0]), true, nil
	case "dyn":
		return t.coerce(args[0], typ), true, nil
	case operators.OptSelect:
		v := t.fallible(types.NewOptionalType(types.DynType), "opt", qual("OptSelect").Call(t.coerce(args[0], types.DynType).code, args[1].code))
		return t.coerce(v, typ), true, nil
	case operators.OptIndex:
		return t.optionalCall("optional_map_index_value", typ, args)
	}
	return val{}, false, nil
}
