package generated_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/runtime"
)

// TestStockGitArgumentsThatAreOptions sends calls of the reference git
// server (modelcontextprotocol/servers src/git) whose revision, path,
// branch or target starts with "-" through the stock catalog. The server
// hands each to git as an argument of its own (git_diff runs git diff
// --unified=3 TARGET), so git reads it as an option: git diff
// --output=FILE writes FILE. The prompt says so, by the field's name, and
// the call's tier is write, whatever the tool.
func TestStockGitArgumentsThatAreOptions(t *testing.T) {
	d, failures := stockDispatcher(t)
	const prefix = "Current agent requested MCP target "
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
		tier       runtime.Tier
	}{
		{"diff target", "git_diff", map[string]any{"repo_path": "/repo", "target": "--output=/home/dev/.bashrc"},
			"'git:git_diff' in '/repo': target '--output=/home/dev/.bashrc' (read by git as an option).", runtime.TierWrite},
		{"diff target, short option", "git_diff", map[string]any{"repo_path": "/repo", "target": "-O/etc/passwd"},
			"'git:git_diff' in '/repo': target '-O/etc/passwd' (read by git as an option).", runtime.TierWrite},
		{"show revision", "git_show", map[string]any{"repo_path": "/repo", "revision": "--output=/tmp/x"},
			"'git:git_show' in '/repo': revision '--output=/tmp/x' (read by git as an option).", runtime.TierWrite},
		{"checkout branch", "git_checkout", map[string]any{"repo_path": "/repo", "branch_name": "--pathspec-from-file=/etc/passwd"},
			"'git:git_checkout' in '/repo': branch_name '--pathspec-from-file=/etc/passwd' (read by git as an option).", runtime.TierWrite},
		{"create branch from an option", "git_create_branch", map[string]any{"repo_path": "/repo", "branch_name": "fix", "base_branch": "-f"},
			"'git:git_create_branch' in '/repo': create branch 'fix', base_branch '-f' (read by git as an option).", runtime.TierWrite},
		{"create a branch named as an option", "git_create_branch", map[string]any{"repo_path": "/repo", "branch_name": "-D", "base_branch": "main"},
			"'git:git_create_branch' in '/repo': branch_name '-D' (read by git as an option).", runtime.TierWrite},
		{"add files", "git_add", map[string]any{"repo_path": "/repo", "files": []any{"a.go", "--chmod=+x"}},
			"'git:git_add' in '/repo': stage 1 file 'a.go', files '--chmod=+x' (read by git as an option).", runtime.TierWrite},
		{"branch contains", "git_branch", map[string]any{"repo_path": "/repo", "branch_type": "local", "contains": "--output=/tmp/x"},
			`'git:git_branch' in '/repo': contains '--output=/tmp/x' (read by git as an option); also branch_type: "local".`, runtime.TierWrite},
		{"branch not_contains", "git_branch", map[string]any{"repo_path": "/repo", "branch_type": "local", "not_contains": "-d"},
			`'git:git_branch' in '/repo': not_contains '-d' (read by git as an option); also branch_type: "local".`, runtime.TierWrite},
		{"log, which reads, takes the same rule", "git_log", map[string]any{"repo_path": "/repo", "revision": "--output=/tmp/x"},
			"'git:git_log' in '/repo': revision '--output=/tmp/x' (read by git as an option).", runtime.TierWrite},
		{"reset, which writes, takes the same rule", "git_reset", map[string]any{"repo_path": "/repo", "target": "--hard"},
			"'git:git_reset' in '/repo': unstage all changes, target '--hard' (read by git as an option).", runtime.TierWrite},
		{"several at once", "git_diff", map[string]any{"repo_path": "/repo", "target": "--output=/a", "revision": "-p"},
			"'git:git_diff' in '/repo': target '--output=/a' (read by git as an option), revision '-p' (read by git as an option).", runtime.TierWrite},

		{"a plain target", "git_diff", map[string]any{"repo_path": "/repo", "target": "main"},
			"'git:git_diff' in '/repo': diff against 'main'.", runtime.TierRead},
		{"a dash inside", "git_diff", map[string]any{"repo_path": "/repo", "target": "feature--x"},
			"'git:git_diff' in '/repo': diff against 'feature--x'.", runtime.TierRead},
		{"a relative revision", "git_show", map[string]any{"repo_path": "/repo", "revision": "HEAD~1"},
			"'git:git_show' in '/repo': show revision 'HEAD~1'.", runtime.TierRead},
		{"space before the dash is no option", "git_diff", map[string]any{"repo_path": "/repo", "target": " --output=x"},
			"'git:git_diff' in '/repo': diff against '--output=x'.", runtime.TierRead},
		{"contains a commit", "git_branch", map[string]any{"repo_path": "/repo", "branch_type": "all", "contains": "abc123"},
			`'git:git_branch' in '/repo': branches that contain 'abc123'; also branch_type: "all".`, runtime.TierRead},
		{"a null not_contains", "git_branch", map[string]any{"repo_path": "/repo", "branch_type": "all", "not_contains": nil},
			`'git:git_branch' in '/repo'; also branch_type: "all".`, runtime.TierRead},
		{"a message may start with a dash", "git_commit", map[string]any{"repo_path": "/repo", "message": "- fix"},
			`'git:git_commit' in '/repo': commit with message "- fix".`, runtime.TierWrite},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			desc := d.Describe(mcpCall("git:"+tc.tool, tc.args))
			assert.Equal(t, prefix+strings.TrimSuffix(tc.want, ".")+". Allow this call?", desc.Prompt)
			assert.Equal(t, tc.tier, desc.Tier)
			assert.Empty(t, failures())
		})
	}
}
