package celrt

import (
	"errors"
	"fmt"
	"testing"
)

// The errors made at start without fmt read as fmt would write them.
func TestErrorsMadeAtStart(t *testing.T) {
	if !errors.Is(errNaN, ErrNoSuchOverload) {
		t.Errorf("errNaN does not wrap ErrNoSuchOverload")
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{errNaN, fmt.Errorf("%w: NaN values cannot be ordered", ErrNoSuchOverload).Error()},
		{errTooManyValues, fmt.Sprintf("makes the calls hold more than %d values in all", MaxCallValues)},
	} {
		if c.err.Error() != c.want {
			t.Errorf("got %q, want %q", c.err, c.want)
		}
	}
}
