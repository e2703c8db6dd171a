package celfmt

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/permgen/permgen/runtime"
)

// Checked is a catalog whose every expression compiled, type-checked and
// stayed within the cost budget, and whose every example passed.
type Checked struct {
	Catalog    *Catalog
	Formatters []*Formatter
	// override is Options.Override, for RegisterChecked.
	override bool
}

// Load parses and checks a catalog: Parse, then Check. The error is an
// ErrorList with every problem found.
func Load(file string, src []byte, opts Options) (*Checked, error) {
	return LoadFiles(file, src, nil, opts)
}

// LoadFiles parses and checks a catalog that may span several files:
// ParseFiles, then Check.
func LoadFiles(file string, src []byte, read ReadFile, opts Options) (*Checked, error) {
	cat, errs := ParseFiles(file, src, read)
	// Check what parsed even when the structure has problems, so that one
	// run reports every mistake of the file.
	checked, checkErrs := Check(cat, opts)
	errs = append(errs, checkErrs...)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return checked, nil
}

// Warnings returns what a catalog that checks does and should not, sorted:
// a formatter without examples, which no check runs and whose text no
// reader of the catalog sees.
func (c *Checked) Warnings() ErrorList {
	var warnings ErrorList
	for _, f := range c.Formatters {
		if len(f.Entry.Examples) == 0 {
			warnings.Add(f.Entry.ToolPos, "the formatter for %q has no examples: add one, so that check runs it and a reader sees what it shows", f.Entry.Tool)
		}
	}
	warnings.Sort()
	return warnings
}

// Check compiles and type-checks every expression of a parsed catalog,
// estimates its cost and runs every example. It reports all problems,
// sorted by position.
func Check(cat *Catalog, opts Options) (*Checked, ErrorList) {
	opts = opts.withDefaults()
	var errs ErrorList
	p, err := newProvider()
	if err != nil {
		errs.Add(Pos{File: cat.File, Line: 1, Col: 1}, "cannot build the CEL environment: %v", err)
		return nil, errs
	}
	// Declare every entry's input type before building the environment,
	// which shares the provider.
	inputTypes := make([]*types.Type, len(cat.Formatters))
	declared := map[string]bool{}
	for i, e := range cat.Formatters {
		name := inputTypeName(e.Tool)
		if declared[name] {
			// A duplicate tool, already reported: its own type keeps the
			// diagnostics of each entry about that entry. Such a catalog
			// generates no code.
			name = fmt.Sprintf("%s.%d", name, i+1)
		}
		declared[name] = true
		inputTypes[i] = declareInput(p, name, e.Input, func(f Field, err error) {
			errs.Add(f.TypePos, "input field %s: %v", f.Name, err)
		})
	}
	env, err := baseEnv(p)
	if err != nil {
		errs.Add(Pos{File: cat.File, Line: 1, Col: 1}, "cannot build the CEL environment: %v", err)
		return nil, errs
	}
	calls, err := newCallTable(env)
	if err != nil {
		errs.Add(Pos{File: cat.File, Line: 1, Col: 1}, "cannot build the CEL environment: %v", err)
		return nil, errs
	}
	checked := &Checked{Catalog: cat, override: opts.Override}
	// The examples of a catalog may spend, together, what twenty
	// evaluations may: a catalog of many costly examples cannot make
	// checking take minutes.
	exampleCost := examplesCostFactor * opts.CostLimit
	// A shared let that does not check in one formatter is reported
	// there, naming the formatter, and not again for the others.
	sharedFailed := map[string]bool{}
	for i, e := range cat.Formatters {
		f := checkEntry(env, calls, e, inputTypes[i], opts, &exampleCost, sharedFailed, &errs)
		if f != nil {
			checked.Formatters = append(checked.Formatters, f)
		}
	}
	errs.Sort()
	return checked, errs
}

