package runtime

import (
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// Rows of oh-my-pi's device writes. oh-my-pi's write to xd://NAME runs the
// device NAME, and its transcript shows the device, not the write:
//
//   - while the write's arguments stream, its row draws nothing until the
//     path is known and provably not a device's (a row that read "Write
//     xd:/" and then "Write xd://web_fetch (1 line)" would show a file
//     write that never happens); once the path is settled on a device, the
//     row is the device's own row, drawn from the content streamed so far;
//   - the result of a finished device call is the device's result, and is
//     rendered by the device's result formatter.

// deviceTool is the tool whose writes oh-my-pi routes to devices.
const deviceTool = "write"

// streamingWrite returns, for a write whose arguments are still streaming,
// whether its row must draw nothing yet (hold), or the device call whose
// row it is once its path is settled on a device (inner); neither for any
// other call.
func (d *Dispatcher) streamingWrite(c Call, in value.Input) (inner *Call, hold bool) {
	if !c.Partial || c.Tool != deviceTool || d.reg == nil {
		return nil, false
	}
	s := d.subject(c, in, 0)
	if !s.unwraps() {
		return nil, false
	}
	obj := in.Object()
	v, ok := obj.Get("path")
	if !ok {
		return nil, true // the path may still come, and be a device's
	}
	path, isString := v.(string)
	if !isString {
		return nil, false // oh-my-pi routes only a string
	}
	// The path string is closed once another key follows it: until then
	// it may still grow into a device's path.
	if last, _ := obj.At(obj.Len() - 1); last == "path" {
		if textfmt.CouldBeXDDevice(path) {
			return nil, true
		}
		return nil, false
	}
	if ic, ok := d.deviceCall(&s); ok {
		return &Call{Tool: ic.Tool, Input: ic.Input, Annotations: ic.Annotations, ID: c.ID, Partial: true}, false
	}
	// A device write that carries no call yet is a request for the
	// device's docs only once its content is complete: "" and "h" may
	// still grow into arguments.
	if _, device := textfmt.XDDevice(path); device {
		if _, ok := obj.Get("content"); !ok {
			return nil, true
		}
		if last, _ := obj.At(obj.Len() - 1); last == "content" {
			return nil, true
		}
	}
	return nil, false
}

// finishedDevice returns the device call a finished call runs, when it
// carries exactly one call and that call is a device's: its result is the
// device's.
func (d *Dispatcher) finishedDevice(c Call, in value.Input) (*Call, bool) {
	if d.reg == nil || isMCP(c) {
		return nil, false
	}
	s := d.subject(c, in, 0)
	ic, ok := d.deviceCall(&s)
	if !ok {
		return nil, false
	}
	return &Call{Tool: ic.Tool, Input: ic.Input, Annotations: ic.Annotations, ID: c.ID}, true
}

// annotated returns a carried call with the annotations the host knows of
// its device (Options.DeviceAnnotations), when it carries none of its own.
func (d *Dispatcher) annotated(ic InnerCall) InnerCall {
	if ic.Annotations == nil && ic.Kind == "device" && d.deviceAnnotations != nil {
		ic.Annotations = d.deviceAnnotations(ic.Tool)
	}
	return ic
}

// deviceCall returns the one device call a subject carries, as the topmost
// layer whose Unwrapper finds calls returns it, with the annotations the
// host knows of the device when the call carries none.
func (d *Dispatcher) deviceCall(s *subject) (InnerCall, bool) {
	for j := 0; j < s.depth(); j++ {
		reg := s.wrapper(j)
		if reg == nil {
			continue
		}
		req := s.request(0, d.limits)
		calls, err := guard(func() ([]InnerCall, error) { return reg.formatter.(Unwrapper).Unwrap(req) })
		if err != nil || len(calls) == 0 {
			if err != nil {
				return InnerCall{}, false
			}
			continue
		}
		if len(calls) != 1 || calls[0].Kind != "device" {
			return InnerCall{}, false
		}
		return d.annotated(calls[0]), true
	}
	return InnerCall{}, false
}
