package generated_test

// editorSchemas: the text-editor family of catalog/editors.yaml (see
// stockSchemas). Schema names are "<agent> <tool>"; where they come from is
// in the corpus testdata/real/editors.jsonl and in each entry's description.
var editorSchemas = map[string]map[string][]string{
	"str_replace_editor": {
		"command":       {"openhands str_replace_editor", "swe-agent str_replace_editor"},
		"path":          {"openhands str_replace_editor", "swe-agent str_replace_editor"},
		"file_text":     {"openhands str_replace_editor", "swe-agent str_replace_editor"},
		"old_str":       {"openhands str_replace_editor", "swe-agent str_replace_editor"},
		"new_str":       {"openhands str_replace_editor", "swe-agent str_replace_editor"},
		"insert_line":   {"openhands str_replace_editor", "swe-agent str_replace_editor"},
		"view_range":    {"openhands str_replace_editor", "swe-agent str_replace_editor"},
		"security_risk": {"openhands str_replace_editor"},
	},
	"str_replace_based_edit_tool": {
		"command":     {"anthropic str_replace_based_edit_tool"},
		"path":        {"anthropic str_replace_based_edit_tool"},
		"file_text":   {"anthropic str_replace_based_edit_tool"},
		"old_str":     {"anthropic str_replace_based_edit_tool"},
		"new_str":     {"anthropic str_replace_based_edit_tool"},
		"insert_line": {"anthropic str_replace_based_edit_tool"},
		"insert_text": {"anthropic str_replace_based_edit_tool"},
		"view_range":  {"anthropic str_replace_based_edit_tool"},
	},
	"developer__text_editor": {
		"command":     {"goose developer__text_editor"},
		"path":        {"goose developer__text_editor"},
		"diff":        {"goose developer__text_editor"},
		"view_range":  {"goose developer__text_editor"},
		"file_text":   {"goose developer__text_editor"},
		"old_str":     {"goose developer__text_editor"},
		"new_str":     {"goose developer__text_editor"},
		"insert_line": {"goose developer__text_editor"},
	},
	"fs_write": {
		"command":     {"amazon-q fs_write"},
		"path":        {"amazon-q fs_write"},
		"file_text":   {"amazon-q fs_write"},
		"old_str":     {"amazon-q fs_write"},
		"new_str":     {"amazon-q fs_write"},
		"insert_line": {"amazon-q fs_write"},
		"summary":     {"amazon-q fs_write"},
	},
	"fs_read": {
		"operations": {"amazon-q fs_read"},
		"summary":    {"amazon-q fs_read"},
	},
}