func checkEntry(base *cel.Env, calls callTable, e *Entry, inputType *types.Type, opts Options, exampleCost *uint64, sharedFailed map[string]bool, errs *ErrorList) *Formatter {
	var names []string // the declared fields, for did-you-mean hints
	for _, f := range e.Input {
		names = append(names, f.Name)
	}
	letNames := make([]string, len(e.Lets))
	for i, l := range e.Lets {
		letNames[i] = l.Name
	}
	f := &Formatter{Entry: e, opts: opts}
	ok := true
	env, err := bindLets(base, inputType, letNames, func(i int, env *cel.Env) (*types.Type, error) {
		l := e.Lets[i]
		what, letErrs := sharedWhat(l, e), errs
		if l.Shared {
			letErrs = new(ErrorList)
		}
		c, good := compile(env, calls, l.Expr, what, names, letNames[:i], opts, letErrs)
		good = good && noEmph(c, l.Expr, what, letErrs)
		if l.Shared && !sharedFailed[l.Name] {
			*errs = append(*errs, *letErrs...)
			sharedFailed[l.Name] = !good
		}
		ok = ok && good
		if !good {
			return cel.DynType, nil // reported; later lets still check
		}
		c.name = l.Name
		f.lets = append(f.lets, c)
		f.letNames = append(f.letNames, c.name)
		return c.ast.OutputType(), nil
	})
	if err != nil {
		errs.Add(e.Pos, "%v", err)
		return nil
	}
	if !e.HasPreview() && !e.HasUnwrap() && !e.HasTier() && !e.hasRender() {
		return nil // Parse reported it
	}
	if e.HasPreview() {
		c, good := compile(env, calls, e.Preview, "preview", names, letNames, opts, errs)
		good = good && noEmph(c, e.Preview, "preview", errs)
		if good {
			good = checkPreviewType(f, c, e.Preview.Pos, errs)
		}
		ok = ok && good
		f.preview = c
	}
	if e.HasUnwrap() {
		c, good := compile(env, calls, e.Unwrap, "unwrap", names, letNames, opts, errs)
		good = good && noEmph(c, e.Unwrap, "unwrap", errs)
		if good {
			if problem := unwrapProblem(c.ast.OutputType(), c.ast.NativeRep().Expr(), f.lets); problem != "" {
				errs.Add(e.Unwrap.Pos, "%s", problem)
				good = false
			}
		}
		ok = ok && good
		f.unwrap = c
	}
	f.tier = e.StaticTier
	if e.HasTier() && e.StaticTier == runtime.TierUnknown {
		c, good := compile(env, calls, e.Tier, "tier", names, letNames, opts, errs)
		good = good && noEmph(c, e.Tier, "tier", errs)
		if good {
			if problem := tierProblem(c.ast.OutputType()); problem != "" {
				errs.Add(e.Tier.Pos, "%s", problem)
				good = false
			} else {
				good = checkTierConstants(c, e.Tier, errs)
			}
		}
		ok = ok && good
		f.tierExpr = c
	}
	var resultEnv *cel.Env // the environment of the slots that see result
	for s := range renderSlots {
		src := e.source(s)
		if src.Text == "" {
			continue
		}
		slotEnv := env
		if s.seesResult() {
			if resultEnv == nil {
				if resultEnv, err = env.Extend(cel.Variable(varResult, ResultType())); err != nil {
					errs.Add(e.Pos, "cannot declare result: %v", err)
					return nil
				}
			}
			slotEnv = resultEnv
		}
		c, good := compile(slotEnv, calls, *src, s.String(), names, letNames, opts, errs)
		if s == slotTitle {
			good = good && noEmph(c, *src, "title", errs)
		}
		if good {
			if problem := renderProblem(s, c, f.lets); problem != "" {
				errs.Add(src.Pos, "%s", problem)
				good = false
			}
		}
		ok = ok && good
		f.render[s] = c
	}
	if !ok {
		return nil
	}
	for s := range renderSlots {
		if f.render[s].ast != nil {
			f.renderUnmetered[s] = unmeteredWithin(f.lets, f.render[s], opts.CostLimit)
		}
	}
	if f.preview.ast != nil {
		f.unmetered = unmeteredWithin(f.lets, f.preview, opts.CostLimit)
	}
	if f.unwrap.ast != nil {
		f.unwrapUnmetered = unmeteredWithin(f.lets, f.unwrap, opts.CostLimit)
	}
	if f.tierExpr.ast != nil {
		f.tierUnmetered = unmeteredWithin(f.lets, f.tierExpr, opts.CostLimit)
	}
	f.linkLets()
	f.checked = opts
	f.fields = f.inputFields()
	if !opts.SkipExamples {
		for _, r := range f.runExamples(exampleCost) {
			if r.Problem != "" {
				errs.Add(r.Pos(), "%s", r.Problem)
			}
		}
	}
	return f
}

