package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// The native backend: a checked CEL expression translated into plain Go.
//
// Each node becomes a Go expression of the Go type of its checked type
// (goType). A node that cannot fail and costs little is an expression
// used in place; a node that may fail is computed into a variable by a
// statement followed by a check of its error, which returns from the
// function. The error-absorbing operators (&&, || and the quantifier
// macros) evaluate an operand that may fail in a function literal, so that
// its error becomes a value they can weigh as CEL does. Values cross from
// one checked type to another (typed to dyn and back) through coerce.

const celrtPath = "github.com/permgen/permgen/runtime/celrt"

// UnsupportedError reports CEL that the native translation does not
// cover; the expression is then evaluated by the interpreter.
type UnsupportedError struct{ Reason string }

func (e *UnsupportedError) Error() string { return "not translated to Go: " + e.Reason }

func unsupported(format string, args ...any) error {
	return &UnsupportedError{Reason: fmt.Sprintf(format, args...)}
}

// NativeVar is a variable of an expression being translated.
type NativeVar struct {
	Name  string    // its name in CEL
	Type  *cel.Type // its CEL type
	Value jen.Code  // a Go expression of its value, of the Go type for Type
}

// GoType returns the Go type that holds values of a CEL type in
// translated code: the type a NativeVar's Value must have.
func GoType(t *cel.Type) jen.Code { return goType(t) }

// NativeFunc translates a checked expression into a Go function literal of
// type func() (any, error) that returns the expression's value in dynamic
// form (see package celrt), or its error. It returns an *UnsupportedError
// when the expression uses CEL the translation does not cover.
func NativeFunc(a *cel.Ast, vars []NativeVar) (jen.Code, error) {
	t := newTranslator(a.NativeRep(), []jen.Code{jen.Nil()})
	for _, v := range vars {
		t.bind(v.Name, val{code: v.Value, t: v.Type})
	}
	v, err := t.expr(a.NativeRep().Expr())
	if err != nil {
		return nil, err
	}
	v = t.coerce(v, types.DynType)
	if t.budget {
		// computed before the budget is checked, as a value of dyn
		name := t.goName("v")
		t.emit(jen.Var().Id(name).Any().Op("=").Add(v.code))
		v = val{code: jen.Id(name), t: types.DynType}
		t.budgetChecked()
	}
	t.emit(jen.Return(v.code, jen.Nil()))
	return jen.Func().Params().Params(jen.Any(), jen.Error()).Block(t.body()...), nil
}

// body returns the statements of the function translated.
func (t *translator) body() []jen.Code {
	var counters []jen.Code
	if t.steps {
		counters = append(counters, jen.Id("steps").Op(":=").Lit(0))
	}
	if t.budget {
		counters = append(counters, jen.Var().Id("budget").Qual(celrtPath, "Budget"))
	}
	t.flush()
	return append(counters, t.block...)
}

// val is a translated node: a Go expression of goType(t).
type val struct {
	code jen.Code
	t    *types.Type
	// op marks a binary or unary operator expression, which needs
	// parentheses as an operand, or "concat", a list concatenation of
	// parts.
	op    string
	parts []jen.Code
	// constant marks a literal, which Go evaluates when it compiles; lit
	// is its value.
	constant bool
	lit      any
	// length, when not nil, is an int expression of the length of a
	// string or list concatenation, computed without making it.
	length jen.Code
	terms  int // how many lengths length adds up
}

type translator struct {
	ast   *celast.AST
	block []jen.Code // the statements of the current block
	// fail returns from the current function with an error; its
	// values are the zero values of the function's other results.
	fail   []jen.Code
	scope  []binding
	names  map[string]int  // Go names taken, by base
	taken  map[string]bool // Go names issued
	failed bool            // the current block may fail
	steps  bool            // the function counts comprehension steps
	budget bool            // the function charges its memory budget
	let    string          // the let being translated, whose failures say so
	// absorbs marks a function where && or || may absorb a failure,
	// which the budget's check before it returns catches.
	absorbs bool
	// pending are the charges of one function, in order, not emitted
	// yet (see charge).
	pending    []jen.Code
	pendingFor string
	// budgetUses and loops count the charges of the budget and the
	// comprehension loops translated so far: what code does beside
	// computing a value.
	budgetUses, loops int
	// reads counts the reads of each binding translated so far, by its
	// used flag: a function that bindExpr deletes takes its reads back.
	reads map[*bool]int
	// patterns, when not nil, collects the constant regular expressions,
	// compiled once in package variables (named by patternBase) rather
	// than on each call.
	patterns    *[]patternVar
	patternBase string
}

type patternVar struct{ name, expr string }

// pattern returns the package variable of a constant regular expression.
func (t *translator) pattern(expr string) string {
	for _, p := range *t.patterns {
		if p.expr == expr {
			return p.name
		}
	}
	// The underscore keeps the number apart from the entry's name, which
	// may end in digits: patternA1_1 and patternA_11 differ.
	name := fmt.Sprintf("%s_%d", t.patternBase, len(*t.patterns)+1)
	*t.patterns = append(*t.patterns, patternVar{name, expr})
	return name
}

// constantString reports whether a translated value is a string literal.
func constantString(v val) (string, bool) {
	s, ok := v.lit.(string)
	return s, ok && v.constant
}

type binding struct {
	name string
	v    val
	used *bool
	// lazy, when set, is a cel.bind variable computed where it is read
	// (see bindExpr).
	lazy *lazyBinding
}

