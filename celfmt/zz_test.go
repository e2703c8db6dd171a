package celfmt

import (
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

func TestZZ(t *testing.T) {
	src := `version: 1
formatters:
  - tool: t
    preview: '{"b":1,"a":2,"c":3,"d":4,"e":5}.map(k,k).join(",") + " " + json({"b":1,"a":2,"c":3})'
  - tool: w
    unwrap: '[{"tool": "x", "input": {"b":1,"a":2,"c":3}}]'
`
	c, err := Load("z.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for range 200 {
		s, _, err := c.Formatters[0].Run(value.NewObject(), "t", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		seen[s]++
		calls, err := c.Formatters[1].Unwrap(runtime.Request{Tool: "w", Input: value.NewObject(), Limits: DefaultLimits})
		if err != nil {
			t.Fatal(err)
		}
		o, _ := calls[0].Input.(*value.Object)
		seen["input "+strings.Join(o.Keys(), ",")]++
	}
	t.Log(seen)
}
