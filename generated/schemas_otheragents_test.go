package generated_test

// otherAgentSchemas: the tools of Cline, Roo Code, crush and OpenHands
// (catalog/agents.yaml; see stockSchemas). Schema names are "<agent>
// <tool>"; where they come from is in the corpus
// testdata/real/otheragents.jsonl: Cline's tool specs (cline/cline
// src/core/prompts/system-prompt/tools, the last it published for these
// names; "(native)" is the NATIVE_NEXT_GEN variant), Roo Code's native tools
// (RooCodeInc/Roo-Code src/core/prompts/tools/native-tools and
// src/shared/tools.ts; "(2025)" is a schema it has since dropped: line_count,
// list_code_definition_names, browser_action), crush's tools
// (charmbracelet/crush internal/agent/tools) and OpenHands' CodeAct tools
// (All-Hands-AI/OpenHands openhands/agenthub/codeact_agent/tools; "(2025)"
// is finish before August 2025).
var otherAgentSchemas = map[string]map[string][]string{
	"write_to_file": {
		"path":          {"cline write_to_file", "roo-code write_to_file"},
		"absolutePath":  {"cline write_to_file (native)"},
		"content":       {"cline write_to_file", "cline write_to_file (native)", "roo-code write_to_file"},
		"line_count":    {"roo-code write_to_file (2025)"},
		"task_progress": {"cline write_to_file", "cline write_to_file (native)"},
	},
	"search_files": {
		"path":          {"cline search_files", "roo-code search_files"},
		"regex":         {"cline search_files", "roo-code search_files"},
		"file_pattern":  {"cline search_files", "roo-code search_files"},
		"task_progress": {"cline search_files"},
	},
	"list_files": {
		"path":          {"cline list_files", "roo-code list_files"},
		"recursive":     {"cline list_files", "roo-code list_files"},
		"task_progress": {"cline list_files"},
	},
	"list_code_definition_names": {
		"path":          {"cline list_code_definition_names", "roo-code list_code_definition_names (2025)"},
		"task_progress": {"cline list_code_definition_names"},
	},
	"browser_action": {
		"action":     {"cline browser_action", "roo-code browser_action (2025)"},
		"url":        {"cline browser_action", "roo-code browser_action (2025)"},
		"coordinate": {"cline browser_action", "roo-code browser_action (2025)"},
		"text":       {"cline browser_action", "roo-code browser_action (2025)"},
		"size":       {"roo-code browser_action (2025)"},
		"path":       {"roo-code browser_action (2025)"},
	},
	"use_mcp_tool": {
		"server_name":   {"cline use_mcp_tool", "roo-code use_mcp_tool"},
		"tool_name":     {"cline use_mcp_tool", "roo-code use_mcp_tool"},
		"arguments":     {"cline use_mcp_tool", "roo-code use_mcp_tool"},
		"task_progress": {"cline use_mcp_tool"},
	},
	"access_mcp_resource": {
		"server_name":   {"cline access_mcp_resource", "roo-code access_mcp_resource"},
		"uri":           {"cline access_mcp_resource", "roo-code access_mcp_resource"},
		"task_progress": {"cline access_mcp_resource"},
	},
	"attempt_completion": {
		"result":        {"cline attempt_completion", "roo-code attempt_completion"},
		"command":       {"cline attempt_completion"},
		"task_progress": {"cline attempt_completion"},
	},
	"new_task": {
		"mode":    {"roo-code new_task"},
		"message": {"roo-code new_task"},
		"todos":   {"roo-code new_task"},
		"context": {"cline new_task"},
	},
	"codebase_search": {
		"query": {"roo-code codebase_search"},
		"path":  {"roo-code codebase_search"},
	},
	"search_and_replace": {
		"file_path":   {"roo-code search_and_replace"},
		"old_string":  {"roo-code search_and_replace"},
		"new_string":  {"roo-code search_and_replace"},
		"replace_all": {"roo-code search_and_replace"},
	},
	"view": {
		"file_path": {"crush view"},
		"offset":    {"crush view"},
		"limit":     {"crush view"},
	},
	"download": {
		"url":       {"crush download"},
		"file_path": {"crush download"},
		"timeout":   {"crush download"},
	},
	"fetch": {
		"url":     {"crush fetch"},
		"format":  {"crush fetch"},
		"timeout": {"crush fetch"},
	},
	"sourcegraph": {
		"query":          {"crush sourcegraph"},
		"count":          {"crush sourcegraph"},
		"context_window": {"crush sourcegraph"},
		"timeout":        {"crush sourcegraph"},
	},
	"lsp_diagnostics": {
		"file_path": {"crush lsp_diagnostics"},
	},
	"execute_ipython_cell": {
		"code":          {"openhands execute_ipython_cell"},
		"security_risk": {"openhands execute_ipython_cell"},
	},
	"browser": {
		"code":          {"openhands browser"},
		"security_risk": {"openhands browser"},
	},
	"think": {
		"thought": {"openhands think"},
	},
	"finish": {
		"message":        {"openhands finish", "openhands finish (2025)"},
		"task_completed": {"openhands finish (2025)"},
	},
}
