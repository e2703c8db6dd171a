package main

import (
	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/cel"
	"github.com/permgen/permgen/gen"
)

// The translation under test: gen's native backend.
type (
	nativeVar        = gen.NativeVar
	unsupportedError = gen.UnsupportedError
)

func translate(a *cel.Ast, vars []nativeVar) (jen.Code, error) { return gen.NativeFunc(a, vars) }
