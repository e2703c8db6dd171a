package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"cel.dev/expr"
	"cel.dev/expr/conformance/proto2"
	"cel.dev/expr/conformance/proto3"
	"cel.dev/expr/conformance/test"
	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
)

// generator decides, test by test, what is translated and what is skipped.
type generator struct {
	base  *cel.Env
	skips map[string]string // skip.txt: test name to reason
	used  map[string]bool   // skip.txt entries that named a test
}

// outcome is one test: translated (fn set) or skipped (skip set).
type outcome struct {
	name    string // file/section/test
	expr    string
	skip    string // the reason it is not run; empty when translated
	fn      jen.Code
	want    jen.Code
	wantErr bool
}

// fileResult is the outcome of every test of one file, in file order.
type fileResult struct {
	name  string
	tests []outcome
}

// newGenerator builds the environment every test extends: the libraries
// the formatter language pins (see celfmt), plus the conformance message
// types, so that a test using them checks and is then recognized and
// skipped for what it uses rather than for a check error.
func newGenerator(skips map[string]string) (*generator, error) {
	env, err := cel.NewEnv(
		cel.OptionalTypes(cel.OptionalTypesVersion(2)),
		ext.Strings(ext.StringsVersion(4)),
		ext.Lists(ext.ListsVersion(3)),
		ext.Bindings(ext.BindingsVersion(1)),
		ext.TwoVarComprehensions(),
		cel.CrossTypeNumericComparisons(true),
		cel.Types(&proto2.TestAllTypes{}, &proto3.TestAllTypes{}),
	)
	if err != nil {
		return nil, err
	}
	return &generator{base: env, skips: skips, used: map[string]bool{}}, nil
}

