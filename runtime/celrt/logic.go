package celrt

import (
	"errors"
	"fmt"
	"regexp"
	"sync"
)

// And is CEL's && when a side may fail: false wins over an error, which
// wins over true.
func And(a bool, aerr error, b bool, berr error) (bool, error) {
	switch {
	case aerr == nil && !a, berr == nil && !b:
		return false, nil
	case aerr != nil:
		return false, aerr
	case berr != nil:
		return false, berr
	}
	return true, nil
}

// Or is CEL's || when a side may fail: true wins over an error, which
// wins over false.
func Or(a bool, aerr error, b bool, berr error) (bool, error) {
	switch {
	case aerr == nil && a, berr == nil && b:
		return true, nil
	case aerr != nil:
		return false, aerr
	case berr != nil:
		return false, berr
	}
	return false, nil
}

// Matches is s.matches(pattern): whether the RE2 pattern matches
// anywhere in s.
func Matches(s, pattern string) (bool, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return re.MatchString(s), nil
}

// MaxSteps bounds the comprehension steps (elements visited by map,
// filter, all, exists and exists_one, nested ones included) of one
// evaluation of a translated formatter. Its expressions passed the static
// cost check on input within the catalog's bounds; this bounds what a
// model's input beyond them can make a nested comprehension cost.
const MaxSteps = 1_000_000

// ErrSteps is an evaluation that would take more than MaxSteps steps.
var ErrSteps = errors.New("comprehension step limit exceeded")

// Pattern is a constant regular expression of a translated formatter,
// compiled the first time it is used.
type Pattern struct {
	compile func() (*regexp.Regexp, error)
}

// NewPattern returns the pattern for an RE2 expression, not compiled yet:
// initializing a package of translated formatters compiles nothing.
func NewPattern(expr string) *Pattern {
	return &Pattern{compile: sync.OnceValues(func() (*regexp.Regexp, error) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return re, nil
	})}
}

// MatchString is s.matches(pattern) for the pattern.
func (p *Pattern) MatchString(s string) (bool, error) {
	re, err := p.compile()
	if err != nil {
		return false, err
	}
	return re.MatchString(s), nil
}
