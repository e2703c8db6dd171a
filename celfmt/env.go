package celfmt

import (
	"errors"
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/permgen/permgen/runtime/value"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// EnvVersion names the CEL environment formatters are checked and run in:
// the variables, the functions of this package and the cel-go libraries with
// their pinned versions. Code generated from a catalog records it, and
// refuses to run in an environment of another version, because an
// expression checked against one library may mean something else in
// another.
//
// It is pinned, not computed: TestEnvVersion records it in
// testdata/env/functions.golden with a listing of the environment (the
// cel-go version of the build, libraries, variables, object types, macros,
// functions and overload ids) and fails when the listing changes while
// EnvVersion does not. Give it a new value when the environment changes
// (see docs/language.md, "Environment version").
const EnvVersion = "permgen-cel-13 (cel-go " + celGoVersion + "; optional 2, strings 4, lists 3, bindings 1, two-var comprehensions)"

// The variables of the formatter environment.
const (
	varInput  = "input"  // the call's input
	varTool   = "tool"   // the tool name, or the MCP target
	varLimits = "limits" // the host's text limits
)

// undeclaredInput is the type of an input whose fields are not declared.
var undeclaredInput = cel.MapType(cel.StringType, cel.DynType)

// Default bounds of checking and evaluation.
const (
	DefaultCostBudget     = 10_000_000 // static cost estimate an expression may reach
	DefaultCostLimit      = 500_000    // cost one evaluation may spend: 50 ms or so
	DefaultMaxInputBytes  = 1 << 20    // text in one call's input, keys included
	DefaultMaxItems       = 1000       // elements of one list or keys of one object
	DefaultStringEstimate = 4096       // length the cost estimate assumes for a string
	DefaultMemoryBudget   = 8 << 20    // bytes one evaluation may allocate building strings and lists
)

// Options bound what formatters may cost. A zero field means its default.
type Options struct {
	// CostBudget rejects, at check time, an expression whose estimated
	// worst-case cost on input within the bounds below is higher.
	CostBudget uint64
	// CostLimit stops an evaluation (the lets and the preview of one call)
	// that would spend more, with an error matching ErrCostLimit; the
	// formatter then fails and the dispatcher shows the default preview.
	// Costs are counted as the evaluation runs, each call's before the call,
	// and a unit takes about a hundred nanoseconds at most, so the default
	// stops an evaluation within about 50 ms.
	CostLimit uint64
	// MaxInputBytes and MaxItems are the input the cost estimate assumes:
	// text in one call's input, and elements of one list or keys of one
	// object. They are not checked on the actual input: a model could then
	// pad the input until the formatter fails and hide what it exists to
	// show. What a formatter does with what it reads is bounded at run time
	// by CostLimit and MemoryBudget instead.
	MaxInputBytes int
	MaxItems      int
	// StringEstimate is the length the cost estimate assumes for a string
	// whose length it cannot know; lists and objects are assumed MaxItems
	// long, and the strings of one list no more than MaxInputBytes
	// together. Strings are not assumed MaxInputBytes long each because the
	// input bound covers all strings together: assuming every string could
	// take all of it would reject any comprehension that builds text, while
	// the estimate is there to reject nesting and growth. CostLimit and
	// MemoryBudget still bound what long strings actually cost.
	StringEstimate int
	// MemoryBudget is how many bytes one evaluation (the lets and the
	// preview of one call) may allocate building strings and lists; a
	// function that would allocate more fails BEFORE allocating, with an
	// error matching ErrBudget.
	MemoryBudget int64
	// SkipExamples leaves the examples out of Check, for tools that run
	// them on their own (permgen test).
	SkipExamples bool
	// Override registers the catalog's "server:tool" entries with
	// runtime.Entry.Override set (LoadCatalog, RegisterCEL, and
	// RegisterChecked of what Check returned): the host trusts the catalog
	// to answer for those tools beside another owner's "server:*". Without
	// it that is an error matching runtime.ErrOverride. Checking ignores it.
	Override bool
}

func (o Options) withDefaults() Options {
	if o.CostBudget == 0 {
		o.CostBudget = DefaultCostBudget
	}
	if o.CostLimit == 0 {
		o.CostLimit = DefaultCostLimit
	}
	if o.MaxInputBytes <= 0 {
		o.MaxInputBytes = DefaultMaxInputBytes
	}
	if o.MaxItems <= 0 {
		o.MaxItems = DefaultMaxItems
	}
	if o.StringEstimate <= 0 {
		o.StringEstimate = DefaultStringEstimate
	}
	if o.MemoryBudget <= 0 {
		o.MemoryBudget = DefaultMemoryBudget
	}
	return o
}

// libraries are the cel-go libraries of the environment, each pinned to a
// version so that an upgrade of cel-go cannot change what an expression
// means. Changing this list changes EnvVersion.
func libraries() []cel.EnvOption {
	return []cel.EnvOption{
		cel.OptionalTypes(cel.OptionalTypesVersion(2)),
		ext.Strings(ext.StringsVersion(4)),
		ext.Lists(ext.ListsVersion(3)),
		ext.Bindings(ext.BindingsVersion(1)),
		ext.TwoVarComprehensions(),
		cel.CrossTypeNumericComparisons(true),
	}
}

// provider declares the object types of an environment: permgen.Limits and
// the declared input of each catalog entry.
type provider struct {
	base    *types.Registry
	objects map[string]*objectDecl
}

type objectDecl struct {
	names  []string
	fields map[string]*types.FieldType
}

func newProvider() (*provider, error) {
	base, err := types.NewRegistry()
	if err != nil {
		return nil, err
	}
	p := &provider{base: base, objects: map[string]*objectDecl{}}
	limits := &objectDecl{fields: map[string]*types.FieldType{}}
	for _, name := range limitNames {
		limits.names = append(limits.names, name)
		limits.fields[name] = &types.FieldType{
			Type:  types.IntType,
			IsSet: func(any) bool { return true },
			GetFrom: func(target any) (any, error) {
				l, ok := target.(Limits)
				if !ok {
					return nil, errors.New("limits: not a limits value")
				}
				return int64(limitField(l, name)), nil
			},
		}
	}
	p.objects[limitsTypeName] = limits
	p.declareResult()
	return p, nil
}

// declareInput adds an object type for declared input fields.
func (p *provider) declareInput(typeName string, fields []Field, typesOf map[string]*types.Type) {
	decl := &objectDecl{fields: map[string]*types.FieldType{}}
	for _, f := range fields {
		t := typesOf[f.Name]
		if t == nil {
			continue
		}
		name := f.Name
		decl.names = append(decl.names, name)
		decl.fields[name] = objectField(name, t, "input", func(o *value.Object) (any, error) { return declaredField(o, name, t) })
	}
	p.objects[typeName] = decl
}

// objectField declares a field of an object type held as a *value.Object
// (what names the object in errors): set when present and not null, read
// by get.
func objectField(name string, t *types.Type, what string, get func(*value.Object) (any, error)) *types.FieldType {
	return &types.FieldType{
		Type: t,
		IsSet: func(target any) bool {
			o, _ := target.(*value.Object)
			v, ok := o.Get(name)
			return ok && v != nil
		},
		GetFrom: func(target any) (any, error) {
			o, ok := target.(*value.Object)
			if !ok {
				return nil, errors.New(what + " is not an object")
			}
			return get(o)
		},
	}
}

// RegisterType and RegisterDescriptor let libraries (optional types) add
// their types to the base registry.
func (p *provider) RegisterType(t ...ref.Type) error { return p.base.RegisterType(t...) }
func (p *provider) RegisterDescriptor(fd protoreflect.FileDescriptor) error {
	return p.base.RegisterDescriptor(fd)
}

func (p *provider) EnumValue(name string) ref.Val                   { return p.base.EnumValue(name) }
func (p *provider) FindIdent(name string) (ref.Val, bool)           { return p.base.FindIdent(name) }
func (p *provider) NewValue(t string, f map[string]ref.Val) ref.Val { return p.base.NewValue(t, f) }

func (p *provider) FindStructType(name string) (*types.Type, bool) {
	if _, ok := p.objects[name]; ok {
		return types.NewTypeTypeWithParam(types.NewObjectType(name)), true
	}
	return p.base.FindStructType(name)
}

func (p *provider) FindStructFieldNames(name string) ([]string, bool) {
	if d, ok := p.objects[name]; ok {
		return d.names, true
	}
	return p.base.FindStructFieldNames(name)
}

func (p *provider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if d, ok := p.objects[name]; ok {
		f, ok := d.fields[field]
		return f, ok
	}
	return p.base.FindStructFieldType(name, field)
}

// baseEnv returns the environment shared by a catalog's entries.
func baseEnv(p *provider) (*cel.Env, error) {
	opts := []cel.EnvOption{
		cel.CustomTypeAdapter(adapter{base: types.DefaultTypeAdapter}),
		cel.CustomTypeProvider(p),
		cel.Variable(varTool, cel.StringType),
		cel.Variable(varLimits, cel.ObjectType(limitsTypeName)),
	}
	opts = append(opts, libraries()...)
	opts = append(opts, functionOptions()...)
	return cel.NewEnv(opts...)
}

// parseType parses a declared field type: string, int, double, bool, bytes,
// dyn, list(T) or map(string, T).
func parseType(s string) (*types.Type, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "string":
		return types.StringType, nil
	case "int":
		return types.IntType, nil
	case "double":
		return types.DoubleType, nil
	case "bool":
		return types.BoolType, nil
	case "dyn":
		return types.DynType, nil
	}
	if inner, ok := strings.CutPrefix(s, "list("); ok && strings.HasSuffix(inner, ")") {
		elem, err := parseType(inner[:len(inner)-1])
		if err != nil {
			return nil, err
		}
		return types.NewListType(elem), nil
	}
	if inner, ok := strings.CutPrefix(s, "map("); ok && strings.HasSuffix(inner, ")") {
		key, value, ok := strings.Cut(inner[:len(inner)-1], ",")
		if !ok || strings.TrimSpace(key) != "string" {
			return nil, fmt.Errorf("map keys are strings in JSON: write map(string, T), got %q", s)
		}
		elem, err := parseType(value)
		if err != nil {
			return nil, err
		}
		return types.NewMapType(types.StringType, elem), nil
	}
	msg := fmt.Sprintf("unknown type %q: use string, int, double, bool, dyn, list(T) or map(string, T)", s)
	sug := suggest(s, []string{"string", "int", "double", "bool", "dyn"})
	if other, ok := otherLanguageTypes[s]; ok {
		sug = other
	}
	if sug != "" {
		msg = fmt.Sprintf("unknown type %q (did you mean %q?)", s, sug)
	}
	return nil, errors.New(msg)
}

