package generated_test

// mcpSchemas: the MCP servers' tools (see stockSchemas).
var mcpSchemas = map[string]map[string][]string{}
