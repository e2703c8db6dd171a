//go:build !permgen_lean

package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/gen"
	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
)

// catalogFlags are the flags of the commands that read a catalog.
type catalogFlags struct {
	file    string
	out     string
	pkg     string
	command string
	strict  bool   // check: warnings are errors
	format  string // check, test, list: text or json
	// builtin is set when list names no catalog: it lists the catalog
	// compiled into the binary.
	builtin bool
}

const catalogUsage = `Usage: permgen %[1]s [flags] [FILE]

%[2]s

FILE is the catalog, as is -f FILE: give one of them. The defaults make the
command work at the repository root without flags.

Flags:
`

var commandHelp = map[string]string{
	"generate": "Checks the catalog and writes Go registrations into the output package. It writes\nnothing when any check fails, leaves unchanged files untouched, and removes files it\ngenerated earlier that are no longer produced.",
	"diff":     "Prints a unified diff of what generate would change and exits 1 when the output\npackage is stale (missing, changed or extra files); exits 0 when it is fresh.",
	"check":    "Loads and checks the catalog: every diagnostic, exit 1 on any error. A warning\n(a formatter without examples) is printed, and is an error with -strict.",
	"test":     "Runs every example of the catalog and prints each failure with its position, the\nexpected and the actual text; the last line is \"N passed, N failed\".",
	"list":     "Prints one row per formatter: key, owner, title, slots, omitted fields and aliases.\nWithout FILE or -f, it lists the catalog compiled into this binary.",
}

// hasFormat says which commands take -format.
var hasFormat = map[string]bool{"check": true, "test": true, "list": true}

// parseCatalogFlags parses the common flags; ok is false when the command
// should exit with code.
func parseCatalogFlags(command string, args []string, stdout, stderr io.Writer) (cf catalogFlags, code int, ok bool) {
	cf.command = command
	fs := newFlagSet(command, fmt.Sprintf(catalogUsage, command, commandHelp[command]))
	fs.StringVar(&cf.file, "f", "formatters.yaml", "the catalog `FILE`")
	if command == "check" {
		fs.BoolVar(&cf.strict, "strict", false, "make warnings errors: a formatter without examples fails the check")
	}
	if hasFormat[command] {
		fs.StringVar(&cf.format, "format", "text", "output format, `text|json`: json prints one object, diagnostics included, on standard output")
	}
	if command == "generate" || command == "diff" {
		fs.StringVar(&cf.out, "o", "generated", "the output directory `DIR`")
		fs.StringVar(&cf.pkg, "package", "", "the package `NAME` (default: the package of the hand-written Go files in the output directory, else the directory's name)")
	}
	rest, code, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return cf, code, false
	}
	if hasFormat[command] && cf.format != "text" && cf.format != "json" {
		return cf, usageError(stderr, command, "-format must be text or json, got %q", cf.format), false
	}
	switch len(rest) {
	case 0:
		cf.builtin = command == "list" && !flagSet(fs, "f")
	case 1:
		// Taking one of the two would leave the other silently unread.
		if flagSet(fs, "f") {
			return cf, usageError(stderr, command, "-f %s and FILE %s both name the catalog: give one", cf.file, rest[0]), false
		}
		cf.file = rest[0]
	default:
		return cf, usageError(stderr, command, "takes at most one FILE, got %d", len(rest)), false
	}
	if cf.pkg == "" && cf.out != "" {
		pkg, err := existingPackage(cf.out)
		if err != nil {
			errorf(stderr, command, "%v", err)
			return cf, exitInvalid, false
		}
		cf.pkg = pkg
	}
	if cf.pkg == "" && cf.out != "" {
		abs, err := filepath.Abs(cf.out)
		if err == nil {
			cf.pkg = packageName(filepath.Base(abs))
		}
	}
	return cf, exitOK, true
}

// flagSet reports whether the command line set the flag called name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// existingPackage returns the package of the Go files in dir that permgen
// did not generate (a hand-written doc.go or generate.go), or "" when there
// are none or dir does not exist. Test files and generated files do not
// count; files that disagree are an error.
func existingPackage(dir string) (string, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", nil
	case err != nil:
		return "", err
	case !info.IsDir():
		return "", fmt.Errorf("%s: not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	pkg, from := "", ""
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return "", err
		}
		if ast.IsGenerated(f) {
			continue
		}
		switch {
		case pkg == "":
			pkg, from = f.Name.Name, name
		case f.Name.Name != pkg:
			return "", fmt.Errorf("%s: %s is in package %s and %s in package %s: set -package", dir, from, pkg, name, f.Name.Name)
		}
	}
	return pkg, nil
}

