package gen

import (
	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"

	"github.com/permgen/permgen/runtime/celrt"
)

// The memory budget.
//
// The interpreter charges every call that builds a string or a list to
// the evaluation's memory budget BEFORE making it, with a size computed
// from the arguments (celfmt's budget.go). Translated code does the same
// with a celrt.Budget, a local variable of each function (budget): each
// such call is preceded by a charge of the size celrt.CallSize gives, the
// same as the interpreter's, and fails with celrt.ErrBudget before it
// allocates. A comprehension's step that appends to the list it builds
// charges what the interpreter's does. A function where && or || may
// absorb a failure checks the budget once more before it returns a value,
// since the interpreter fails an evaluation whose budget ran out even
// where the error was absorbed.

// useBudget marks the function as charging its budget and returns the
// variable.
func (t *translator) useBudget() *jen.Statement {
	t.budget = true
	t.budgetUses++
	return jen.Id("budget")
}

// charge emits the charge of size n (an int64 expression) for a call of
// fn, failing the function when the budget is exceeded. Charges of the
// same function with nothing emitted between them (the + of a chain
// a + "," + b) are emitted as one statement, which makes them in order.
func (t *translator) charge(fn string, n jen.Code) {
	if fn != t.pendingFor {
		t.flush()
	}
	t.useBudget()
	t.pending, t.pendingFor = append(t.pending, n), fn
}

// flush emits the pending charges.
func (t *translator) flush() {
	if len(t.pending) == 0 {
		return
	}
	sizes, fn := t.pending, t.pendingFor
	t.pending, t.pendingFor = nil, ""
	method := "Charge"
	if len(sizes) > 1 {
		method = "ChargeEach"
	}
	t.block = append(t.block, jen.If(jen.Err().Op(":=").Id("budget").Dot(method).Call(lines(append([]jen.Code{jen.Lit(fn)}, sizes...))...),
		jen.Err().Op("!=").Nil()).Block(t.failWith(jen.Err())))
}

// budgetChecked emits the check of the budget before a function returns
// a value: a charge that failed where CEL absorbed the error fails the
// function.
func (t *translator) budgetChecked() {
	if !t.budget || !t.absorbs {
		return // every failed charge returned
	}
	t.emit(jen.If(jen.Err().Op(":=").Id("budget").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(
		t.failWith(jen.Err())))
}

// chargedCall emits the charge of a call of fn, a function the budget
// sizes, with its arguments, and returns the arguments, put in variables
// where the charge and the call would otherwise compute them twice. A
// string or list concatenation is returned as the value of the call, with
// done true.
func (t *translator) chargedCall(fn string, ids []string, typ *types.Type, args []val) (out []val, v val, done bool) {
	if !celrt.Sized(fn) || fn == "json" { // json: Budget.JSON charges as it writes
		return args, val{}, false
	}
	if fn == "string" && len(args) == 1 && goTypeName(args[0].t) != "[]byte" && goTypeName(args[0].t) != "any" {
		return args, val{}, false // only bytes cost: string(int) charges nothing
	}
	if fn == operators.Add && len(ids) == 1 && len(args) == 2 {
		switch ids[0] {
		case overloads.AddString:
			return t.concat(typ, args)
		case overloads.AddList:
			if args[0].t.Kind() == types.ListKind && args[1].t.Kind() == types.ListKind {
				// The elements of both lists: an interface value each.
				a, b := t.operand(t.coerce(args[0], typ)), t.operand(t.coerce(args[1], typ))
				n := t.sum(a, b)
				t.charge(fn, jen.Int64().Call(jen.Lit(16).Op("*").Parens(n)))
				v := concatLists(typ, a, b)
				v.length, v.terms = n, terms(n, a, b)
				return nil, v, true
			}
		}
	}
	out = make([]val, len(args))
	codes := []jen.Code{jen.Lit(fn)}
	for i, a := range args {
		out[i] = t.operand(a)
		codes = append(codes, out[i].code)
	}
	method := "Call"
	if celrt.TextSized(fn) {
		method = "CallText"
	}
	t.emit(jen.If(jen.Err().Op(":=").Add(t.useBudget()).Dot(method).Call(codes...), jen.Err().Op("!=").Nil()).Block(
		t.failWith(jen.Err())))
	return out, val{}, false
}

// concat is a + b on strings, charged as the interpreter charges it: the
// length of the result, at each + of a chain a + b + c, which is still
// one Go concatenation.
func (t *translator) concat(typ *types.Type, args []val) ([]val, val, bool) {
	a, b := t.operand(t.coerce(args[0], types.StringType)), t.operand(t.coerce(args[1], types.StringType))
	n := t.sum(a, b)
	t.charge(operators.Add, jen.Int64().Call(n))
	v := binary(typ, "+", a, b)
	v.length, v.terms = n, terms(n, a, b)
	return nil, v, true
}

// terms is how many lengths n, the length of a + b, adds up: one when
// sum kept it in a variable.
func terms(n jen.Code, a, b val) int {
	if isSimple(n) {
		return 1
	}
	return termsOf(a) + termsOf(b)
}

// termsOf is how many lengths the length of v adds up.
func termsOf(v val) int {
	if v.length != nil {
		return v.terms
	}
	return 1
}

// maxTerms is how many lengths a chain's length adds up before it is
// kept in a variable, so that generated lines stay short.
const maxTerms = 4

// sum is the length of a + b. A long chain's length is kept in a
// variable, which the charges of the rest of the chain add to.
func (t *translator) sum(a, b val) jen.Code {
	n := jen.Add(length(a)).Op("+").Add(length(b))
	if termsOf(a)+termsOf(b) <= maxTerms {
		return n
	}
	name := t.goName("size")
	t.emit(jen.Id(name).Op(":=").Add(n))
	return jen.Id(name)
}

// operand returns a value that can be read twice, for the charge and for
// the call, without computing it twice: a constant, a variable, or a
// concatenation whose length is known without making it.
func (t *translator) operand(v val) val {
	if v.constant || v.length != nil {
		return v
	}
	return t.settle(v, "arg")
}

// length is the length of a string or list operand.
func length(v val) jen.Code {
	if v.length != nil {
		return v.length
	}
	if s, ok := constantString(v); ok {
		return jen.Lit(len(s))
	}
	return jen.Len(v.code)
}

// lines lays out the items of a call or a composite literal one to a line
// when there are more than three, so that no generated line grows with
// the expression it comes from.
func lines(items []jen.Code) []jen.Code {
	if len(items) <= 3 {
		return items
	}
	laid := make([]jen.Code, 0, len(items)+1)
	for _, item := range items {
		laid = append(laid, jen.Line().Add(item))
	}
	return append(laid, jen.Line())
}
