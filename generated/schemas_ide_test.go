package generated_test

// ideSchemas: the tools of the editors' agents (catalog/ide.yaml; see
// stockSchemas). Schema names are "<agent> <tool>"; where they come from is
// in the corpus testdata/real/ide.jsonl: Zed's agent tools
// (zed-industries/zed crates/agent/src/tools; "(2025)" is the edit_file of
// that year, with display_description, mode and content), Cursor's edit_file
// (Cursor Prompts/Agent Tools v1.0.json of the
// x1xhlol/system-prompts-and-models-of-ai-tools collection), Continue's
// tools (continuedev/continue core/tools/definitions), and crush's
// diagnostics as it was named until October 2025 (charmbracelet/crush
// internal/agent/tools/diagnostics.go).
var ideSchemas = map[string]map[string][]string{
	"edit_file": {
		"path":                {"zed edit_file", "zed edit_file (2025)"},
		"target_file":         {"cursor edit_file"},
		"edits":               {"zed edit_file", "zed edit_file (2025)"},
		"mode":                {"zed edit_file (2025)"},
		"content":             {"zed edit_file (2025)"},
		"display_description": {"zed edit_file (2025)"},
		"instructions":        {"cursor edit_file"},
		"code_edit":           {"cursor edit_file"},
	},
	"delete_path": {
		"path": {"zed delete_path"},
	},
	"move_path": {
		"source_path":      {"zed move_path"},
		"destination_path": {"zed move_path"},
	},
	"copy_path": {
		"source_path":      {"zed copy_path"},
		"destination_path": {"zed copy_path"},
	},
	"create_directory": {
		"path":   {"zed create_directory"},
		"reason": {"zed create_directory"},
	},
	"find_path": {
		"glob":    {"zed find_path"},
		"pattern": {"continue file_glob_search"},
		"offset":  {"zed find_path"},
	},
	"open": {
		"path_or_url": {"zed open"},
	},
	"diagnostics": {
		"path":         {"zed diagnostics"},
		"file_path":    {"crush diagnostics (2025)"},
		"min_severity": {"zed diagnostics"},
	},
	"create_new_file": {
		"filepath": {"continue create_new_file"},
		"contents": {"continue create_new_file"},
	},
	"edit_existing_file": {
		"filepath": {"continue edit_existing_file"},
		"changes":  {"continue edit_existing_file"},
	},
	"single_find_and_replace": {
		"filepath":    {"continue single_find_and_replace"},
		"old_string":  {"continue single_find_and_replace"},
		"new_string":  {"continue single_find_and_replace"},
		"replace_all": {"continue single_find_and_replace"},
	},
	"multi_edit": {
		"filepath": {"continue multi_edit"},
		"edits":    {"continue multi_edit"},
	},
	"fetch_url_content": {
		"url": {"continue fetch_url_content"},
	},
	"search_web": {
		"query": {"continue search_web"},
	},
	"codebase": {
		"query": {"continue codebase"},
	},
	"view_subdirectory": {
		"directory_path": {"continue view_subdirectory"},
	},
	"view_diff":                {},
	"read_currently_open_file": {},
	"view_repo_map":            {},
	"read_file_range": {
		"filepath":  {"continue read_file_range"},
		"startLine": {"continue read_file_range"},
		"endLine":   {"continue read_file_range"},
	},
	"create_rule_block": {
		"name":        {"continue create_rule_block"},
		"rule":        {"continue create_rule_block"},
		"description": {"continue create_rule_block"},
		"globs":       {"continue create_rule_block"},
		"regex":       {"continue create_rule_block"},
		"alwaysApply": {"continue create_rule_block"},
	},
	"request_rule": {
		"name": {"continue request_rule"},
	},
	"read_skill": {
		"skillName": {"continue read_skill"},
	},
}