// packageName makes a Go package name of a directory name.
func packageName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(dir) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9' && b.Len() > 0) {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "generated"
	}
	return b.String()
}

// loadCatalogFile reads and checks a catalog whose positions name it name,
// printing every diagnostic, with the path as given, when it has problems.
//
// The files the catalog includes are named, in positions, by the same
// path below name's directory as they have below path's.
func loadCatalogFile(command, path, name string, opts celfmt.Options, stderr io.Writer) (*celfmt.Checked, bool) {
	checked, errs, sources, err := readCatalog(path, name, opts)
	switch {
	case err != nil:
		catalogError(stderr, command, path, err)
		return nil, false
	case len(errs) > 0:
		fmt.Fprint(stderr, errs.SnippetsOf(sources))
		errorf(stderr, command, "%s: %s", path, problems(len(errs)))
		return nil, false
	}
	return checked, true
}

// catalogError reports a catalog that could not be read: a file error
// names its file, any other error the catalog's.
func catalogError(stderr io.Writer, command, path string, err error) {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		errorf(stderr, command, "%v", err)
		return
	}
	errorf(stderr, command, "%s: %v", path, err)
}

// readCatalog reads and checks a catalog (see loadCatalogFile). errs are
// its diagnostics, positioned in the files as given, and sources returns
// the text of each file they name; err is a file that cannot be read.
func readCatalog(path, name string, opts celfmt.Options) (checked *celfmt.Checked, errs celfmt.ErrorList, sources func(string) []byte, err error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	// osPath is the file a position's name stands for.
	osPath := func(file string) string {
		if file == name {
			return path
		}
		rel, err := filepath.Rel(filepath.Dir(name), file)
		if err != nil {
			return file
		}
		return filepath.Join(filepath.Dir(path), rel)
	}
	texts := map[string][]byte{path: src}
	read := func(file string) ([]byte, error) {
		text, err := os.ReadFile(osPath(file))
		if err != nil {
			return nil, err
		}
		texts[osPath(file)] = text
		return text, nil
	}
	checked, err = celfmt.LoadFiles(name, src, read, opts)
	sources = func(file string) []byte { return texts[file] }
	switch {
	case errors.As(err, &errs):
		for _, e := range errs {
			e.Pos.File = osPath(e.Pos.File)
		}
		return nil, errs, sources, nil
	case err != nil:
		return nil, nil, nil, err
	}
	return checked, nil, sources, nil
}

// problems says how many problems there are: "1 problem", "2 problems".
func problems(n int) string {
	if n == 1 {
		return "1 problem"
	}
	return fmt.Sprintf("%d problems", n)
}

// sourceName is how generated code names the catalog: its path relative to
// the root of the module that holds it, so that owners read
// "formatters.yaml#read" wherever go generate runs.
func sourceName(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if rel, err := filepath.Rel(dir, abs); err == nil {
				return filepath.ToSlash(rel)
			}
			return path
		}
		if parent := filepath.Dir(dir); parent == dir {
			return path
		}
	}
}

// outputs generates the files of a catalog.
func (cf catalogFlags) outputs(stderr io.Writer) (map[string][]byte, bool) {
	checked, ok := loadCatalogFile(cf.command, cf.file, sourceName(cf.file), celfmt.Options{}, stderr)
	if !ok {
		return nil, false
	}
	files, plans, err := gen.GeneratePlans(checked, gen.Config{Package: cf.pkg, Importer: typeChecker(cf.command, cf.out, stderr)})
	if err != nil {
		errorf(stderr, cf.command, "%v", err)
		return nil, false
	}
	if cf.command == "generate" {
		reportInterpreted(stderr, checked, plans)
	}
	return files, true
}

// typeChecker returns the importer that type-checks generated code in the
// module of dir, the nearest directory of dir that exists; nil, said on
// stderr, when the go command cannot give it (no go command, no module).
func typeChecker(command, dir string, stderr io.Writer) types.Importer {
	for {
		if _, err := os.Stat(dir); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	imp, err := gen.ExportImporter(dir)
	if err != nil {
		errorf(stderr, command, "the generated code is not type-checked: %v", err)
		return nil
	}
	return imp
}

// staleFiles lists files in dir that permgen generated earlier and that are
// not in files.
func staleFiles(dir string, files map[string][]byte) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || files[e.Name()] != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(data, []byte(gen.Header+"\n")) {
			stale = append(stale, e.Name())
		}
	}
	return stale, nil
}

