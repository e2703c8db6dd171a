package generated_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// serverCall is a direct call of an MCP server's tool, as agents send
// them, with its arguments as JSON text.
func serverCall(target, args string) runtime.Call {
	return runtime.Call{Tool: target, Source: "mcp", Target: target, Input: args}
}

// TestGenericPreviewsHideNothing: calls of real servers' tools that the
// stock catalog has no entry for (or whose server entry declines) are
// shown by the MCP summary or the default preview, and these show what the
// reference summary hid behind [N items], {…}, its 60- and 160-character
// cuts or a cut of the JSON at the preview limit. Each want is text the
// prompt must contain.
func TestGenericPreviewsHideNothing(t *testing.T) {
	x := strings.Repeat
	var padding strings.Builder
	for i := range 20 {
		fmt.Fprintf(&padding, `"annotation%02d":"%s",`, i, x("n", 100))
	}
	tests := []struct {
		name string
		call runtime.Call
		want []string
	}{
		{"a command list shows its items (Kubernetes exec_in_pod)",
			serverCall("kube:exec_in_pod", `{"name":"postgres-0","namespace":"data","command":["psql","-c","DROP DATABASE orders"]}`),
			[]string{`command: ["psql", "-c", "DROP DATABASE orders"]`}},
		{"a volumes map shows the bind path of / (Docker run_container)",
			serverCall("dockerd:run_container", `{"image":"alpine:3.20","volumes":{"/":{"bind":"/hostfs","mode":"rw"}},"privileged":true}`),
			[]string{`volumes./.bind: "/hostfs"`, `volumes./.mode: "rw"`, `privileged: true`}},
		{"an empty filter reads {} (MongoDB delete-many)",
			serverCall("mongo:delete-many", `{"database":"shop","collection":"customers","filter":{}}`),
			[]string{`filter: {}`}},
		{"a flag survives 2 KB of fields before it (Kubernetes kubectl_delete)",
			serverCall("kube:kubectl_delete", `{"resourceType":"pods",`+padding.String()+`"allNamespaces":true}`),
			[]string{`resourceType: "pods"`, `allNamespaces: true`, `more fields`}},
		{"a megabyte does not hide a short field after it",
			serverCall("files:upload", `{"content":"`+x("x", 1<<20)+`","destination":"s3://orders-exports-prod/"}`),
			[]string{`(1.00 MB more)`, `destination: "s3://orders-exports-prod/"`}},
		{"an SQL string is led by its statement kinds (Supabase execute_sql)",
			serverCall("supa:execute_sql", `{"project_id":"qvxtbhzjwmdkrnpaeofs","query":"SELECT `+x("c, ", 200)+`c FROM t; DELETE FROM auth.audit_log_entries"}`),
			[]string{`query: (DELETE, SELECT) "SELECT c, c,`, `B more)`}},
		{"the second statement of a short query is shown",
			serverCall("supa:execute_sql", `{"query":"SELECT id, email FROM auth.users ORDER BY created_at DESC LIMIT 20; DELETE FROM auth.audit_log_entries"}`),
			[]string{`DELETE FROM auth.audit_log_entries"`}},
		{"a list of commands shows the last (AWS call_aws)",
			serverCall("aws:call_aws", `{"cli_command":["aws sts get-caller-identity","aws s3 ls s3://orders-exports-prod/2024/","aws iam attach-user-policy --user-name ci-deployer --policy-arn arn:aws:iam::aws:policy/AdministratorAccess"],"max_results":50}`),
			[]string{`attach-user-policy --user-name ci-deployer --policy-arn arn:aws:iam::aws:policy/AdministratorAccess"]`, `max_results: 50`}},
		{"a declining server entry falls through to the summary",
			serverCall("github:frobnicate", `{"owner":"acme","labels":["a","b"],"opts":{"force":true}}`),
			[]string{`with owner: "acme", labels: ["a", "b"], opts.force: true.`}},
		{"the default preview shows the policy ARN (a tool shaped like Amazon Q use_aws, with no entry)",
			runtime.Call{Tool: "aws_invoke", Input: `{"service_name":"iam","operation_name":"attach-role-policy","parameters":{"role-name":"lambda-orders-exec","policy-arn":"arn:aws:iam::aws:policy/AdministratorAccess"},"region":"us-east-1","profile_name":"prod","label":"Give lambda permissions to read orders table"}`},
			[]string{`parameters.policy-arn: "arn:aws:iam::aws:policy/AdministratorAccess"`, `profile_name: "prod"`}},
		{"the default preview shows a nested value past a megabyte",
			runtime.Call{Tool: "deploy", Input: `{"manifest":"` + x("m", 1<<20) + `","spec":{"hostPath":"/"}}`},
			[]string{`spec.hostPath: "/"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, failures := stockDispatcher(t)
			desc := d.Describe(tc.call)
			for _, want := range tc.want {
				assert.Contains(t, desc.Prompt, want)
			}
			assert.LessOrEqual(t, utf8.RuneCountInString(desc.Preview.Text), runtime.DefaultOutputLimit)
			require.Empty(t, failures())
		})
	}
}

// TestGenericPreviewAllocations: once decoded, a megabyte of ten thousand
// fields costs a generic preview no more allocations than a hundred such
// fields: they follow what is shown, not the input.
func TestGenericPreviewAllocations(t *testing.T) {
	d, _ := stockDispatcher(t)
	for _, call := range []runtime.Call{{Tool: "search"}, {Tool: "srv:search", Source: "mcp", Target: "srv:search"}} {
		small, large := call, call
		small.Input, large.Input = value.DecodeInput(manyFields(100, 90)), value.DecodeInput(manyFields(10000, 90))
		assert.Equal(t, testing.AllocsPerRun(5, func() { d.Preview(small) }), testing.AllocsPerRun(5, func() { d.Preview(large) }), call.Tool)
		assert.Contains(t, d.Preview(large).Text, "… 9989 more fields, 1.01 MB", call.Tool)
	}
}
