package conformance

import "github.com/permgen/permgen/runtime/celrt"

// testCase is one conformance test that was translated to Go.
type testCase struct {
	name    string // section/test
	expr    string // the CEL source
	eval    func() (any, error)
	want    any  // the expected value, in celrt's dynamic representation
	wantErr bool // an evaluation error is expected instead of a value
}

// testFile is the translated tests of one conformance test file.
type testFile struct {
	name  string
	cases []testCase
}

// skippedTest is a test that is not run, and why.
type skippedTest struct {
	name   string // file/section/test
	reason string
}

// mustMap builds a map value written in a generated table. The generator
// writes only maps that NewMap accepts.
func mustMap(keys, values []any) *celrt.Map {
	m, err := celrt.NewMap(keys, values)
	if err != nil {
		panic(err)
	}
	return m
}