func runGenerate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cf, code, ok := parseCatalogFlags("generate", args, stdout, stderr)
	if !ok {
		return code
	}
	files, ok := cf.outputs(stderr)
	if !ok {
		return exitInvalid
	}
	if err := os.MkdirAll(cf.out, 0o755); err != nil {
		errorf(stderr, "generate", "%v", err)
		return exitInvalid
	}
	// A file of the same name that permgen did not write is someone's
	// work: nothing is written when one is found.
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(cf.out, name)
		if old, err := os.ReadFile(path); err == nil && !bytes.HasPrefix(old, []byte(gen.Header+"\n")) {
			errorf(stderr, "generate", "%s was not generated by permgen (its first line is not %q): move it or generate into another directory", path, gen.Header)
			return exitInvalid
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(cf.out, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue // unchanged: keep its modification time
		}
		if err := writeAtomic(path, files[name]); err != nil {
			errorf(stderr, "generate", "%v", err)
			return exitInvalid
		}
	}
	stale, err := staleFiles(cf.out, files)
	if err != nil {
		errorf(stderr, "generate", "%v", err)
		return exitInvalid
	}
	for _, name := range stale {
		if err := os.Remove(filepath.Join(cf.out, name)); err != nil {
			errorf(stderr, "generate", "%v", err)
			return exitInvalid
		}
	}
	return exitOK
}

// writeAtomic writes through a temporary file and a rename, so a reader
// never sees a partial file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func runDiff(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cf, code, ok := parseCatalogFlags("diff", args, stdout, stderr)
	if !ok {
		return code
	}
	if info, err := os.Stat(cf.out); errors.Is(err, os.ErrNotExist) {
		errorf(stderr, "diff", "%s: no such directory", cf.out)
		return exitInvalid
	} else if err != nil {
		errorf(stderr, "diff", "%v", err)
		return exitInvalid
	} else if !info.IsDir() {
		errorf(stderr, "diff", "%s: not a directory", cf.out)
		return exitInvalid
	}
	files, ok := cf.outputs(stderr)
	if !ok {
		return exitInvalid
	}
	stale, err := staleFiles(cf.out, files)
	if err != nil {
		errorf(stderr, "diff", "%v", err)
		return exitInvalid
	}
	changed := false
	show := func(name string, old, new []byte) {
		if bytes.Equal(old, new) {
			return
		}
		changed = true
		path := filepath.ToSlash(filepath.Join(cf.out, name))
		text, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A: difflib.SplitLines(string(old)), B: difflib.SplitLines(string(new)),
			FromFile: "a/" + path, ToFile: "b/" + path, Context: 3,
		})
		fmt.Fprint(stdout, text)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		old, err := os.ReadFile(filepath.Join(cf.out, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			errorf(stderr, "diff", "%v", err)
			return exitInvalid
		}
		show(name, old, files[name])
	}
	for _, name := range stale {
		old, _ := os.ReadFile(filepath.Join(cf.out, name))
		show(name, old, nil)
	}
	if changed {
		errorf(stderr, "diff", "%s is stale: run permgen generate", cf.out)
		return exitInvalid
	}
	return exitOK
}

// checkedCatalog parses a command's flags and loads its catalog. A nil
// catalog means the command is over, with code as its exit code.
func checkedCatalog(command string, args []string, opts celfmt.Options, stdout, stderr io.Writer) (catalogFlags, *celfmt.Checked, int) {
	cf, code, ok := parseCatalogFlags(command, args, stdout, stderr)
	if !ok {
		return cf, nil, code
	}
	if cf.format == "json" {
		checked, errs, _, err := readCatalog(cf.file, cf.file, opts)
		if err != nil {
			catalogError(stderr, command, cf.file, err)
			return cf, nil, exitInvalid
		}
		if len(errs) > 0 {
			writeJSON(stdout, stderr, command, catalogReport{File: cf.file, Diagnostics: diagnostics(errs, "error")})
			return cf, nil, exitInvalid
		}
		return cf, checked, exitOK
	}
	checked, ok := loadCatalogFile(command, cf.file, cf.file, opts, stderr)
	if !ok {
		return cf, nil, exitInvalid
	}
	return cf, checked, exitOK
}