// unusedSkips returns the skip.txt entries that named no test, sorted.
func (g *generator) unusedSkips() []string {
	var out []string
	for name := range g.skips {
		if !g.used[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// generateFile decides every test of a file.
func (g *generator) generateFile(name string, f *test.SimpleTestFile) fileResult {
	r := fileResult{name: name}
	seen := map[string]bool{}
	for _, s := range f.GetSection() {
		for _, t := range s.GetTest() {
			full := name + "/" + s.GetName() + "/" + t.GetName()
			// A few names repeat within a section: number the repeats.
			for n := 2; seen[full]; n++ {
				full = fmt.Sprintf("%s/%s/%s#%d", name, s.GetName(), t.GetName(), n)
			}
			o := outcome{name: full, expr: t.GetExpr()}
			if reason, ok := g.skips[full]; ok {
				g.used[full] = true
				o.skip = reason
			} else {
				g.decide(&o, t)
			}
			seen[full] = true
			r.tests = append(r.tests, o)
		}
	}
	return r
}

// skipError is a reason to skip a test.
type skipError string

func (e skipError) Error() string { return string(e) }

func skipf(format string, args ...any) error { return skipError(fmt.Sprintf(format, args...)) }

// decide translates a test, or records why it is skipped.
func (g *generator) decide(o *outcome, t *test.SimpleTest) {
	if err := g.translateTest(o, t); err != nil {
		o.skip = err.Error()
		o.fn, o.want, o.wantErr = nil, nil, false
	}
}

func (g *generator) translateTest(o *outcome, t *test.SimpleTest) error {
	if err := expectation(o, t); err != nil {
		return err
	}
	p, err := g.prepare(t)
	if err != nil {
		return err
	}
	fn, err := translate(p.ast, p.vars)
	if err != nil {
		var u *unsupportedError
		if errors.As(err, &u) {
			return skipf("translator: %s", firstLine(u.Reason))
		}
		return skipf("translator failed: %s", firstLine(err.Error()))
	}
	o.fn = fn
	return nil
}

// prepared is a test ready for translation.
type prepared struct {
	ast  *cel.Ast
	vars []nativeVar
}

// prepare checks a test's expression in its environment and converts its
// bindings, or says why the test is out of scope.
func (g *generator) prepare(t *test.SimpleTest) (*prepared, error) {
	if t.GetDisableCheck() {
		return nil, skipf("unchecked: the test evaluates an expression without type-checking it, and translation needs checked types")
	}
	if t.GetCheckOnly() {
		return nil, skipf("check only: the test has no value to compare")
	}
	opts, declared, err := declarations(t)
	if err != nil {
		return nil, err
	}
	if c := t.GetContainer(); c != "" {
		opts = append(opts, cel.Container(c))
	}
	if t.GetDisableMacros() {
		opts = append(opts, cel.ClearMacros())
	}
	env, err := g.base.Extend(opts...)
	if err != nil {
		return nil, skipf("environment: %s", firstLine(err.Error()))
	}
	a, iss := env.Compile(t.GetExpr())
	if iss.Err() != nil {
		return nil, skipf("does not compile with the pinned libraries: %s", firstLine(iss.Err().Error()))
	}
	if err := outOfScope(a); err != nil {
		return nil, err
	}
	vars, err := bindings(t, declared)
	if err != nil {
		return nil, err
	}
	return &prepared{ast: a, vars: vars}, nil
}

// expectation records the expected result of a test.
func expectation(o *outcome, t *test.SimpleTest) error {
	var want *expr.Value
	switch m := t.GetResultMatcher().(type) {
	case nil:
		want = &expr.Value{Kind: &expr.Value_BoolValue{BoolValue: true}}
	case *test.SimpleTest_Value:
		want = m.Value
	case *test.SimpleTest_TypedResult:
		want = m.TypedResult.GetResult()
	case *test.SimpleTest_EvalError, *test.SimpleTest_AnyEvalErrors:
		o.wantErr = true
		return nil
	case *test.SimpleTest_Unknown, *test.SimpleTest_AnyUnknowns:
		return skipf("unknowns: the test expects an unknown result, which needs partial evaluation")
	default:
		return skipf("unknown result matcher %T", m)
	}
	w, err := dynLit(want)
	if err != nil {
		var v valueError
		if errors.As(err, &v) {
			return skipf("%s: the expected value is %s", v.category, v.what)
		}
		return err
	}
	o.want = w
	return nil
}

// declarations turns the test's type_env into variable declarations, and
// returns the declared types by name.
func declarations(t *test.SimpleTest) ([]cel.EnvOption, map[string]*cel.Type, error) {
	var opts []cel.EnvOption
	declared := map[string]*cel.Type{}
	for _, d := range t.GetTypeEnv() {
		id := d.GetIdent()
		if id == nil {
			return nil, nil, skipf("function declaration: the test declares %s, which has no implementation in Go", d.GetName())
		}
		typ, err := types.ProtoAsType(id.GetType())
		if err != nil {
			return nil, nil, skipf("environment: variable %s: %s", d.GetName(), err)
		}
		if reason := typeOutOfScope(typ); reason != "" {
			return nil, nil, skipf("%s: variable %s is a %s", reason, d.GetName(), typ)
		}
		if id.GetValue() != nil {
			return nil, nil, skipf("constant declaration: %s", d.GetName())
		}
		opts = append(opts, cel.Variable(d.GetName(), typ))
		declared[d.GetName()] = typ
	}
	return opts, declared, nil
}

// outOfScope reports what a checked expression uses that the conformance
// run leaves out: protobuf messages and enums, timestamps and durations.
func outOfScope(a *cel.Ast) error {
	native := a.NativeRep()
	var reason string
	ast.PostOrderVisit(native.Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if reason == "" && e.Kind() == ast.StructKind {
			reason = "protobuf messages: the expression builds a " + e.AsStruct().TypeName()
		}
	}))
	if reason != "" {
		return skipError(reason)
	}
	ids := make([]int64, 0, len(native.TypeMap()))
	for id := range native.TypeMap() {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		t := native.TypeMap()[id]
		if r := typeOutOfScope(t); r != "" {
			return skipf("%s: a subexpression is a %s", r, t)
		}
	}
	for _, id := range sortedRefIDs(native.ReferenceMap()) {
		if ref := native.ReferenceMap()[id]; ref.Value != nil {
			return skipf("protobuf enums: the expression names the enum constant %s", ref.Name)
		}
	}
	return nil
}

func sortedRefIDs(m map[int64]*ast.ReferenceInfo) []int64 {
	ids := make([]int64, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// typeOutOfScope returns the category of a type the conformance run
// leaves out, or "".
func typeOutOfScope(t *cel.Type) string {
	switch t.Kind() {
	case types.StructKind, types.AnyKind:
		return "protobuf messages"
	case types.TimestampKind:
		return "timestamps"
	case types.DurationKind:
		return "durations"
	}
	if strings.HasPrefix(t.TypeName(), "google.protobuf.") || strings.HasPrefix(t.String(), "wrapper(") {
		return "protobuf well-known types"
	}
	for _, p := range t.Parameters() {
		if r := typeOutOfScope(p); r != "" {
			return r
		}
	}
	return ""
}

// bindings returns the test's bindings as Go values of their declared
// types, in name order. An undeclared variable is dyn.
func bindings(t *test.SimpleTest, declared map[string]*cel.Type) ([]nativeVar, error) {
	names := make([]string, 0, len(t.GetBindings()))
	for name := range t.GetBindings() {
		names = append(names, name)
	}
	sort.Strings(names)
	vars := make([]nativeVar, 0, len(names))
	for _, name := range names {
		ev := t.GetBindings()[name]
		v := ev.GetValue()
		if v == nil {
			return nil, skipf("bindings: %s is bound to an error or unknown, not a value", name)
		}
		typ, ok := declared[name]
		if !ok {
			typ = cel.DynType
		}
		lit, err := typedLit(typ, v)
		if err != nil {
			var ve valueError
			if errors.As(err, &ve) {
				return nil, skipf("%s: %s is bound to %s", ve.category, name, ve.what)
			}
			return nil, skipf("bindings: %s: %s", name, err)
		}
		vars = append(vars, nativeVar{Name: name, Type: typ, Value: lit})
	}
	return vars, nil
}

// firstLine returns the first line of an error message, trimmed.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
