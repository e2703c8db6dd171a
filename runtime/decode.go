package runtime

import "github.com/permgen/permgen/runtime/value"

// decode is the first step of a call's way through the dispatcher (see
// Dispatcher.Describe): its input as a value, decoded once for every step
// after it.
func decode(c Call) value.Input { return value.DecodeInput(c.Input) }

// decodeInner decodes the input of a call that a wrapper carries.
func decodeInner(ic InnerCall) value.Input { return value.DecodeInput(ic.Input) }

// decodeArgs decodes a call's arguments, as far as they go while they
// stream.
func (d *Dispatcher) decodeArgs(c Call) value.Input {
	if c.Partial {
		return value.DecodePartialInput(c.Input)
	}
	return value.DecodeInput(c.Input)
}
