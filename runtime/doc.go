// Package runtime owns what runs in a host application: the single-owner
// registry of formatters, the dispatcher that turns a tool call into its
// preview, ask-prompt sentence and log context, the limits, the safe-text
// rules every returned string passes, and the isolation of failing
// formatters.
//
// It does not parse or check the formatter language (package celfmt does)
// and it never generates code. Its exported API carries no cel-go type, so a
// host application may pin its own cel-go version.
package runtime
