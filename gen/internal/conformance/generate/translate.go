package main

import (
	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/cel"
)

// nativeVar and translate stand for gen.NativeVar and gen.NativeFunc until
// the native translation lands.
type nativeVar struct {
	Name  string
	Type  *cel.Type
	Value jen.Code
}

type unsupportedError struct{ Reason string }

func (e *unsupportedError) Error() string { return e.Reason }

func translate(a *cel.Ast, vars []nativeVar) (jen.Code, error) {
	return nil, &unsupportedError{Reason: "the native translation is not available yet"}
}
