// Package value owns the value model of a tool call's input: JSON decoded
// into objects that keep the key order the model wrote (Object), numbers
// that keep the digits the call carried (Number), and Go values converted
// into the same model (FromGo, DecodeInput).
//
// It is the bottom of permgen's packages and imports only the standard
// library: no other package of this module, no cel-go, no yaml.
package value
