package celfmt

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"
)

// GeneratedEntry is a checked formatter in the form generated code embeds:
// its metadata and each expression's checked AST, serialized. Restoring it
// needs no parsing and no type-checking.
type GeneratedEntry struct {
	Tool        string
	Aliases     []string // other tool names of the formatter, registered with it
	Owner       string   // the catalog file and the tool: "formatters.yaml#read"
	Title       string
	Description string
	Input       []GeneratedField // nil when the input is not declared
	Lets        []GeneratedExpr
	Preview     GeneratedExpr // no AST when the entry has no preview
	Optional    bool          // the preview may decline
	Unwrap      GeneratedExpr // no AST when the entry has no unwrap
	// Tier is the tier the entry names ("read"), "" when it has none or
	// has a tier expression, TierExpr.
	Tier     string
	TierExpr GeneratedExpr // no AST when the entry has no tier expression
	// Category, NerdIcon and PlainIcon present the tool, with Title (see
	// runtime.Presentation).
	Category  string
	NerdIcon  string
	PlainIcon string
	// NoTitle and Communication are the entry's (see Entry).
	NoTitle       bool
	Communication bool
	// Row, Result, Error and Expand are the slots of rows and results, no
	// AST for those the entry does not have.
	Row, Result, Error, Expand GeneratedExpr
	// TitleExpr computes the title of one call (Title is its fallback);
	// no AST when the entry has none.
	TitleExpr GeneratedExpr
	// Fields are the input fields the formatter accounts for (see
	// Formatter.InputFields).
	Fields runtime.InputFields
}

// Presentation is how rows present the entry's tool.
func (g GeneratedEntry) Presentation() runtime.Presentation {
	return runtime.Presentation{Title: g.Title, Category: g.Category, NerdIcon: g.NerdIcon, PlainIcon: g.PlainIcon,
		NoTitle: g.NoTitle, Communication: g.Communication}
}

// renderExprs are the entry's slots of rows and results, by renderSlot.
func (g *GeneratedEntry) renderExprs() [renderSlots]*GeneratedExpr {
	return [renderSlots]*GeneratedExpr{&g.Row, &g.Result, &g.Error, &g.Expand, &g.TitleExpr}
}

// GeneratedField is a declared input field.
type GeneratedField struct {
	Name string
	Type string
}

// GeneratedExpr is one checked expression.
type GeneratedExpr struct {
	Name   string // the let's name; "" for the preview
	Source string // the CEL text, for documentation and diagnostics
	AST    string // the checked AST, as deterministic protobuf bytes
}

// Generated returns the formatter in the form generated code embeds.
func (f *Formatter) Generated() (GeneratedEntry, error) {
	e := f.Entry
	g := GeneratedEntry{
		Tool: e.Tool, Aliases: e.Aliases, Owner: e.Owner(), Title: e.Title, Description: e.Description, Optional: f.optional,
		Category: e.Category, NerdIcon: e.Icon.Nerd, PlainIcon: e.Icon.Plain, Fields: f.fields,
		NoTitle: e.NoTitle, Communication: e.Communication,
	}
	if e.Input != nil {
		g.Input = []GeneratedField{}
		for _, field := range e.Input {
			g.Input = append(g.Input, GeneratedField{Name: field.Name, Type: field.Type})
		}
	}
	for i, l := range f.lets {
		ast, err := serializeAST(l.ast)
		if err != nil {
			return GeneratedEntry{}, err
		}
		g.Lets = append(g.Lets, GeneratedExpr{Name: l.name, Source: e.Lets[i].Expr.Text, AST: ast})
	}
	exprs := []struct {
		to  *GeneratedExpr
		c   compiled
		src Source
	}{{&g.Preview, f.preview, e.Preview}, {&g.Unwrap, f.unwrap, e.Unwrap}, {&g.TierExpr, f.tierExpr, e.Tier}}
	for s, to := range g.renderExprs() {
		exprs = append(exprs, struct {
			to  *GeneratedExpr
			c   compiled
			src Source
		}{to, f.render[s], *e.source(renderSlot(s))})
	}
	for _, x := range exprs {
		if x.c.ast == nil {
			continue
		}
		ast, err := serializeAST(x.c.ast)
		if err != nil {
			return GeneratedEntry{}, err
		}
		*x.to = GeneratedExpr{Source: x.src.Text, AST: ast}
	}
	if f.tier != runtime.TierUnknown {
		g.Tier = f.tier.String()
	}
	return g, nil
}

