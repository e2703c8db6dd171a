// Package textfmt owns the text functions previews are written with:
// truncation (the one truncation engine, which keeps grapheme clusters
// whole), line counts, count phrases, inline text, compact JSON of input
// values, the fair rendering of a value's leaves that generic previews
// show (Fields), MCP argument values, SQL statement kinds, and the wording of
// file sizes, durations, keyboard shortcuts, file and menu paths,
// dimensions and wrapped tool results, the marks of named emphasis
// (Emph, EmphSegments), and the one redaction rule, which
// says which values are credentials and shows each by its size
// (SecretName, SecretText, RedactValue, Secrets, ScrubText). The dispatcher,
// generated code and the CEL bindings of package celfmt all call these
// functions, so every path shares one implementation with the reference
// semantics.
//
// It does not sanitize text for display (runtime.SafeText does) and holds
// no state. It imports only the standard library, runtime/value and
// well-kept text libraries (uniseg): no cel-go, no yaml, nothing above it.
//
// # Redaction
//
// A credential in a tool call is shown by its size, never by its value, so
// that the person who approves the call knows that a credential travels and
// how big it is, and so that logs which keep previews do not keep
// credentials. These values are credentials:
//
//  1. the value of a field whose name means a credential (SecretName), at
//     any depth, header maps included, and every string and number inside
//     it when it is a list or an object;
//  2. the "value" of an object that has "sensitive": true, and of an object
//     whose "name" or "key" is a string that means a credential
//     (environment variables and headers written as name-value pairs);
//  3. in any text (SecretShape): a URL's password
//     (scheme://user:password@host), the user of an http or https URL that
//     has no password (https://token@host), the value of a query or form
//     parameter whose name means a credential or is sig or signature
//     (?access_token=…, &X-Amz-Signature=…), the credentials after
//     "Authorization:", the value of a quoted pair whose name means a
//     credential ("password": "…"), and values shaped like well-known
//     credentials (GitHub, GitLab, Slack, OpenAI, Anthropic, Stripe, AWS,
//     Google, npm and Hugging Face tokens and keys, JWTs, PEM private keys).
//
// Each is replaced by SecretPlaceholder of its length in characters
// (auth_token: ‹secret, 40 characters›): RedactValue in a value,
// SecretText in text, and ScrubText in an output written from a value,
// with the value's Secrets.
package textfmt
