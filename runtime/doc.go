// Package runtime owns what runs in a host application: the single-owner
// registry of formatters, the dispatcher that turns a tool call into its
// preview, ask-prompt sentence and log context (a wrapper call shown as
// the calls it carries, each call with its approval tier), the limits,
// key validation, the safe-text rules every returned string passes, the
// selection of a catalog's entries, the isolation of failing
// formatters, and the one mapping of agents' MCP tool names to the
// registry's "server:tool" (MCPKey, AgentCall).
//
// It builds on two packages below it, runtime/value (the input value
// model) and runtime/textfmt (the text functions), and must not import
// cel-go, antlr, protobuf, yaml or any package of this module above it
// (celfmt, gen, generated): a host that registers Go or generated
// formatters links no interpreter (TestRuntimeLinksNoCEL holds it to that).
// Checked CEL formatters plug in through celfmt, whose formatters are
// runtime Formatters. Its exported API carries no cel-go type.
package runtime