func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cf, checked, code := checkedCatalog("check", args, celfmt.Options{}, stdout, stderr)
	if checked == nil {
		return code
	}
	warnings := checked.Warnings()
	failed := cf.strict && len(warnings) > 0
	if cf.format == "json" {
		report := checkReport{catalogReport: catalogReport{File: cf.file, OK: !failed, Diagnostics: diagnostics(warnings, "warning")},
			Formatters: len(checked.Formatters), Interpreted: []jsonInterpreted{}}
		if !failed {
			plans, ok := checkPlans(cf, checked, stderr)
			if !ok {
				return exitInvalid
			}
			for i, p := range plans {
				if p.Native() {
					report.Translated++
					continue
				}
				f := checked.Formatters[i]
				report.Interpreted = append(report.Interpreted, jsonInterpreted{jsonPos: posOf(f.Entry.Pos), Tool: shown(f.Entry.Tool), Reason: shown(p.Reason)})
			}
		}
		writeJSON(stdout, stderr, "check", report)
		if failed {
			return exitInvalid
		}
		return exitOK
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "%s: warning: %s\n", shown(w.Pos.String()), shown(w.Msg))
	}
	if failed {
		errorf(stderr, "check", "%s: %s, which -strict makes errors", cf.file, textfmt.CountPhrase(len(warnings), "warning", "warnings"))
		return exitInvalid
	}
	fmt.Fprintf(stdout, "%s: %s, all checks pass\n", cf.file, textfmt.CountPhrase(len(checked.Formatters), "formatter", "formatters"))
	plans, ok := checkPlans(cf, checked, stderr)
	if !ok {
		return exitInvalid
	}
	native := 0
	for _, p := range plans {
		if p.Native() {
			native++
		}
	}
	fmt.Fprintf(stdout, "%d of %d translated to Go\n", native, len(plans))
	reportInterpreted(stdout, checked, plans)
	return exitOK
}

// checkPlans plans the code generate would write for a checked catalog,
// and type-checks it, so that check fails on what generate would.
func checkPlans(cf catalogFlags, checked *celfmt.Checked, stderr io.Writer) ([]gen.Plan, bool) {
	_, plans, err := gen.GeneratePlans(checked, gen.Config{Package: "check", Importer: typeChecker("check", filepath.Dir(cf.file), stderr)})
	if err != nil {
		errorf(stderr, "check", "%v", err)
		return nil, false
	}
	return plans, true
}

// reportInterpreted says which formatters generated code runs in the CEL
// interpreter, and why.
func reportInterpreted(w io.Writer, checked *celfmt.Checked, plans []gen.Plan) {
	for i, p := range plans {
		if !p.Native() {
			f := checked.Formatters[i]
			fmt.Fprintf(w, "%s: %q runs in the CEL interpreter: %s\n", shown(f.Entry.Pos.String()), f.Entry.Tool, shown(p.Reason))
		}
	}
}

func runTest(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cf, checked, code := checkedCatalog("test", args, celfmt.Options{SkipExamples: true}, stdout, stderr)
	if checked == nil {
		return code
	}
	report := testReport{catalogReport: catalogReport{File: cf.file, Diagnostics: []jsonDiagnostic{}}, Failures: []jsonTestFailure{}}
	for _, f := range checked.Formatters {
		for _, r := range f.RunExamples() {
			if r.Problem == "" {
				report.Passed++
				continue
			}
			report.Failed++
			failure := jsonTestFailure{jsonPos: posOf(r.Pos()), Tool: shown(f.Entry.Tool), Example: r.N, Problem: shown(r.Problem)}
			if r.Err == nil {
				failure.Want, failure.Got = shown(r.Want), shown(r.Got)
			}
			report.Failures = append(report.Failures, failure)
			if cf.format == "json" {
				continue
			}
			if r.Err != nil {
				fmt.Fprintf(stdout, "--- FAIL: %s: %q %s\n", shown(r.Pos().String()), f.Entry.Tool, shown(r.Problem))
			} else {
				fmt.Fprintf(stdout, "--- FAIL: %s: %q example %d\n", shown(r.Pos().String()), f.Entry.Tool, r.N)
				fmt.Fprintf(stdout, "    want: %s\n    got:  %s\n", shown(r.Want), shown(r.Got))
			}
		}
	}
	report.OK = report.Failed == 0
	if cf.format == "json" {
		writeJSON(stdout, stderr, "test", report)
	} else {
		fmt.Fprintf(stdout, "%d passed, %d failed\n", report.Passed, report.Failed)
	}
	if !report.OK {
		return exitInvalid
	}
	return exitOK
}