// otherLanguageTypes are the names JSON Schema, Go and other languages
// give the types an author most often means.
var otherLanguageTypes = map[string]string{
	"integer": "int", "int64": "int", "int32": "int", "long": "int",
	"number": "double", "float": "double", "float64": "double",
	"boolean": "bool", "str": "string", "text": "string",
	"any": "dyn", "object": "map(string, dyn)", "array": "list(dyn)",
}

// declareInput declares the input of a catalog entry in p under name: an
// object type with exactly the declared fields, or, when fields is nil,
// no type at all (the input is then undeclaredInput). It returns the CEL
// type of the variable input. A field whose type does not parse is
// reported to bad and declared dyn. Checking a catalog and restoring
// generated code both declare inputs here, so their types agree.
func declareInput(p *provider, name string, fields []Field, bad func(Field, error)) *types.Type {
	if fields == nil {
		return undeclaredInput
	}
	typesOf := make(map[string]*types.Type, len(fields))
	for _, f := range fields {
		t, err := parseType(f.Type)
		if err != nil {
			bad(f, err)
			t = types.DynType
		}
		typesOf[f.Name] = t
	}
	p.declareInput(name, fields, typesOf)
	return types.NewObjectType(name)
}

// bindLets declares an entry's input and then each of its lets in order:
// the i-th let is checked (or restored) by let in the environment of the
// input and the lets before it, and is declared with the type let returns.
// It returns the environment of the preview, which sees them all.
func bindLets(base *cel.Env, input *types.Type, names []string, let func(i int, env *cel.Env) (*types.Type, error)) (*cel.Env, error) {
	env, err := base.Extend(cel.Variable(varInput, input))
	if err != nil {
		return nil, fmt.Errorf("cannot declare input: %w", err)
	}
	for i, name := range names {
		t, err := let(i, env)
		if err != nil {
			return nil, err
		}
		if env, err = env.Extend(cel.Variable(name, t)); err != nil {
			return nil, fmt.Errorf("cannot declare let %s: %w", name, err)
		}
	}
	return env, nil
}