// checkPreviewType checks the type of a preview: string or
// optional_type(string).
func checkPreviewType(f *Formatter, c compiled, pos Pos, errs *ErrorList) bool {
	optional, problem := textTypeProblem("preview", c, f.lets)
	if problem != "" {
		errs.Add(pos, "%s", problem)
		return false
	}
	f.optional = optional
	return true
}

// alwaysNone reports whether an expression can only be optional.none():
// the call itself, a choice between such expressions, a cel.bind whose
// result is one, or a let that is one.
func alwaysNone(e ast.Expr, lets []compiled) bool {
	switch e.Kind() {
	case ast.CallKind:
		c := e.AsCall()
		switch {
		case c.FunctionName() == "optional.none" && len(c.Args()) == 0 && !c.IsMemberFunction():
			return true
		case c.FunctionName() == "_?_:_" && len(c.Args()) == 3:
			return alwaysNone(c.Args()[1], lets) && alwaysNone(c.Args()[2], lets)
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		if r := c.Result(); r.Kind() == ast.IdentKind && r.AsIdent() == c.AccuVar() {
			return alwaysNone(c.AccuInit(), lets) // cel.bind(x, optional.none(), x)
		}
		return alwaysNone(c.Result(), lets)
	case ast.IdentKind:
		for i := len(lets) - 1; i >= 0; i-- {
			if lets[i].name == e.AsIdent() {
				return alwaysNone(lets[i].ast.NativeRep().Expr(), lets[:i])
			}
		}
	}
	return false
}

// compiled is one checked expression and its program.
type compiled struct {
	name string // the let's name; "" for the preview
	ast  *cel.Ast
	prg  planned
	// estimate is the static worst-case cost of one evaluation on input
	// within the bounds of Options.
	estimate uint64
	// plain is the program without the meter, when the strict estimate
	// strict is within the cost limit (see unmetered.go); nil otherwise.
	plain  planned
	strict uint64
	// metered says why there is no plain program.
	metered string
	// needs are the lets a slot expression reads (see linkLets).
	needs []bool
}

// compile checks one expression. fields are the entry's declared input
// fields, which an undefined field's diagnostic suggests; lets are the
// lets the expression sees.
func compile(env *cel.Env, calls callTable, src Source, what string, fields, lets []string, opts Options, errs *ErrorList) (compiled, bool) {
	if src.tooLong {
		return compiled{}, false // Parse reported it
	}
	if tooLong(src.Text) {
		errs.Add(src.Pos, "%s: the expression is %d characters long, more than the %d an expression may have",
			what, utf8.RuneCountInString(src.Text), MaxExpressionChars)
		return compiled{}, false
	}
	ast, iss := env.Compile(src.Text)
	if iss != nil && iss.Err() != nil {
		for _, e := range iss.Errors() {
			pos := src.Pos
			msg := cleanMessage(e.Message)
			if e.Location != nil {
				line, col := e.Location.Line(), e.Location.Column()
				if m := undefinedField.FindStringSubmatch(msg); m != nil {
					var operand string
					col, operand = fieldStart(src.Text, line, col, m[1])
					known := fields
					if operand == varLimits {
						known = limitNames
					}
					if s := suggest(m[1], known); s != "" && s != m[1] {
						msg += fmt.Sprintf(" (did you mean '%s'?)", s)
					}
				} else {
					col = identStart(src.Text, line, col, e.Message)
					if m := undeclared.FindStringSubmatch(e.Message); m != nil && m[1] == varResult {
						if strings.HasPrefix(what, "let ") {
							msg += ": a let cannot read the call's result, which only result, error and expand see"
						} else {
							msg += ": only result, error and expand see the call's result"
						}
					} else if m != nil {
						if s := suggestName(m[1], lets); s != "" {
							msg += fmt.Sprintf(" (did you mean '%s'?)", s)
						}
					} else if m := memberCall.FindStringSubmatch(msg); m != nil && isGlobalFunction(m[1]) {
						msg += fmt.Sprintf(" (%s is a function, not a method: write %s(x, …) rather than x.%s(…))", m[1], m[1], m[1])
					}
				}
				pos = src.PosAt(line, col)
			}
			errs.Add(pos, "%s: %s", what, msg)
		}
		return compiled{}, false
	}
	if !checkPatterns(ast, src, what, errs) {
		return compiled{}, false
	}
	costs := &estimator{o: opts, literal: literalElements(ast.NativeRep().Expr())}
	// The average size of an element of the input (see amortizedReads).
	share := checker.SizeEstimate{Max: uint64(min(opts.StringEstimate, (opts.MaxInputBytes+opts.MaxItems-1)/max(opts.MaxItems, 1)))}
	for id, s := range amortizedReads(ast.NativeRep().Expr(), share) {
		if _, literal := costs.literal[id]; !literal {
			if costs.literal == nil {
				costs.literal = map[int64]checker.SizeEstimate{}
			}
			costs.literal[id] = s
		}
	}
	est, err := env.EstimateCost(ast, costs)
	if err != nil {
		errs.Add(src.Pos, "%s: cannot estimate its cost: %v", what, err)
		return compiled{}, false
	}
	if o := costs.oversized; o != nil {
		errs.Add(callPos(ast, src, o.fn, o.arg), "%s: %s may build a result of %d characters or elements, "+
			"more than the memory budget of %d bytes: its result grows with its arguments, or with each call "+
			"of a chain; build the text once, or truncate it first", what, o.fn, o.size, opts.MemoryBudget)
		return compiled{}, false
	}
	if est.Max >= 1<<60 { // cel-go's "unknown": no finite bound

		errs.Add(src.Pos, "%s: its cost has no bound: it works on a value whose size cannot be estimated "+
			"(a map built by a comprehension, for example); iterate over the input instead", what)
		return compiled{}, false
	}
	if est.Max > opts.CostBudget {
		errs.Add(src.Pos, "%s: estimated cost %d exceeds the budget of %d by %d (%.1fx): "+
			"avoid nested comprehensions over input lists, or raise the budget",
			what, est.Max, opts.CostBudget, est.Max-opts.CostBudget, float64(est.Max)/float64(opts.CostBudget))
		return compiled{}, false
	}
	prg, err := plan(env, ast, calls)
	if err != nil {
		errs.Add(src.Pos, "%s: %v", what, err)
		return compiled{}, false
	}
	c := compiled{ast: ast, prg: prg, estimate: est.Max}
	c.plain, c.strict, c.metered = unmeteredProgram(env, calls, ast, lets, opts)
	return c, true
}

// callPos returns the position of the call of fn whose first argument (or
// target) is the expression arg: the start of the function's name.
func callPos(a *cel.Ast, src Source, fn string, arg int64) Pos {
	var call ast.Expr
	ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if call != nil || e.Kind() != ast.CallKind || e.AsCall().FunctionName() != fn {
			return
		}
		c := e.AsCall()
		if (c.IsMemberFunction() && c.Target().ID() == arg) ||
			(!c.IsMemberFunction() && len(c.Args()) > 0 && c.Args()[0].ID() == arg) {
			call = e
		}
	}))
	if call == nil {
		return src.Pos
	}
	loc := a.NativeRep().SourceInfo().GetStartLocation(call.ID())
	if loc.Line() < 1 {
		return src.Pos
	}
	return src.PosAt(loc.Line(), nameStart(src.Text, loc.Line(), loc.Column(), fn))
}

