package generated_test

// agentSchemas: the coding agents' tools (see stockSchemas).
var agentSchemas = map[string]map[string][]string{}
