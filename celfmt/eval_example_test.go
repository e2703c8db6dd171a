package celfmt_test

import (
	"fmt"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime/value"
)

func ExampleEval() {
	input, _ := value.DecodeJSON([]byte(`{"path": "/src/app.go", "edits": [{"old": "a"}, {"old": "b"}]}`))
	obj := input.(*value.Object)
	for _, expr := range []string{
		`"edit " + input.path`,
		`input.edits.size()`,
		`nonEmpty(input.?missing.orValue(""))`,
		`input.edits[0]`,
		`tool + " " + string(limits.summary)`,
	} {
		r, err := celfmt.Eval(expr, obj, "edit", celfmt.Limits{}, celfmt.Options{})
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %s = %s (text %q, declined %v)\n", expr, r.Type, r.Value, r.Text, r.Declined)
	}

	// A mistake is reported at its place in the expression.
	expr := `"edit " + inptu.path`
	_, err := celfmt.Eval(expr, obj, "edit", celfmt.Limits{}, celfmt.Options{})
	if list, ok := err.(celfmt.ErrorList); ok {
		fmt.Print(list.Snippets([]byte(expr)))
	}
	// Output:
	// "edit " + input.path: string = "edit /src/app.go" (text "edit /src/app.go", declined false)
	// input.edits.size(): int = 2 (text "", declined false)
	// nonEmpty(input.?missing.orValue("")): optional_type(string) = optional.none() (text "", declined true)
	// input.edits[0]: dyn = {"old": "a"} (text "", declined false)
	// tool + " " + string(limits.summary): string = "edit 80" (text "edit 80", declined false)
	// expr:1:11: undeclared reference to 'inptu' (did you mean 'input'?)
	//     "edit " + inptu.path
	//               ^
}