// exprPos returns the position where an expression starts: cel-go places
// a call at its opening parenthesis and an operator at its symbol.
// noEmph reports, at each call, an expression other than a row, result,
// error or expand that calls emph: a prompt must not carry markup, which
// it would show as hidden characters revealed, and a let is shared with
// the preview. It returns whether there is none.
func noEmph(c compiled, src Source, what string, errs *ErrorList) bool {
	if c.ast == nil {
		return true
	}
	good := true
	ast.PreOrderVisit(c.ast.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() == ast.CallKind && e.AsCall().FunctionName() == "emph" {
			errs.Add(exprPos(c.ast, src, e), "%s: emph is for rows: use it in row, result, error or expand", what)
			good = false
		}
	}))
	return good
}

func exprPos(a *cel.Ast, src Source, e ast.Expr) Pos {
	for {
		switch {
		case e.Kind() == ast.CallKind && e.AsCall().IsMemberFunction():
			e = e.AsCall().Target()
			continue
		case e.Kind() == ast.CallKind && strings.HasPrefix(e.AsCall().FunctionName(), "_") && len(e.AsCall().Args()) > 0:
			e = e.AsCall().Args()[0]
			continue
		case e.Kind() == ast.SelectKind:
			e = e.AsSelect().Operand()
			continue
		}
		break
	}
	loc := a.NativeRep().SourceInfo().GetStartLocation(e.ID())
	if loc.Line() < 1 {
		return src.Pos
	}
	col := loc.Column()
	if e.Kind() == ast.CallKind {
		col = nameStart(src.Text, loc.Line(), col, e.AsCall().FunctionName())
	}
	return src.PosAt(loc.Line(), col)
}