type lazyBinding struct{ fn, lazy string }

func newTranslator(a *celast.AST, zeros []jen.Code) *translator {
	t := &translator{ast: a, fail: zeros, names: map[string]int{}}
	for _, reserved := range []string{"err", "input", "tool", "limits", "result", "celrt", "value", "runtime", "textfmt", "steps", "budget", "strings", "regexp"} {
		t.names[reserved] = 1
	}
	return t
}

func (t *translator) emit(c ...jen.Code) {
	t.flush()
	t.block = append(t.block, c...)
}

// bind declares a CEL name with a value, shadowing earlier ones.
func (t *translator) bind(name string, v val) { t.bindUsed(name, v) }

// bindUsed declares a name and returns where it is recorded whether the
// translation used it: Go rejects a variable it declares and never reads.
func (t *translator) bindUsed(name string, v val) *bool {
	used := new(bool)
	t.scope = append(t.scope, binding{name: name, v: v, used: used})
	return used
}

func (t *translator) unbind(n int) { t.scope = t.scope[:len(t.scope)-n] }

func (t *translator) lookup(name string) (val, bool) {
	for i := len(t.scope) - 1; i >= 0; i-- {
		if b := t.scope[i]; b.name == name {
			*b.used = true
			if t.reads == nil {
				t.reads = map[*bool]int{}
			}
			t.reads[b.used]++
			if b.lazy != nil {
				// computed the first time it is read, failing here
				return t.fallible(b.v.t, name, jen.Id(b.lazy.lazy).Dot("Get").Call(jen.Id(b.lazy.fn))), true
			}
			return b.v, true
		}
	}
	return val{}, false
}

// goName returns a fresh Go identifier based on a CEL name.
func (t *translator) goName(base string) string {
	var b strings.Builder
	for i, r := range base {
		if r == '_' || r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || isGoKeyword(name) || name == "@result" {
		name = "v"
	}
	// A name is issued once: a CEL variable v1 and the first temporary
	// v get different Go names.
	for {
		n := t.names[name]
		t.names[name] = n + 1
		candidate := name
		if n > 0 || name == "v" {
			candidate = fmt.Sprintf("%s%d", name, n+1)
		}
		if !t.taken[candidate] {
			if t.taken == nil {
				t.taken = map[string]bool{}
			}
			t.taken[candidate] = true
			return candidate
		}
	}
}

func isGoKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
		"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
		"switch", "type", "var", "any", "string", "bool", "int", "int64", "uint64", "float64", "byte", "error",
		"nil", "true", "false", "len", "append", "make", "new":
		return true
	}
	return false
}

// failWith returns from the current function with err.
func (t *translator) failWith(err jen.Code) jen.Code {
	t.failed = true
	if t.budget && t.absorbs {
		// a charge that failed where CEL absorbed the error is the
		// failure, as in the interpreter
		err = jen.Id("budget").Dot("Failure").Call(err)
	}
	if t.let != "" {
		// the interpreter says which let failed
		err = qual("InLet").Call(jen.Lit(t.let), err)
	}
	return jen.Return(append(append([]jen.Code{}, t.fail...), err)...)
}

// fallible computes a call that returns a value of CEL type typ and an
// error into a new variable, returning on error.
func (t *translator) fallible(typ *types.Type, base string, call jen.Code) val {
	name := t.goName(base)
	t.emit(jen.List(jen.Id(name), jen.Err()).Op(":=").Add(call))
	t.emit(jen.If(jen.Err().Op("!=").Nil()).Block(t.failWith(jen.Err())))
	return val{code: jen.Id(name), t: typ}
}

// settle stores a value into a new variable, so that it is computed once.
func (t *translator) settle(v val, base string) val {
	if isSimple(v.code) && !v.constant {
		return v
	}
	name := t.goName(base)
	t.emit(jen.Id(name).Op(":=").Add(v.code))
	return val{code: jen.Id(name), t: v.t}
}

// wrapSource splits a line of CEL at spaces outside string literals so
// that no line is longer than width where it can be, indenting what
// follows. It takes time linear in the line's length: each cut is after
// the indentation it adds, so what is left always gets shorter.
func wrapSource(line string, width int) []string {
	var lines []string
	indent := len(line) - len(strings.TrimLeft(line, " "))
	for len(line) > width {
		cut, quote := -1, byte(0)
		for i := indent; i < len(line) && (i <= width || cut < 0); i++ {
			switch c := line[i]; {
			case quote != 0 && c == '\\':
				i++
			case quote != 0 && c == quote:
				quote = 0
			case quote == 0 && (c == '"' || c == '\''):
				quote = c
			case quote == 0 && c == ' ' && i > 0:
				cut = i
			}
		}
		if cut < 0 {
			break
		}
		lines = append(lines, line[:cut])
		line = "    " + strings.TrimLeft(line[cut:], " ")
		indent = 4
	}
	return append(lines, line)
}

