package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/permgen/permgen/runtime/textfmt"
)

// ErrPanic matches the error of a Failure whose formatter panicked.
var ErrPanic = errors.New("formatter panicked")

// Failure reports a formatter that returned an error or panicked. The
// dispatcher used the default preview for that call instead. A failure
// affects its own call only: the registration stays in force for the next
// call, because a model could otherwise switch a formatter off by sending
// input that makes it fail a few times.
//
// A failure is an output too: the call's tool name and the message of Err
// are redacted by the one rule, as the other outputs are (a formatter's
// error may quote the input it failed on), though not made safe text. The
// errors Err wraps, which errors.Is and errors.As reach, are the
// formatter's own.
type Failure struct {
	Tool  string // the call's tool name, redacted
	Key   string // the registry key whose formatter failed
	Owner string // the registration's owner
	Err   error  // what went wrong; errors.Is(Err, ErrPanic) for a panic
}

// guard calls f, turning a panic into an error that matches ErrPanic.
func guard[T any](f func() (T, error)) (out T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			out, err = zero, fmt.Errorf("%w: %v", ErrPanic, p)
		}
	}()
	return f()
}

// fail reports a failure of a formatter on a call whose credentials sc
// holds: they are redacted from the tool name and the error's message.
func (d *Dispatcher) fail(reg *registration, tool string, err error, sc *textfmt.Scrubber) {
	reg.failures.Add(1)
	f := Failure{Tool: scrub(sc, tool), Key: reg.key, Owner: reg.owner, Err: redactError(sc, err)}
	err = f.Err
	if d.logger != nil {
		d.logger.LogAttrs(context.Background(), slog.LevelWarn, "formatter failed",
			slog.String("tool", f.Tool), slog.String("key", f.Key), slog.String("owner", f.Owner),
			slog.String("error", err.Error()))
	}
	if d.onFailure != nil {
		d.onFailure(f)
	}
}

// redactedError is an error whose message is redacted (see scrub); it
// wraps the error it was redacted from.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }

func (e *redactedError) Unwrap() error { return e.err }

// redactError returns err with its message redacted: the credentials sc
// holds and those the rule finds in it replaced by their size. It returns
// err itself when there are none.
func redactError(sc *textfmt.Scrubber, err error) error {
	msg := err.Error()
	if r := scrub(sc, msg); r != msg {
		return &redactedError{msg: r, err: err}
	}
	return err
}
