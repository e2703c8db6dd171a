package celfmt

import (
	"fmt"
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Regular expressions.
//
// Go's regular expressions (RE2) match in time linear in the text for a
// fixed pattern, but the factor is the size of the compiled pattern, and a
// pattern taken from the input could be anything the model writes. So the
// pattern of matches must be a constant string: its size is then known when
// the catalog is checked, the estimate and the run-time cost charge the
// text's length times the pattern's instructions (regexWeight), and a
// pattern of more than maxRegexWeight instructions is rejected. The pattern
// is compiled once, when the program is built, rather than at every call.

// constString returns the value of a string literal, or "".
func constString(e ast.Expr) string {
	if e.Kind() != ast.LiteralKind {
		return ""
	}
	s, _ := e.AsLiteral().(types.String)
	return string(s)
}

// matchesCalls returns the calls of matches in an expression, with their
// pattern argument.
func matchesCalls(a *cel.Ast) (calls []ast.Expr, patterns []ast.Expr) {
	ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() != ast.CallKind || e.AsCall().FunctionName() != "matches" {
			return
		}
		c := e.AsCall()
		args := c.Args()
		if c.IsMemberFunction() && len(args) == 1 {
			calls, patterns = append(calls, e), append(patterns, args[0])
		} else if !c.IsMemberFunction() && len(args) == 2 {
			calls, patterns = append(calls, e), append(patterns, args[1])
		}
	}))
	return calls, patterns
}

// checkPatterns reports every pattern of matches that is not a constant
// string, does not compile or is too large.
func checkPatterns(a *cel.Ast, src Source, what string, errs *ErrorList) bool {
	ok := true
	_, patterns := matchesCalls(a)
	for _, p := range patterns {
		pos := exprPos(a, src, p)
		lit, isString := p.AsLiteral().(types.String)
		switch {
		case p.Kind() != ast.LiteralKind || !isString:
			errs.Add(pos, "%s: the pattern of matches must be a constant string: a pattern from the input "+
				"could make matching take any time; write the pattern in the catalog, or compare with "+
				"contains, startsWith or endsWith", what)
			ok = false
		default:
			if _, err := regexp.Compile(string(lit)); err != nil {
				errs.Add(pos, "%s: invalid pattern: %v", what, err)
				ok = false
			} else if w := regexWeight(string(lit)); w > maxRegexWeight {
				errs.Add(pos, "%s: the pattern compiles to %d instructions, more than the %d "+
					"matching may take per character: simplify it", what, w, maxRegexWeight)
				ok = false
			}
		}
	}
	return ok
}

// regexWeights returns the weight of each constant pattern of matches.
func regexWeights(a *cel.Ast) map[string]int {
	_, patterns := matchesCalls(a)
	if len(patterns) == 0 {
		return nil
	}
	w := map[string]int{}
	for _, p := range patterns {
		if s := constString(p); p.Kind() == ast.LiteralKind {
			w[s] = regexWeight(s)
		}
	}
	return w
}

// regexMatch is matches with a constant pattern, compiled once.
type regexMatch struct{ re *regexp.Regexp }

// compileMatch compiles the pattern of a call of matches when it is a
// constant, or returns nil.
func compileMatch(call interpreter.InterpretableCall) (*regexMatch, error) {
	args := call.Args()
	if len(args) != 2 {
		return nil, nil
	}
	c, ok := args[1].(interpreter.InterpretableConst)
	if !ok {
		return nil, nil
	}
	p, ok := c.Value().(types.String)
	if !ok {
		return nil, nil
	}
	re, err := regexp.Compile(string(p))
	if err != nil {
		return nil, fmt.Errorf("invalid pattern: %w", err)
	}
	return &regexMatch{re: re}, nil
}

func (m *regexMatch) match(args []ref.Val) ref.Val {
	s, ok := args[0].(types.String)
	if !ok {
		return types.NewErr("no such overload: matches")
	}
	return types.Bool(m.re.MatchString(string(s)))
}