func isSimple(c jen.Code) bool {
	s := fmt.Sprintf("%#v", c)
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// sub translates f in a block of its own and returns the block, whether
// it may fail, and the value.
func (t *translator) sub(f func() (val, error)) ([]jen.Code, bool, val, error) {
	t.flush()
	outer, outerFailed := t.block, t.failed
	t.block, t.failed = nil, false
	v, err := f()
	t.flush()
	block, failed := t.block, t.failed
	t.block, t.failed = outer, outerFailed || failed
	return block, failed, v, err
}

// paren wraps an operator expression used as an operand.
func paren(v val) jen.Code {
	if v.op != "" {
		return jen.Parens(v.code)
	}
	return v.code
}

// binary is the Go operator expression a op b.
func binary(typ *types.Type, op string, a, b val) val {
	left := paren(a)
	if a.op == op && (op == "+" || op == "&&" || op == "||") {
		left = a.code // associative: a + b + c needs no parentheses
	}
	return val{code: jen.Add(left).Op(op).Add(paren(b)), t: typ, op: op}
}

func qual(name string) *jen.Statement { return jen.Qual(celrtPath, name) }

func (t *translator) typeOf(e celast.Expr) *types.Type {
	if typ := t.ast.GetType(e.ID()); typ != nil {
		return typ
	}
	return types.DynType
}

// expr translates a node. A long Go expression is computed into a
// variable first, so that the code that uses it stays short: no line of
// generated code should need scrolling. A string concatenation is kept
// whole longer, because Go builds a + b + c with one allocation.
func (t *translator) expr(e celast.Expr) (val, error) {
	v, err := t.node(e)
	if err != nil || e.Kind() == celast.LiteralKind {
		return v, err
	}
	limit := 48
	if v.op == "+" || v.op == "concat" {
		limit = 100
	}
	if len(fmt.Sprintf("%#v", v.code)) > limit {
		v = t.settle(v, "v")
	}
	return v, nil
}

// node translates a node.
func (t *translator) node(e celast.Expr) (val, error) {
	typ := t.typeOf(e)
	switch e.Kind() {
	case celast.LiteralKind:
		return literal(e.AsLiteral(), typ)
	case celast.IdentKind:
		return t.ident(e, typ)
	case celast.SelectKind:
		return t.selection(e, typ)
	case celast.CallKind:
		return t.call(e, typ)
	case celast.ListKind:
		return t.list(e, typ)
	case celast.MapKind:
		return t.mapLiteral(e)
	case celast.ComprehensionKind:
		return t.comprehension(e, typ)
	case celast.StructKind:
		return val{}, unsupported("message literals (%s)", e.AsStruct().TypeName())
	}
	return val{}, unsupported("expression of kind %v", e.Kind())
}

func (t *translator) ident(e celast.Expr, typ *types.Type) (val, error) {
	name := e.AsIdent()
	if r, ok := t.ast.ReferenceMap()[e.ID()]; ok && r.Name != "" {
		name = r.Name
		if r.Value != nil {
			return literal(r.Value, typ)
		}
	}
	if v, ok := t.lookup(name); ok {
		return v, nil
	}
	if typ.Kind() == types.TypeKind {
		return typeValue(typ)
	}
	return val{}, unsupported("identifier %s", name)
}

// typeValue is a type used as a value (double in type(x) == double).
func typeValue(typ *types.Type) (val, error) {
	names := map[string]string{
		"null_type": "NullType", "bool": "BoolType", "int": "IntType", "uint": "UintType", "double": "DoubleType",
		"string": "StringType", "bytes": "BytesType", "list": "ListType", "map": "MapType", "type": "TypeType",
		"optional_type": "OptionalType",
	}
	var of *types.Type
	if ps := typ.Parameters(); len(ps) == 1 {
		of = ps[0]
	}
	if of == nil {
		return val{code: qual("TypeType"), t: typ}, nil
	}
	if n, ok := names[of.TypeName()]; ok {
		return val{code: qual(n), t: typ}, nil
	}
	return val{}, unsupported("the type %s as a value", of)
}

func (t *translator) list(e celast.Expr, typ *types.Type) (val, error) {
	l := e.AsList()
	elem := types.DynType
	if ps := typ.Parameters(); len(ps) == 1 {
		elem = ps[0]
	}
	items := make([]jen.Code, 0, l.Size())
	optional := map[int]bool{}
	for _, i := range l.OptionalIndices() {
		optional[int(i)] = true
	}
	var name string // the list, once an optional element needs statements
	for i, x := range l.Elements() {
		v, err := t.expr(x)
		if err != nil {
			return val{}, err
		}
		if !optional[i] {
			if name == "" {
				items = append(items, t.coerce(v, elem).code)
			} else {
				t.emit(jen.Id(name).Op("=").Append(jen.Id(name), t.coerce(v, elem).code))
			}
			continue
		}
		// [?x]: the value of optional x, when it has one
		if name == "" {
			name = t.goName("list")
			t.emit(jen.Id(name).Op(":=").Add(goType(typ)).Values(items...))
		}
		o := t.settle(t.coerce(v, types.NewOptionalType(elem)), "opt")
		t.emit(jen.If(jen.Add(o.code).Dot("Ok")).Block(
			jen.Id(name).Op("=").Append(jen.Id(name), jen.Add(o.code).Dot("Value"))))
	}
	if name != "" {
		return val{code: jen.Id(name), t: typ}, nil
	}
	width := 0
	for _, item := range items {
		width += len(fmt.Sprintf("%#v", item)) + 2
	}
	if width > 100 {
		// one element per line, as gofmt keeps a long literal readable
		return val{code: goType(typ).Add(fields(items...)), t: typ}, nil
	}
	return val{code: goType(typ).Values(items...), t: typ}, nil
}

func (t *translator) mapLiteral(e celast.Expr) (val, error) {
	if e.AsMap().Size() == 0 {
		return val{code: qual("EmptyMap").Call(), t: t.typeOf(e)}, nil
	}
	var keys, values []jen.Code
	var names [2]string // the keys and values, once an optional entry needs statements
	for _, entry := range e.AsMap().Entries() {
		me := entry.AsMapEntry()
		k, err := t.expr(me.Key())
		if err != nil {
			return val{}, err
		}
		v, err := t.expr(me.Value())
		if err != nil {
			return val{}, err
		}
		k = t.coerce(k, types.DynType)
		if !me.IsOptional() {
			v = t.coerce(v, types.DynType)
			if !v.constant {
				v = t.settle(v, "v")
			}
			if names[0] == "" {
				keys, values = append(keys, k.code), append(values, v.code)
			} else {
				t.emit(jen.Id(names[0]).Op("=").Append(jen.Id(names[0]), k.code))
				t.emit(jen.Id(names[1]).Op("=").Append(jen.Id(names[1]), v.code))
			}
			continue
		}
		// {?k: o}: the entry k: value of o, when o has one
		if names[0] == "" {
			names = [2]string{t.goName("keys"), t.goName("values")}
			t.emit(jen.Id(names[0]).Op(":=").Index().Any().Values(keys...))
			t.emit(jen.Id(names[1]).Op(":=").Index().Any().Values(values...))
		}
		o := t.settle(t.coerce(v, types.NewOptionalType(types.DynType)), "opt")
		t.emit(jen.If(jen.Add(o.code).Dot("Ok")).Block(
			jen.Id(names[0]).Op("=").Append(jen.Id(names[0]), k.code),
			jen.Id(names[1]).Op("=").Append(jen.Id(names[1]), jen.Add(o.code).Dot("Value"))))
	}
	call := qual("NewMap").Call(jen.Index().Any().Values(lines(keys)...), jen.Index().Any().Values(lines(values)...))
	if names[0] != "" {
		call = qual("NewMap").Call(jen.Id(names[0]), jen.Id(names[1]))
	}
	v := t.fallible(types.NewMapType(types.DynType, types.DynType), "m", call)
	return val{code: v.code, t: t.typeOf(e)}, nil
}

// selection is e.f, has(e.f), or a qualified name.
func (t *translator) selection(e celast.Expr, typ *types.Type) (val, error) {
	if r, ok := t.ast.ReferenceMap()[e.ID()]; ok && r.Name != "" {
		if r.Value != nil {
			return literal(r.Value, typ)
		}
		if v, ok := t.lookup(r.Name); ok {
			return v, nil
		}
		return val{}, unsupported("identifier %s", r.Name)
	}
	s := e.AsSelect()
	operand, err := t.expr(s.Operand())
	if err != nil {
		return val{}, err
	}
	field := s.FieldName()
	ot := operand.t
	if ot.Kind() == types.StructKind {
		switch {
		case ot.TypeName() == "permgen.Limits":
			if s.IsTestOnly() {
				return val{code: jen.True(), t: typ}, nil
			}
			name := map[string]string{"preview": "Preview", "summary": "Summary", "log": "Log", "output": "Output"}[field]
			return val{code: jen.Int64().Call(jen.Add(paren(operand)).Dot(name)), t: typ}, nil
		case isObjectType(ot):
			if s.IsTestOnly() {
				return val{code: qual("FieldSet").Call(operand.code, jen.Lit(field)), t: typ}, nil
			}
			if typ.Kind() == types.DynKind {
				return val{code: qual("Field").Call(operand.code, jen.Lit(field)), t: typ}, nil
			}
			conv, zero, err := inputConv(typ)
			if err != nil {
				return val{}, err
			}
			return t.fallible(typ, field, qual("FieldOf").Call(operand.code, jen.Lit(field), zero, conv)), nil
		}
		return val{}, unsupported("fields of %s", ot.TypeName())
	}
	dyn := t.coerce(operand, types.DynType)
	if ot.Kind() == types.OpaqueKind && ot.TypeName() == "optional_type" && !s.IsTestOnly() {
		// a field of an optional value is an optional: none when there is
		// no value or no such field
		v := t.fallible(types.NewOptionalType(types.DynType), field, qual("OptSelect").Call(dyn.code, jen.Lit(field)))
		return t.coerce(v, typ), nil
	}
	if s.IsTestOnly() {
		return t.fallible(typ, "has", qual("Has").Call(dyn.code, jen.Lit(field))), nil
	}
	v := t.fallible(types.DynType, field, qual("Select").Call(dyn.code, jen.Lit(field)))
	return t.coerce(v, typ), nil
}

// inputConv returns the celrt function that checks a declared input value
// of type typ, and the value an absent field reads as.
func inputConv(typ *types.Type) (conv, zero jen.Code, err error) {
	switch typ.Kind() {
	case types.StringKind:
		return qual("InputString"), jen.Lit(""), nil
	case types.BoolKind:
		return qual("InputBool"), jen.False(), nil
	case types.IntKind:
		return qual("InputInt"), jen.Lit(int64(0)), nil
	case types.DoubleKind:
		return qual("InputDouble"), jen.Lit(0.0), nil
	case types.DynKind:
		return qual("InputDyn"), jen.Nil(), nil
	case types.ListKind:
		elem, _, err := inputConv(typ.Parameters()[0])
		if err != nil {
			return nil, nil, err
		}
		return qual("InputList").Call(elem), goType(typ).Values(), nil
	case types.MapKind:
		elem, _, err := inputConv(typ.Parameters()[1])
		if err != nil {
			return nil, nil, err
		}
		return qual("InputMap").Call(elem), jen.Any().Call(qual("EmptyMap").Call()), nil
	}
	return nil, nil, unsupported("declared input of type %s", typ)
}

// bindExpr is cel.bind(name, init, result). cel-go evaluates init when
// result first reads name, and not at all when it does not: an init that
// fails, charges the budget or loops is made a function, called where name
// is first read; any other is computed in place.
func (t *translator) bindExpr(name string, initExpr, result celast.Expr) (val, error) {
	typ := t.typeOf(initExpr)
	t.flush()
	uses, loops := t.budgetUses, t.loops
	reads := map[*bool]int{} // of the variables in scope, by init
	for _, b := range t.scope {
		reads[b.used] = t.reads[b.used]
	}
	outerFail, outerLet := t.fail, t.let
	t.fail, t.let = []jen.Code{zero(typ)}, "" // a failure is the function's, which the use site returns
	block, failed, init, err := t.sub(func() (val, error) {
		v, err := t.expr(initExpr)
		if err != nil {
			return val{}, err
		}
		return t.coerce(v, typ), nil
	})
	t.fail, t.let = outerFail, outerLet
	if err != nil {
		return val{}, err
	}
	for used, before := range reads {
		reads[used] = t.reads[used] - before // the reads init made
	}
	goName := t.goName(name)
	initUses, initLoops := t.budgetUses-uses, t.loops-loops
	if !failed && initUses == 0 && initLoops == 0 {
		t.emit(block...)
		t.emit(jen.Id(goName).Op(":=").Add(init.code))
		used := t.bindUsed(name, val{code: jen.Id(goName), t: init.t})
		defer t.unbind(1)
		v, err := t.expr(result)
		if !*used {
			t.emit(jen.Id("_").Op("=").Id(goName))
		}
		return v, err
	}
	fn, lazy := t.goName(name+"Of"), t.goName(name+"Lazy")
	block = append(block, jen.Return(init.code, jen.Nil()))
	at := len(t.block)
	t.emit(jen.Id(fn).Op(":=").Func().Params().Params(goType(typ), jen.Error()).Block(block...))
	t.emit(jen.Var().Id(lazy).Qual(celrtPath, "Lazy").Types(goType(typ)))
	used := new(bool)
	t.scope = append(t.scope, binding{name: name, v: val{code: jen.Id(goName), t: typ}, used: used, lazy: &lazyBinding{fn: fn, lazy: lazy}})
	v, err := t.expr(result)
	t.unbind(1)
	if t.reads[used] == 0 {
		// what init read of other variables is not read either
		for u, n := range reads {
			if t.reads[u] -= n; t.reads[u] == 0 {
				*u = false
			}
		}
		// never read, never computed: the function goes, and what only
		// it used
		t.flush()
		t.block = slices.Delete(t.block, at, at+2)
		t.budgetUses, t.loops = t.budgetUses-initUses, t.loops-initLoops
		t.budget, t.steps = t.budget && t.budgetUses > 0, t.steps && t.loops > 0
	}
	return v, err
}

// comprehension translates the macros: map, filter, all, exists,
// exists_one and cel.bind.
func (t *translator) comprehension(e celast.Expr, typ *types.Type) (val, error) {
	c := e.AsComprehension()
	accu := c.AccuVar()
	isAccu := func(x celast.Expr) bool { return x.Kind() == celast.IdentKind && x.AsIdent() == accu }
	lit := func(x celast.Expr) any {
		if x.Kind() != celast.LiteralKind {
			return nil
		}
		return x.AsLiteral().Value()
	}
	call := func(x celast.Expr, fn string) []celast.Expr {
		if x.Kind() != celast.CallKind || x.AsCall().FunctionName() != fn || x.AsCall().IsMemberFunction() {
			return nil
		}
		return x.AsCall().Args()
	}
	emptyList := func(x celast.Expr) bool { return x.Kind() == celast.ListKind && x.AsList().Size() == 0 }
	cond, step, result := c.LoopCondition(), c.LoopStep(), c.Result()

	// cel.bind(name, init, result)
	if emptyList(c.IterRange()) && lit(cond) == false && isAccu(step) && !c.HasIterVar2() {
		return t.bindExpr(accu, c.AccuInit(), result)
	}
	// map and filter: step is accu + [x], or filter ? accu + [x] : accu.
	if emptyList(c.AccuInit()) && lit(cond) == true && isAccu(result) {
		var filter celast.Expr
		add := step
		if args := call(step, operators.Conditional); args != nil && isAccu(args[2]) {
			filter, add = args[0], args[1]
		}
		if args := call(add, operators.Add); args != nil && isAccu(args[0]) && args[1].Kind() == celast.ListKind && args[1].AsList().Size() == 1 {
			return t.mapFilter(c, typ, filter, args[1].AsList().Elements()[0])
		}
	}
	// transformMap(k, v, [filter,] value) and transformMapEntry(k, v,
	// [filter,] entry): cel.@mapInsert(accu, k, value) or (accu, entry).
	if c.AccuInit().Kind() == celast.MapKind && c.AccuInit().AsMap().Size() == 0 && lit(cond) == true && isAccu(result) {
		var filter celast.Expr
		insert := step
		if args := call(step, operators.Conditional); args != nil && isAccu(args[2]) {
			filter, insert = args[0], args[1]
		}
		if args := call(insert, "cel.@mapInsert"); args != nil && isAccu(args[0]) {
			return t.mapInsert(c, typ, filter, args[1:])
		}
	}
	// all, exists: accu && p, accu || p.
	if args := call(step, operators.LogicalAnd); args != nil && isAccu(args[0]) && lit(c.AccuInit()) == true && isAccu(result) {
		return t.quantifier(c, false, args[1])
	}
	if args := call(step, operators.LogicalOr); args != nil && isAccu(args[0]) && lit(c.AccuInit()) == false && isAccu(result) {
		return t.quantifier(c, true, args[1])
	}
	// exists_one: p ? accu + 1 : accu, then accu == 1.
	if args := call(step, operators.Conditional); args != nil && isAccu(args[2]) && lit(c.AccuInit()) == int64(0) {
		if eq := call(result, operators.Equals); eq != nil && isAccu(eq[0]) && lit(eq[1]) == int64(1) {
			return t.existsOne(c, args[0])
		}
	}
	return val{}, unsupported("a comprehension that is not map, filter, all, exists, exists_one, " +
		"transformList, transformMap, transformMapEntry or cel.bind")
}

// iteration is what a comprehension ranges over: a Go slice, and the CEL
// types of its elements and of the comprehension's variables. With two
// variables, a list gives the index and the element, and a map the key
// (from items) and the value (from values).
type iteration struct {
	items   val
	item    *types.Type // what the slice holds
	iterVar *types.Type // what the (first) variable is
	values  val         // a map's values, in the order of items, with two variables
	second  *types.Type // what the second variable is
	list    bool        // the range is a list
	// dynamic marks items of type celrt.Items (a range whose type is
	// known at run time only), read with Len and At.
	dynamic bool
}

// length is the number of items.
func (it iteration) length() jen.Code {
	if it.dynamic {
		return jen.Add(it.items.code).Dot("Len").Call()
	}
	return jen.Len(it.items.code)
}

// iterate evaluates the range of a comprehension: a typed list as it is,
// the keys of a map with string keys as []string, anything else as a list
// of dyn (celrt.Iterate).
func (t *translator) iterate(c celast.ComprehensionExpr) (iteration, error) {
	r, err := t.expr(c.IterRange())
	if err != nil {
		return iteration{}, err
	}
	dyns := types.NewListType(types.DynType)
	rt := r.t
	if rt.Kind() == types.ListKind && !isSimple(r.code) {
		// read twice, for the length of what the comprehension builds
		// and by the loop: computed once
		r = t.settle(r, "items")
	}
	if c.HasIterVar2() {
		switch rt.Kind() {
		case types.ListKind:
			return iteration{items: r, item: rt.Parameters()[0], iterVar: types.IntType, second: rt.Parameters()[0], list: true}, nil
		case types.MapKind:
			keys, values := t.goName("keys"), t.goName("values")
			t.emit(jen.List(jen.Id(keys), jen.Id(values), jen.Err()).Op(":=").Add(qual("Entries").Call(r.code)))
			t.emit(jen.If(jen.Err().Op("!=").Nil()).Block(t.failWith(jen.Err())))
			return iteration{items: val{code: jen.Id(keys), t: dyns}, item: types.DynType, iterVar: rt.Parameters()[0],
				values: val{code: jen.Id(values), t: dyns}, second: rt.Parameters()[1]}, nil
		}
		return iteration{}, unsupported("a comprehension with two variables over a value whose type is only known at run time")
	}
	switch rt.Kind() {
	case types.ListKind:
		return iteration{items: r, item: rt.Parameters()[0], iterVar: rt.Parameters()[0], list: true}, nil
	case types.MapKind:
		key := rt.Parameters()[0]
		if key.Kind() == types.StringKind {
			strs := types.NewListType(types.StringType)
			return iteration{items: t.fallible(strs, "keys", qual("StringKeys").Call(r.code)), item: key, iterVar: key}, nil
		}
		keys := t.fallible(dyns, "keys", qual("Iterate").Call(r.code))
		return iteration{items: keys, item: types.DynType, iterVar: key, dynamic: true}, nil
	}
	items := t.fallible(dyns, "items", qual("Iterate").Call(t.coerce(r, types.DynType).code))
	return iteration{items: items, item: types.DynType, iterVar: types.DynType, dynamic: true}, nil
}

// loop emits a for loop over an iteration, binding the comprehension's
// variables, with body translated inside it. Each step counts against
// celrt.MaxSteps.
func (t *translator) loop(c celast.ComprehensionExpr, it iteration, body func() error) error {
	t.steps = true
	t.loops++
	t.flush()
	outer, outerFailed := t.block, t.failed
	t.block = nil
	t.emit(jen.If(jen.Id("steps").Op("++"), jen.Id("steps").Op(">").Qual(celrtPath, "MaxSteps")).Block(
		t.failWith(qual("ErrSteps"))))
	// The names of the range clause: an index and an element, each "_"
	// unless the body reads the variable it gives.
	var index, elem string
	var used []*bool
	var bound []val
	readsIndex := false
	bind := func(name string, v val) {
		bound = append(bound, v)
		used = append(used, t.bindUsed(name, v))
	}
	before := len(t.block)
	switch {
	case !c.HasIterVar2():
		elem = t.goName(c.IterVar())
		bind(c.IterVar(), t.coerce(val{code: jen.Id(elem), t: it.item}, it.iterVar))
	case it.list:
		index, elem = t.goName("i"), t.goName(c.IterVar2())
		bind(c.IterVar(), val{code: jen.Int64().Call(jen.Id(index)), t: types.IntType})
		bind(c.IterVar2(), t.coerce(val{code: jen.Id(elem), t: it.item}, it.second))
	default:
		index, elem = t.goName("i"), t.goName(c.IterVar())
		bind(c.IterVar(), t.coerce(val{code: jen.Id(elem), t: it.item}, it.iterVar))
		value := len(t.block)
		bind(c.IterVar2(), t.coerce(val{code: jen.Add(it.values.code).Index(jen.Id(index)), t: types.DynType}, it.second))
		// converting the value reads values[i]
		readsIndex = len(t.block) > value
	}
	// A binding that converts the element reads it, read or not, into a
	// variable that Go wants read.
	conversions := len(t.block)
	converts := conversions > before
	err := body()
	t.flush()
	t.unbind(len(used))
	stmts := t.block
	if converts {
		var reads []jen.Code
		for k, v := range bound {
			if name := fmt.Sprintf("%#v", v.code); !*used[k] && isSimple(v.code) && name != elem && name != index {
				reads = append(reads, jen.Id("_").Op("=").Add(v.code))
			}
		}
		stmts = slices.Concat(stmts[:conversions:conversions], reads, stmts[conversions:])
	}
	t.block = outer
	t.failed = outerFailed || t.failed
	if err != nil {
		return err
	}
	usedIndex, usedElem := false, *used[0] || converts
	switch {
	case c.HasIterVar2() && it.list:
		usedIndex, usedElem = *used[0], *used[1] || converts
	case c.HasIterVar2():
		usedIndex = *used[1] || readsIndex
	}
	if !usedIndex {
		index = "_"
	}
	if it.dynamic {
		// for i := range items.Len() { x := items.At(i); … }
		if usedElem {
			if index == "_" {
				index = t.goName("i")
			}
			stmts = append([]jen.Code{jen.Id(elem).Op(":=").Add(it.items.code).Dot("At").Call(jen.Id(index))}, stmts...)
		}
		if index == "_" {
			t.emit(jen.For(jen.Range().Add(it.length())).Block(stmts...))
		} else {
			t.emit(jen.For(jen.Id(index).Op(":=").Range().Add(it.length())).Block(stmts...))
		}
		return nil
	}
	var clause *jen.Statement
	switch {
	case !usedElem && !usedIndex:
		clause = jen.Range().Add(it.items.code)
	case !usedElem:
		clause = jen.Id(index).Op(":=").Range().Add(it.items.code)
	default:
		clause = jen.List(jen.Id(index), jen.Id(elem)).Op(":=").Range().Add(it.items.code)
	}
	t.emit(jen.For(clause).Block(stmts...))
	return nil
}

func (t *translator) mapFilter(c celast.ComprehensionExpr, typ *types.Type, filter, transform celast.Expr) (val, error) {
	elem := typ.Parameters()[0]
	it, err := t.iterate(c)
	if err != nil {
		return val{}, err
	}
	out := t.goName("list")
	// A list CEL built is never nil: an empty one is [].
	t.emit(jen.Id(out).Op(":=").Make(goType(typ), jen.Lit(0), it.length()))
	err = t.loop(c, it, func() error {
		add := func() error {
			v, err := t.expr(transform)
			if err != nil {
				return err
			}
			v = t.settle(t.coerce(v, elem), "elem")
			// The interpreter's step makes accu + [x]: an element.
			t.charge(operators.Add, jen.Lit(16))
			t.emit(jen.Id(out).Op("=").Append(jen.Id(out), v.code))
			return nil
		}
		return t.filtered(filter, add)
	})
	if err != nil {
		return val{}, err
	}
	return val{code: jen.Id(out), t: typ}, nil
}

// mapInsert is transformMap and transformMapEntry: the keys and values
// are collected, and the map built once (a key given twice is an error).
func (t *translator) mapInsert(c celast.ComprehensionExpr, typ *types.Type, filter celast.Expr, args []celast.Expr) (val, error) {
	it, err := t.iterate(c)
	if err != nil {
		return val{}, err
	}
	keys, values := t.goName("keys"), t.goName("values")
	t.emit(jen.Var().Id(keys).Index().Any(), jen.Var().Id(values).Index().Any())
	err = t.loop(c, it, func() error {
		add := func() error {
			if len(args) == 2 {
				k, err := t.expr(args[0])
				if err != nil {
					return err
				}
				v, err := t.expr(args[1])
				if err != nil {
					return err
				}
				t.emit(jen.Id(keys).Op("=").Append(jen.Id(keys), t.coerce(k, types.DynType).code))
				t.emit(jen.Id(values).Op("=").Append(jen.Id(values), t.coerce(v, types.DynType).code))
				return nil
			}
			e, err := t.expr(args[0])
			if err != nil {
				return err
			}
			entry := t.coerce(e, types.DynType)
			ks, vs := t.goName("ks"), t.goName("vs")
			t.emit(jen.List(jen.Id(ks), jen.Id(vs), jen.Err()).Op(":=").Add(qual("Entries").Call(entry.code)))
			t.emit(jen.If(jen.Err().Op("!=").Nil()).Block(t.failWith(jen.Err())))
			t.emit(jen.Id(keys).Op("=").Append(jen.Id(keys), jen.Id(ks).Op("...")))
			t.emit(jen.Id(values).Op("=").Append(jen.Id(values), jen.Id(vs).Op("...")))
			return nil
		}
		return t.filtered(filter, add)
	})
	if err != nil {
		return val{}, err
	}
	m := t.fallible(types.NewMapType(types.DynType, types.DynType), "m", qual("NewMap").Call(jen.Id(keys), jen.Id(values)))
	m.t = typ
	return m, nil
}

// filtered runs add, in an if on filter when there is one (the
// three-argument map, filter, transformList and transformMap).
func (t *translator) filtered(filter celast.Expr, add func() error) error {
	if filter == nil {
		return add()
	}
	f, err := t.expr(filter)
	if err != nil {
		return err
	}
	f = t.coerce(f, types.BoolType)
	block, _, _, err := t.sub(func() (val, error) { return val{}, add() })
	if err != nil {
		return err
	}
	t.emit(jen.If(f.code).Block(block...))
	return nil
}

// quantifier is all (exists false) or exists: the first element that
// decides ends the loop; an error is the result only when no element
// decides.
func (t *translator) quantifier(c celast.ComprehensionExpr, exists bool, pred celast.Expr) (val, error) {
	found, firstErr := t.goName("found"), t.goName("failure")
	decided := jen.Id(found)
	if !exists {
		decided = jen.Op("!").Id(found)
	}
	t.emit(jen.Id(found).Op(":=").Lit(!exists), jen.Var().Id(firstErr).Error())
	it, err := t.iterate(c)
	if err != nil {
		return val{}, err
	}
	err = t.loop(c, it, func() error {
		p, perr, err := t.catching(pred, types.BoolType)
		if err != nil {
			return err
		}
		if perr == nil {
			t.emit(jen.Id(found).Op("=").Add(p.code))
		} else {
			t.emit(jen.If(jen.Add(perr).Op("!=").Nil()).Block(
				jen.If(jen.Id(firstErr).Op("==").Nil()).Block(jen.Id(firstErr).Op("=").Add(perr)),
				jen.Continue(),
			), jen.Id(found).Op("=").Add(p.code))
		}
		t.emit(jen.If(decided).Block(jen.Break()))
		return nil
	})
	if err != nil {
		return val{}, err
	}
	undecided := jen.Op("!").Id(found)
	if !exists {
		undecided = jen.Id(found)
	}
	t.emit(jen.If(undecided.Op("&&").Id(firstErr).Op("!=").Nil()).Block(t.failWith(jen.Id(firstErr))))
	return val{code: jen.Id(found), t: types.BoolType}, nil
}

func (t *translator) existsOne(c celast.ComprehensionExpr, pred celast.Expr) (val, error) {
	n := t.goName("matches")
	it, err := t.iterate(c)
	if err != nil {
		return val{}, err
	}
	t.emit(jen.Id(n).Op(":=").Lit(0))
	err = t.loop(c, it, func() error {
		p, err := t.expr(pred)
		if err != nil {
			return err
		}
		p = t.coerce(p, types.BoolType)
		t.emit(jen.If(p.code).Block(jen.Id(n).Op("++")))
		return nil
	})
	if err != nil {
		return val{}, err
	}
	return val{code: jen.Id(n).Op("==").Lit(1), t: types.BoolType, op: "=="}, nil
}

// catching translates e as a value of type typ and, when it may fail,
// computes it in a function literal whose error it returns as a value
// (errCode), instead of returning from the enclosing function.
func (t *translator) catching(e celast.Expr, typ *types.Type) (v val, errCode *jen.Statement, err error) {
	t.flush() // with the failure of the outer function
	outerFail, outerFailed, outerLet := t.fail, t.failed, t.let
	t.fail, t.let = []jen.Code{zero(typ)}, "" // the failure is a value, which the let's own return wraps
	defer func() { t.let = outerLet }()
	block, failed, v, err := t.sub(func() (val, error) {
		v, err := t.expr(e)
		if err != nil {
			return val{}, err
		}
		return t.coerce(v, typ), nil
	})
	t.fail = outerFail
	if err != nil {
		return val{}, nil, err
	}
	if !failed { // no return in block: it runs in place
		t.emit(block...)
		return v, nil, nil
	}
	t.failed = outerFailed // the literal returns its failure as a value
	t.absorbs = true
	name, errName := t.goName("v"), t.goName("failure")
	block = append(block, jen.Return(v.code, jen.Nil()))
	t.emit(jen.List(jen.Id(name), jen.Id(errName)).Op(":=").Func().Params().Params(goType(typ), jen.Error()).Block(block...).Call())
	return val{code: jen.Id(name), t: typ}, jen.Id(errName), nil
}

// zero is the Go zero value of a CEL type.
func zero(typ *types.Type) jen.Code {
	switch goTypeName(typ) {
	case "string":
		return jen.Lit("")
	case "bool":
		return jen.False()
	case "int64", "uint64", "float64":
		return jen.Lit(0)
	case "any", "*value.Object":
		return jen.Nil()
	}
	if typ.Kind() == types.ListKind || typ.Kind() == types.BytesKind {
		return jen.Nil()
	}
	return goType(typ).Values()
}