func runList(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cf, code, ok := parseCatalogFlags("list", args, stdout, stderr)
	if !ok {
		return code
	}
	// The entries hold the catalog's text as written: each output makes
	// it safe in its own way.
	var entries []jsonEntry
	if cf.builtin {
		entries = builtinEntries()
	} else {
		_, checked, code := checkedCatalog("list", args, celfmt.Options{SkipExamples: true}, stdout, stderr)
		if checked == nil {
			return code
		}
		for _, f := range checked.Formatters {
			e := f.Entry
			pos := posOf(e.Pos)
			entries = append(entries, jsonEntry{Key: e.Tool, Owner: e.Owner(), Pos: &pos, Title: e.Title,
				Aliases: e.Aliases, Slots: slotNames(e), Omits: e.Omits})
		}
	}
	if cf.format == "json" {
		report := listReport{catalogReport: catalogReport{File: cf.file, OK: true, Diagnostics: []jsonDiagnostic{}}, Builtin: cf.builtin, Entries: []jsonEntry{}}
		if cf.builtin {
			report.File = ""
		}
		for _, e := range entries {
			e.Key, e.Owner, e.Title = shown(e.Key), shown(e.Owner), shown(e.Title)
			e.Aliases, e.Omits = shownAll(e.Aliases), shownAll(e.Omits)
			report.Entries = append(report.Entries, e)
		}
		writeJSON(stdout, stderr, "list", report)
		return exitOK
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if cf.builtin {
		fmt.Fprintln(w, "KEY\tOWNER\tTITLE\tALIASES")
		for _, e := range entries {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", shown(e.Key), shown(e.Owner), orDash(shown(e.Title)), nameList(e.Aliases))
		}
	} else {
		fmt.Fprintln(w, "KEY\tOWNER\tTITLE\tSLOTS\tOMITS\tALIASES")
		for _, e := range entries {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", shown(e.Key), shown(e.Owner), orDash(shown(e.Title)),
				strings.Join(e.Slots, ","), nameList(e.Omits), nameList(e.Aliases))
		}
	}
	w.Flush()
	return exitOK
}

// builtinEntries lists the catalog compiled into the binary: each entry
// with its aliases, in catalog order, its title what its rows show.
func builtinEntries() []jsonEntry {
	var out []jsonEntry
	index := map[string]int{}
	for _, e := range generated.Entries() {
		if e.AliasOf != "" {
			if i, ok := index[e.AliasOf]; ok {
				out[i].Aliases = append(out[i].Aliases, e.Key)
				continue
			}
		}
		title := ""
		if p, ok := e.Formatter.(runtime.Presenter); ok {
			title = p.Presentation().Title
		}
		index[e.Key] = len(out)
		out = append(out, jsonEntry{Key: e.Key, Owner: e.Owner, Title: title})
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// nameList joins names for a listing's column (the fields an entry
// omits, its aliases), "-" for none. A name that is not plain ASCII
// letters, digits, "_", "-", ".", ":" and "*" is quoted, so that no name
// can hide another or reach the terminal as anything but text.
func nameList(names []string) string {
	if len(names) == 0 {
		return "-"
	}
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = name
		for _, c := range []byte(name) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':' || c == '*') {
				out[i] = strconv.QuoteToASCII(name)
				break
			}
		}
	}
	return strings.Join(out, ",")
}

// slotNames lists what an entry declares, each without spaces so that
// the column splits on white space: "preview", "unwrap", "tier:execute" (a
// named tier), "tier" (a tier expression), "row", "result", "error",
// "expand", "title".
func slotNames(e *celfmt.Entry) []string {
	var slots []string
	if e.HasPreview() {
		slots = append(slots, "preview")
	}
	if e.HasUnwrap() {
		slots = append(slots, "unwrap")
	}
	switch {
	case e.StaticTier != runtime.TierUnknown:
		slots = append(slots, "tier:"+e.StaticTier.String())
	case e.HasTier():
		slots = append(slots, "tier")
	}
	for _, x := range []struct {
		name string
		has  bool
	}{{"row", e.HasRow()}, {"result", e.HasResult()}, {"error", e.HasError()}, {"expand", e.HasExpand()}, {"title", e.HasTitleExpr()}} {
		if x.has {
			slots = append(slots, x.name)
		}
	}
	return slots
}

// shown is a catalog's or a server's text as a listing prints it: safe
// text, revealed, so that an escape, a bidi override or a line break in a
// title cannot restyle the terminal, reorder a row or forge one, and
// every credential replaced by its size.
func shown(s string) string { return runtime.OutputText(s, runtime.Reveal, 0) }
