package main

import (
	"flag"
	"fmt"

	"github.com/permgen/permgen/runtime"
)

// limitFlags are the text limits a command takes as flags: --preview-max,
// --summary-max, --log-max and, where the command sanitizes output,
// --output-max and --output-max-bytes.
type limitFlags struct {
	preview, summary, log, output int
	outputBytes                   int
	withOutput                    bool
}

// register defines the flags on fs; output says whether --output-max is
// one of them.
func (l *limitFlags) register(fs *flag.FlagSet, output bool) {
	l.withOutput = output
	fs.IntVar(&l.preview, "preview-max", runtime.DefaultPreviewLimit, "the longest JSON, in `N` characters, the default preview shows as written; longer input is shown by its fields (limits.preview)")
	fs.IntVar(&l.summary, "summary-max", runtime.DefaultSummaryLimit, "at most `N` characters of a pattern or glob (limits.summary)")
	fs.IntVar(&l.log, "log-max", runtime.DefaultLogLimit, "at most `N` characters of a log preview (limits.log)")
	if output {
		fs.IntVar(&l.output, "output-max", runtime.DefaultOutputLimit, "at most `N` characters of the preview and of each piece of the prompt, after sanitizing (limits.output)")
		fs.IntVar(&l.outputBytes, "output-max-bytes", 0, "at most `N` bytes of UTF-8 of the preview and of each piece of the prompt, the ellipsis included; 0: no byte cap")
	}
}

// validate reports the first limit that is not a positive integer.
func (l *limitFlags) validate() error {
	limits := []struct {
		name string
		v    int
	}{{"preview-max", l.preview}, {"summary-max", l.summary}, {"log-max", l.log}}
	if l.withOutput {
		limits = append(limits, struct {
			name string
			v    int
		}{"output-max", l.output})
	}
	for _, f := range limits {
		if f.v < 1 {
			return fmt.Errorf("--%s must be a positive integer, got %d", f.name, f.v)
		}
	}
	if l.outputBytes < 0 {
		return fmt.Errorf("--output-max-bytes must be a positive integer or 0 (no byte cap), got %d", l.outputBytes)
	}
	if l.outputBytes > 0 && l.outputBytes < runtime.MinOutputBytes {
		return fmt.Errorf("--output-max-bytes must be 0 (no byte cap) or at least %d, room for a character of the tool's name and the ellipsis, got %d",
			runtime.MinOutputBytes, l.outputBytes)
	}
	return nil
}

// limits returns the limits the flags set.
func (l *limitFlags) limits() runtime.Limits {
	return runtime.Limits{Preview: l.preview, Summary: l.summary, Log: l.log, Output: l.output, OutputBytes: l.outputBytes}
}

// newFlagSet returns the flag set of a command whose -h prints usage and
// then the flags.
func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}