// nameStart moves a column at a call's parenthesis back to the start of
// the function's name, when the name is there.
func nameStart(text string, line, col int, fn string) int {
	lines := strings.Split(text, "\n")
	if line > len(lines) {
		return col
	}
	runes := []rune(lines[line-1])
	if start := col - len([]rune(fn)); start >= 0 && col <= len(runes) && string(runes[start:col]) == fn {
		return start
	}
	return col
}

// memberCall matches the diagnostic of a function called as a method
// that has no such overload: x.truncate(10).
var memberCall = regexp.MustCompile(`^found no matching overload for '([A-Za-z_][A-Za-z0-9_]*)' applied to '[^']*\.\(`)

// standardGlobals are CEL's functions called as globals that a
// misspelling most often means.
var standardGlobals = []string{"size", "int", "uint", "double", "string", "bool", "bytes", "type", "dyn", "has", "matches", "duration", "timestamp"}

// suggestName returns the variable, let or function a misspelt name most
// likely means: one a letter away, two letters swapped, or one it starts
// with three letters or more (trunc, truncate). Names are short, so a
// looser match would suggest unrelated ones (kinds, lines).
func suggestName(word string, lets []string) string {
	known := append([]string{varInput, varTool, varLimits}, lets...)
	known = append(known, standardGlobals...)
	for _, f := range functions {
		known = append(known, f.name)
	}
	lower := strings.ToLower(word)
	for _, k := range known {
		if editDistance(lower, strings.ToLower(k)) == 1 || swapped(lower, strings.ToLower(k)) {
			return k
		}
	}
	if len(word) >= 3 {
		for _, k := range known {
			if strings.HasPrefix(strings.ToLower(k), lower) {
				return k
			}
		}
	}
	return ""
}

// swapped reports whether a is b with two neighbouring letters swapped.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
		}
	}
	return false
}

// isGlobalFunction reports whether name is one of this package's
// functions, which are called as globals only.
func isGlobalFunction(name string) bool {
	for _, f := range functions {
		if f.name == name {
			return true
		}
	}
	return false
}

var undeclared = regexp.MustCompile(`^undeclared reference to '([A-Za-z_][A-Za-z0-9_.]*)'`)

// identStart moves the column of an "undeclared reference" diagnostic,
// which cel-go reports at a call's parenthesis, back to the start of the
// name, where the mistake is.
func identStart(text string, line, col int, msg string) int {
	m := undeclared.FindStringSubmatch(msg)
	if m == nil {
		return col
	}
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return col
	}
	runes := []rune(lines[line-1])
	name := []rune(m[1])
	if col > len(runes) {
		return col
	}
	end := col
	for end > 0 && runes[end-1] == ' ' {
		end--
	}
	if start := end - len(name); start >= 0 && string(runes[start:end]) == m[1] {
		return start
	}
	return col
}

var undefinedField = regexp.MustCompile(`^undefined field '([A-Za-z_][A-Za-z0-9_]*)'$`)

// limitNames are the fields of the limits variable.
var limitNames = []string{"preview", "summary", "log", "output"}

// fieldStart moves the column of an "undefined field" diagnostic, which
// cel-go reports at the dot of the selection, forward to the field's name,
// where the mistake is. It also returns the identifier before the dot, if
// any ("input" in input.pth), which tells which fields were meant.
func fieldStart(text string, line, col int, name string) (int, string) {
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return col, ""
	}
	runes := []rune(lines[line-1])
	if col >= len(runes) || runes[col] != '.' {
		return col, ""
	}
	end := col
	for end > 0 && runes[end-1] == ' ' {
		end--
	}
	start := end
	for start > 0 && (runes[start-1] == '_' || unicode.IsLetter(runes[start-1]) || unicode.IsDigit(runes[start-1])) {
		start--
	}
	operand := string(runes[start:end])
	at := col + 1
	if at < len(runes) && runes[at] == '?' {
		at++
	}
	for at < len(runes) && runes[at] == ' ' {
		at++
	}
	if at+len([]rune(name)) <= len(runes) && string(runes[at:at+len([]rune(name))]) == name {
		return at, operand
	}
	return col, operand
}

// cleanMessage drops cel-go's mention of the (unused) container.
func cleanMessage(msg string) string {
	return strings.TrimSuffix(msg, " (in container '')")
}
