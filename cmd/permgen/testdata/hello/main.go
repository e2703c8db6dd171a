// Command hello is the floor of BenchmarkHookStart: a Go program that
// starts, prints one line and exits.
package main

import "fmt"

func main() { fmt.Println("hello") }
