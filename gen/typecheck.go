package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
)

// slotKinds are the prefixes of the names of the functions an entry's
// expressions become (PreviewDeploy, TierDeploy, …) and of its constant
// patterns (patternDeploy_1).
var slotKinds = []string{"Preview", "Unwrap", "Tier", "Row", "Result", "Error", "Expand", "Title", "pattern", "lets"}

// typeCheck type-checks generated source and returns, by formatter index,
// the first error in the code of each translated formatter whose code does
// not type-check. An error elsewhere (in code every catalog shares, or in
// a formatter the interpreter runs) is returned as an error: it is a bug
// of the generator that no fallback can mend.
func typeCheck(src []byte, imp types.Importer, plans []Plan) (map[int]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "generated.go", src, 0)
	if err != nil {
		return nil, err
	}
	var errs []types.Error
	conf := types.Config{Importer: imp, Error: func(err error) {
		var te types.Error
		if errors.As(err, &te) {
			errs = append(errs, te)
		}
	}}
	if _, err := conf.Check(f.Name.Name, fset, []*ast.File{f}, nil); err != nil && len(errs) == 0 {
		return nil, err
	}
	tools := make([]string, len(plans))
	for i, p := range plans {
		tools[i] = p.Tool
	}
	owner := map[string]int{} // a formatter's Go name, by formatter
	for i, name := range goNames(tools) {
		owner[name] = i
	}
	failing := map[int]string{}
	for _, e := range errs {
		i, ok := formatterAt(f, e.Pos, owner)
		if !ok || !plans[i].Native() {
			return nil, fmt.Errorf("%s: %s", fset.Position(e.Pos), e.Msg)
		}
		if _, seen := failing[i]; !seen {
			failing[i] = strings.Join(strings.Fields(e.Msg), " ")
		}
	}
	return failing, nil
}

// formatterAt returns the formatter whose code holds pos: the one a
// top-level function or variable is named after.
func formatterAt(f *ast.File, pos token.Pos, owner map[string]int) (int, bool) {
	for _, d := range f.Decls {
		if pos < d.Pos() || pos >= d.End() {
			continue
		}
		var name string
		switch d := d.(type) {
		case *ast.FuncDecl:
			name = d.Name.Name
		case *ast.GenDecl:
			if len(d.Specs) == 1 {
				switch s := d.Specs[0].(type) {
				case *ast.ValueSpec:
					if len(s.Names) == 1 {
						name, _, _ = strings.Cut(s.Names[0].Name, "_")
					}
				case *ast.TypeSpec:
					name = s.Name.Name
				}
			}
		}
		for _, name := range []string{name, strings.TrimSuffix(name, "Of")} { // letsDeployOf
			for _, kind := range slotKinds {
				if rest, ok := strings.CutPrefix(name, kind); ok {
					if i, ok := owner[rest]; ok {
						return i, true
					}
				}
			}
		}
		return 0, false
	}
	return 0, false
}

// importedPackages are the packages generated code imports, whose export
// data ExportImporter asks the go command for at once.
var importedPackages = []string{
	celfmtPath, runtimePath, celrtPath, valuePath,
	"fmt", "math", "regexp", "slices", "strconv", "strings", "unicode/utf8",
}

// ExportImporter returns an importer of the packages generated code
// imports, as the go command builds them in dir (a directory of the module
// the code is generated into): it reads their export data, which `go list
// -export` writes, so that type-checking the output takes milliseconds,
// not the seconds of type-checking their source.
func ExportImporter(dir string) (types.Importer, error) {
	e := &exportImporter{dir: dir, files: map[string]string{}}
	if err := e.list(importedPackages...); err != nil {
		return nil, err
	}
	e.from = importer.ForCompiler(token.NewFileSet(), "gc", e.lookup)
	return e, nil
}

type exportImporter struct {
	dir   string
	mu    sync.Mutex
	files map[string]string // export data file, by import path
	from  types.Importer
}

func (e *exportImporter) Import(path string) (*types.Package, error) { return e.from.Import(path) }

func (e *exportImporter) lookup(path string) (io.ReadCloser, error) {
	e.mu.Lock()
	file, ok := e.files[path]
	e.mu.Unlock()
	if !ok {
		if err := e.list(path); err != nil {
			return nil, err
		}
		e.mu.Lock()
		file, ok = e.files[path]
		e.mu.Unlock()
		if !ok {
			return nil, fmt.Errorf("go list gave no export data for %s", path)
		}
	}
	return os.Open(file)
}

// list asks the go command for the export data of packages and of what
// they import.
func (e *exportImporter) list(paths ...string) error {
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, paths...)...)
	cmd.Dir = e.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		// the go command's first line says why (no module here, say)
		why, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if why == "" {
			why = err.Error()
		}
		return fmt.Errorf("go list -export in %s: %s", e.dir, why)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for line := range strings.Lines(stdout.String()) {
		path, file, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if ok && file != "" && !slices.Contains([]string{"unsafe", "C"}, path) {
			e.files[path] = file
		}
	}
	return nil
}
