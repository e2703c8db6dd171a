package generated_test

import (
	"fmt"
	"log"
	"log/slog"

	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
)

// The program of the README's "Using it from Go": the stock catalog, a
// formatter of the host's own, and a dispatcher that describes calls.
func Example() {
	reg := runtime.NewRegistry()
	if _, err := generated.Register(reg); err != nil { // the stock catalog, compiled
		log.Fatal(err)
	}
	dispose, err := reg.Register("deploy", "host-app", runtime.FormatterFunc(
		func(req runtime.Request) (string, bool, error) {
			v, _ := req.Input.Get("target")
			target, ok := textfmt.NonEmptyString(v)
			if !ok {
				return "", false, nil // decline: the default preview is used
			}
			return "to " + target, true, nil
		}))
	if err != nil {
		log.Fatal(err) // errors.Is(err, runtime.ErrDuplicate): the message names the owner
	}
	defer dispose()

	d, err := runtime.NewDispatcher(reg, runtime.Options{Logger: slog.Default()})
	if err != nil {
		log.Fatal(err)
	}
	desc := d.Describe(runtime.Call{Tool: "deploy", Agent: "a1", Input: `{"target": "production"}`})
	fmt.Println(desc.Prompt)
	if desc.Tier.AtLeast(runtime.TierWrite) { // deploy declares no tier, and unknown is the riskiest
		fmt.Println("ask first:", desc.Tier)
	}
	desc = d.Describe(runtime.Call{Tool: "read", Input: `{"path": "/etc/hosts"}`})
	fmt.Println(desc.Prompt, desc.Tier, desc.Preview.Formatter)
	// Output:
	// Agent 'a1' requested tool 'deploy' to production. Allow this call?
	// ask first: unknown
	// Current agent requested tool 'read' for path '/etc/hosts'. Allow this call? read formatters.yaml#read
}