// Generated returns every formatter of the catalog in the form generated
// code embeds, in catalog order.
func (c *Checked) Generated() ([]GeneratedEntry, error) {
	entries := make([]GeneratedEntry, len(c.Formatters))
	for i, f := range c.Formatters {
		g, err := f.Generated()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Entry.Pos, err)
		}
		entries[i] = g
	}
	return entries, nil
}

func serializeAST(a *cel.Ast) (string, error) {
	pb, err := cel.AstToCheckedExpr(a)
	if err != nil {
		return "", err
	}
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(pb)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// ErrEnvVersion is returned by a GeneratedCatalog whose code was generated
// for another CEL environment than this package's EnvVersion.
var ErrEnvVersion = errors.New("generated code is from another CEL environment")

// GeneratedCatalog is the run-time side of generated code: it holds the
// embedded entries and builds each formatter's programs the first time the
// formatter runs, so that initializing a generated package costs nothing.
// It is safe for concurrent use.
type GeneratedCatalog struct {
	version string
	entries []GeneratedEntry
	opts    Options

	envOnce sync.Once
	env     *cel.Env
	calls   callTable
	envErr  error
	inputs  []*types.Type // the type of each entry's input, declared with env

	formatters []lazyFormatter
	byTool     map[string]int // entry index by tool
}

type lazyFormatter struct {
	once sync.Once
	f    *Formatter
	err  error
}

// NewGeneratedCatalog returns the catalog of generated code. version is the
// EnvVersion the code was generated with.
func NewGeneratedCatalog(version string, entries []GeneratedEntry) *GeneratedCatalog {
	byTool := make(map[string]int, len(entries))
	for i, e := range entries {
		byTool[e.Tool] = i
	}
	return &GeneratedCatalog{
		version:    version,
		entries:    entries,
		opts:       Options{}.withDefaults(),
		formatters: make([]lazyFormatter, len(entries)),
		byTool:     byTool,
	}
}

// Entries returns the embedded entries, in catalog order.
func (c *GeneratedCatalog) Entries() []GeneratedEntry { return c.entries }

// CheckVersion reports an error matching ErrEnvVersion when the code was
// generated for another environment than this package's, or when the
// binary's build information shows another cel-go than the one EnvVersion
// names.
func (c *GeneratedCatalog) CheckVersion() error {
	if c.version != EnvVersion {
		return fmt.Errorf("%w: generated for %q, running %q: run go generate with this permgen", ErrEnvVersion, c.version, EnvVersion)
	}
	// EnvVersion names the cel-go release its functions were pinned
	// against; a build that resolved another one (a host requiring a newer
	// cel-go) may give the same expressions another meaning.
	return checkCelGo(buildCelGoVersion())
}

// checkCelGo reports a build whose cel-go (when known) is not the one
// EnvVersion names.
func checkCelGo(built string, known bool) error {
	if known && built != celGoVersion {
		return fmt.Errorf("%w: this binary is built with cel-go %s, the environment is pinned to %s", ErrEnvVersion, built, celGoVersion)
	}
	return nil
}

// Format runs the i-th formatter, restoring it on first use.
func (c *GeneratedCatalog) Format(i int, input *value.Object, tool string, limits Limits) (string, bool, error) {
	f, err := c.formatter(i)
	if err != nil {
		return "", false, err
	}
	return f.Run(input, tool, limits)
}

// UnwrapTool returns the calls a call carries, by the unwrap expression of
// the entry whose tool is entryTool (see FormatTool and Formatter.Unwrap).
func (c *GeneratedCatalog) UnwrapTool(entryTool string, input *value.Object, tool string, limits Limits) ([]runtime.InnerCall, error) {
	f, err := c.toolFormatter(entryTool)
	if err != nil {
		return nil, err
	}
	calls, _, err := f.unwrapCalls(input, tool, limits, nil)
	return calls, err
}

// TierTool returns the tier of a call, by the tier of the entry whose tool
// is entryTool (see FormatTool and Formatter.Tier).
func (c *GeneratedCatalog) TierTool(entryTool string, input *value.Object, tool string, limits Limits) (runtime.Tier, error) {
	f, err := c.toolFormatter(entryTool)
	if err != nil {
		return runtime.TierUnknown, err
	}
	t, _, err := f.tierOf(input, tool, limits, nil)
	return t, err
}

// RowTool renders the row of a call, by the row expression of the entry
// whose tool is entryTool (see FormatTool and Formatter.Row).
func (c *GeneratedCatalog) RowTool(entryTool string, input *value.Object, tool string, limits Limits) (string, bool, error) {
	return c.renderTool(slotRow, entryTool, input, nil, tool, limits)
}

// TitleTool renders the title of a call, by the title expression of the
// entry whose tool is entryTool (see Formatter.Title).
func (c *GeneratedCatalog) TitleTool(entryTool string, input *value.Object, tool string, limits Limits) (string, bool, error) {
	return c.renderTool(slotTitle, entryTool, input, nil, tool, limits)
}

// ResultTool renders the summary of a call's result, by the result
// expression of the entry whose tool is entryTool (see Formatter.Result).
func (c *GeneratedCatalog) ResultTool(entryTool string, input *value.Object, tool string, limits Limits,
	result *value.Object) (string, bool, error) {
	return c.renderTool(slotResult, entryTool, input, result, tool, limits)
}

// ErrorTool renders the summary of a call's failure, by the error
// expression of the entry whose tool is entryTool (see
// Formatter.ErrorLine).
func (c *GeneratedCatalog) ErrorTool(entryTool string, input *value.Object, tool string, limits Limits,
	result *value.Object) (string, bool, error) {
	return c.renderTool(slotError, entryTool, input, result, tool, limits)
}

// ExpandTool renders the lines of a call's result, by the expand
// expression of the entry whose tool is entryTool (see Formatter.Expand).
func (c *GeneratedCatalog) ExpandTool(entryTool string, input *value.Object, tool string, limits Limits,
	result *value.Object) ([]string, bool, error) {
	f, err := c.toolFormatter(entryTool)
	if err != nil {
		return nil, false, err
	}
	lines, ok, _, err := f.expandLines(input, result, tool, limits)
	return lines, ok, err
}

func (c *GeneratedCatalog) renderTool(s renderSlot, entryTool string, input, result *value.Object, tool string,
	limits Limits) (string, bool, error) {
	f, err := c.toolFormatter(entryTool)
	if err != nil {
		return "", false, err
	}
	text, ok, _, err := f.renderTextOf(s, input, result, tool, limits)
	return text, ok, err
}

// toolFormatter returns the formatter of the entry whose tool is
// entryTool, restoring it on first use.
func (c *GeneratedCatalog) toolFormatter(entryTool string) (*Formatter, error) {
	i, ok := c.byTool[entryTool]
	if !ok {
		return nil, fmt.Errorf("no formatter for tool %q in the generated catalog", entryTool)
	}
	return c.formatter(i)
}

// FormatTool runs the formatter of the entry whose tool is entryTool (not
// an alias), restoring it on first use; tool is the name of the call.
// Generated functions call it, so that each names its own entry and none
// depends on the entry's place in the catalog.
func (c *GeneratedCatalog) FormatTool(entryTool string, input *value.Object, tool string, limits Limits) (string, bool, error) {
	i, ok := c.byTool[entryTool]
	if !ok {
		return "", false, fmt.Errorf("no formatter for tool %q in the generated catalog", entryTool)
	}
	return c.Format(i, input, tool, limits)
}

func (c *GeneratedCatalog) formatter(i int) (*Formatter, error) {
	lf := &c.formatters[i]
	lf.once.Do(func() { lf.f, lf.err = c.restore(i) })
	return lf.f, lf.err
}

// environment builds the catalog's CEL environment once: the same provider
// and declarations Check used, so the embedded ASTs' types resolve.
func (c *GeneratedCatalog) environment() (*cel.Env, error) {
	c.envOnce.Do(func() {
		if c.envErr = c.CheckVersion(); c.envErr != nil {
			return
		}
		p, err := newProvider()
		if err != nil {
			c.envErr = err
			return
		}
		c.inputs = make([]*types.Type, len(c.entries))
		for i, e := range c.entries {
			var fields []Field
			if e.Input != nil {
				fields = make([]Field, 0, len(e.Input))
				for _, f := range e.Input {
					fields = append(fields, Field{Name: f.Name, Type: f.Type})
				}
			}
			c.inputs[i] = declareInput(p, inputTypeName(e.Tool), fields, func(f Field, err error) {
				if c.envErr == nil {
					c.envErr = fmt.Errorf("%s: input field %s: %w", e.Owner, f.Name, err)
				}
			})
		}
		if c.envErr != nil {
			return
		}
		if c.env, c.envErr = baseEnv(p); c.envErr == nil {
			c.calls, c.envErr = newCallTable(c.env)
		}
	})
	return c.env, c.envErr
}

func (c *GeneratedCatalog) restore(i int) (*Formatter, error) {
	base, err := c.environment()
	if err != nil {
		return nil, err
	}
	e := c.entries[i]
	f := &Formatter{Entry: &Entry{Tool: e.Tool, Aliases: e.Aliases, Title: e.Title, Description: e.Description,
		Category: e.Category, Icon: Icon{Nerd: e.NerdIcon, Plain: e.PlainIcon}, NoTitle: e.NoTitle, Communication: e.Communication},
		optional: e.Optional, opts: c.opts}
	load := func(env *cel.Env, g GeneratedExpr) (compiled, error) {
		var pb exprpb.CheckedExpr
		if err := proto.Unmarshal([]byte(g.AST), &pb); err != nil {
			return compiled{}, fmt.Errorf("%s: embedded expression: %w", e.Owner, err)
		}
		ast, err := cel.CheckedExprToAstWithSource(&pb, nil)
		if err != nil {
			return compiled{}, fmt.Errorf("%s: embedded expression: %w", e.Owner, err)
		}
		prg, err := plan(env, ast, c.calls)
		if err != nil {
			return compiled{}, fmt.Errorf("%s: %w", e.Owner, err)
		}
		return compiled{name: g.Name, ast: ast, prg: prg}, nil
	}
	letNames := make([]string, len(e.Lets))
	for i, l := range e.Lets {
		letNames[i] = l.Name
	}
	env, err := bindLets(base, c.inputs[i], letNames, func(i int, env *cel.Env) (*types.Type, error) {
		let, err := load(env, e.Lets[i])
		if err != nil {
			return nil, err
		}
		f.lets = append(f.lets, let)
		f.letNames = append(f.letNames, let.name)
		return let.ast.OutputType(), nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Owner, err)
	}
	for _, x := range []struct {
		to *compiled
		g  GeneratedExpr
	}{{&f.preview, e.Preview}, {&f.unwrap, e.Unwrap}, {&f.tierExpr, e.TierExpr}} {
		if x.g.AST == "" {
			continue
		}
		if *x.to, err = load(env, x.g); err != nil {
			return nil, err
		}
	}
	var resultEnv *cel.Env
	for s, g := range e.renderExprs() {
		if g.AST == "" {
			continue
		}
		slotEnv := env
		if renderSlot(s).seesResult() {
			if resultEnv == nil {
				if resultEnv, err = env.Extend(cel.Variable(varResult, ResultType())); err != nil {
					return nil, fmt.Errorf("%s: cannot declare result: %w", e.Owner, err)
				}
			}
			slotEnv = resultEnv
		}
		if f.render[s], err = load(slotEnv, *g); err != nil {
			return nil, err
		}
	}
	if e.Tier != "" {
		if f.tier, err = runtime.ParseTier(e.Tier); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Owner, err)
		}
	}
	f.linkLets()
	return f, nil
}

// inputTypeName names the object type of the declared input of the entry
// for tool. Check and the restoring of generated code must agree on it, and
// the embedded ASTs hold it, so it derives from the tool, which is unique in
// a catalog, and not from the entry's place. The encoding is one to one:
// ASCII letters and digits stay, '_' doubles, any other byte is '_' and two
// hex digits ("github:create_issue" gives
// "permgen.Input_github_3acreate__issue").
func inputTypeName(tool string) string {
	var b strings.Builder
	b.WriteString("permgen.Input_")
	for i := 0; i < len(tool); i++ {
		c := tool[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			b.WriteByte(c)
		case c == '_':
			b.WriteString("__")
		default:
			fmt.Fprintf(&b, "_%02x", c)
		}
	}
	return b.String()
}
