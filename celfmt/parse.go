package celfmt

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
	"gopkg.in/yaml.v3"
)

// Keys of the catalog format, in the order they are documented.
var (
	topKeys   = []string{"version", "include", "let", "formatters"}
	entryKeys = []string{"tool", "aliases", "title", "description", "category", "icon", "communication", "input", "omits", "let",
		"preview", "unwrap", "tier", "row", "result", "error", "expand", "examples"}
	exampleKeys = []string{"input", "extra", "tool", "limits", "preview", "declines", "calls", "tier",
		"output", "row", "rowDeclines", "title", "result", "error", "expand"}
	callKeys   = []string{"tool", "input", "kind"}
	iconKeys   = []string{"nerd", "plain"}
	titleKeys  = []string{"name", "expr"}
	outputKeys = []string{"content", "details", "isError"}
)

// reservedNames cannot name a let: they are the environment's variables.
var reservedNames = []string{varInput, varTool, varLimits, varResult}

// Bounds of a catalog. Loading and checking take time and memory in
// proportion to the size of the file (each let, formatter and character is
// handled a bounded number of times), so bounding the file bounds the
// loading; a catalog from a plugin cannot make it take minutes.
const (
	// MaxCatalogBytes is the size of the largest catalog file: twenty times
	// the stock catalog.
	MaxCatalogBytes = 1 << 20
	// MaxExpressionChars is the length of the longest expression, in
	// characters, as cel-go's parser allows by default. It is checked
	// before any work per character.
	MaxExpressionChars = 100_000
	// MaxLets is how many lets one formatter may have. Each let is checked
	// in an environment that declares the lets before it, so that the work
	// of one formatter grows with the square of its lets; bounding them
	// keeps loading linear in the size of the file. (Declaring every let at
	// once would avoid the square, but would also let a let use a later one,
	// which then would need a check of its own.)
	MaxLets = 100
)

// maxExampleNodes bounds the YAML nodes of one example input, aliases
// expanded, so a crafted catalog cannot expand into an enormous value;
// maxCatalogExampleNodes bounds those of all the examples of a catalog.
const (
	maxExampleNodes        = 100000
	maxCatalogExampleNodes = 200000
)

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Parse reads a catalog from YAML. It checks the file's structure (keys,
// scalar types, duplicates, version, registry keys) but compiles no
// expression: see Check. All problems are reported together, sorted, with
// file:line:col positions. A catalog given this way is one file: an
// include is an error (see ParseFiles).
func Parse(file string, src []byte) (*Catalog, ErrorList) {
	return ParseFiles(file, src, nil)
}

// ReadFile reads a file a catalog includes. It is given the file's path as
// ParseFiles makes it: the directory of the including file joined with the
// include, which stays inside the directory of the first file.
type ReadFile func(name string) ([]byte, error)

// DirFiles reads the files a catalog includes from the operating system's
// directory dir: a name ParseFiles gives is read as dir joined with it.
func DirFiles(dir string) ReadFile {
	return func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	}
}

// ParseFiles reads a catalog that may span several files: file, whose text
// is src, and the files its include lists name, read with read (and the
// ones they include). The files make one catalog: their shared lets are
// shared by all their formatters, a registry key is claimed once among
// them, and the formatters of a file come in the order written, each
// included file's after those of the file that includes it. Positions name
// the file where the text is.
func ParseFiles(file string, src []byte, read ReadFile) (*Catalog, ErrorList) {
	l := &loader{read: read, files: map[string]Pos{}, exampleNodes: maxCatalogExampleNodes, keys: map[string]registryKey{}}
	cat := &Catalog{File: file}
	root := l.file(file, src, Pos{}, nil)
	if root != nil {
		cat.Version = root.version
	}
	// A file's shared lets serve its formatters and those of the files it
	// includes, down the tree: a file written apart cannot reach into
	// another's, and one included cannot take a name from the file that
	// includes it.
	scopes := make([]letScope, len(l.parsed))
	for i, f := range l.parsed {
		var outer []Let
		if f.parent != nil {
			outer = f.parent.visible
		}
		f.lets = l.distinctLets(outer, f.lets)
		f.visible = append(slices.Clip(outer), f.lets...)
		cat.Lets = append(cat.Lets, f.lets...)
		f.p.shared = f.visible
		entries := l.formatters(f)
		cat.Formatters = append(cat.Formatters, entries...)
		scopes[i] = letScope{lets: f.visible, own: len(outer), entries: entries}
	}
	if len(cat.Formatters) == 0 && root != nil && len(l.errs) == 0 && !l.reported() {
		root.p.errorf(root.node, "the catalog has no formatters: add a list of formatters")
	}
	share := parser{errs: l.errs}
	share.share(scopes)
	errs := share.errs
	for _, f := range l.parsed {
		errs = append(errs, f.p.errs...)
	}
	errs.Sort()
	return cat, errs
}

// MaxCatalogFiles is how many files one catalog may span.
const MaxCatalogFiles = 100

// loader reads the files of one catalog.
type loader struct {
	read ReadFile
	// files are the files read, by path, with where each was included.
	files  map[string]Pos
	parsed []*catalogFile
	bytes  int // of every file read
	// exampleNodes is how many more values the examples of all files may
	// hold.
	exampleNodes int
	keys         map[string]registryKey
	errs         ErrorList
}

// registryKey is where a tool or an alias was claimed.
type registryKey struct {
	what string // "tool" or "alias"
	pos  Pos
}

// catalogFile is one file of a catalog, its top level read.
type catalogFile struct {
	p       *parser
	parent  *catalogFile // the file that includes it, nil for the first
	node    *yaml.Node   // the top-level mapping
	fields  map[string]*yaml.Node
	version int
	lets    []Let // its shared lets
	// visible are the shared lets its formatters see: those of the files
	// that include it, outermost first, then its own.
	visible []Let
}

// reported reports whether a file already said what is wrong with its
// formatters.
func (l *loader) reported() bool {
	for _, f := range l.parsed {
		if len(f.p.errs) > 0 {
			return true
		}
	}
	return false
}

// file reads one file of the catalog and the files it includes; from is
// where it was included (zero for the first file). It returns nil when the
// file could not be read as a mapping.
func (l *loader) file(name string, src []byte, from Pos, parent *catalogFile) *catalogFile {
	l.bytes += len(src)
	if len(src) > MaxCatalogBytes || l.bytes > MaxCatalogBytes {
		pos := Pos{File: name, Line: 1, Col: 1}
		if len(src) > MaxCatalogBytes {
			l.errs.Add(pos, "the catalog is %d bytes, more than the %d a catalog may have: split it",
				len(src), MaxCatalogBytes)
		} else {
			l.errs.Add(from, "with %s the catalog's files are %d bytes, more than the %d a catalog may have", name, l.bytes, MaxCatalogBytes)
		}
		return nil
	}
	if errs := hiddenLineBreaks(name, src); len(errs) > 0 {
		l.errs = append(l.errs, errs...)
		return nil
	}
	p := &parser{file: name, lines: strings.Split(string(src), "\n"), exampleNodes: &l.exampleNodes}
	f := p.top(src)
	if f == nil {
		l.parsed = append(l.parsed, &catalogFile{p: p, parent: parent})
		return nil
	}
	f.parent = parent
	l.parsed = append(l.parsed, f)
	if n, ok := f.fields["include"]; ok {
		l.include(f, n)
	}
	return f
}

// include reads the files an include lists, relative to the directory of
// the file f that lists them.
func (l *loader) include(f *catalogFile, n *yaml.Node) {
	p := f.p
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "include must be a list of catalog files, got %s", describe(n))
		return
	}
	for _, item := range n.Content {
		rel, ok := p.str(item, "an included file")
		if !ok {
			continue
		}
		if problem := includeProblem(rel); problem != "" {
			p.errorf(item, "cannot include %q: %s", rel, problem)
			continue
		}
		pos := p.pos(item)
		if l.read == nil {
			p.errorf(item, "cannot include %q: the catalog was given as one file's text, without a way to read the files it includes (load it with LoadFiles)", rel)
			continue
		}
		name := filepath.Join(filepath.Dir(p.file), filepath.FromSlash(rel))
		if first, dup := l.files[name]; dup || name == l.parsed[0].p.file {
			if name == l.parsed[0].p.file {
				p.errorf(item, "cannot include %q: it is the catalog's first file", rel)
			} else {
				p.errorf(item, "%q is included again: already included at %s", rel, first)
			}
			continue
		}
		if len(l.files) == MaxCatalogFiles-1 {
			p.errorf(item, "cannot include %q: a catalog may span at most %d files", rel, MaxCatalogFiles)
			return
		}
		l.files[name] = pos
		src, err := l.read(name)
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err // the diagnostic names the file as the catalog does
		}
		if err != nil {
			p.errorf(item, "cannot include %q: %v", rel, err)
			continue
		}
		l.file(name, src, pos, f)
	}
}

// includeProblem says what is wrong with the path of an included file, or
// returns "": a relative, clean, slash-separated path to a .yaml or .yml
// file below the including file's directory, so that a catalog from a
// plugin reads nothing outside its own directory.
func includeProblem(rel string) string {
	switch {
	case rel == "":
		return "the path is empty"
	case strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "":
		return "the path must be relative to this file's directory"
	case strings.ContainsRune(rel, '\\'):
		return "write the path with forward slashes"
	case !fs.ValidPath(rel):
		return "the path must be clean and stay inside this file's directory (no \"..\", \".\" or empty parts)"
	case !strings.HasSuffix(rel, ".yaml") && !strings.HasSuffix(rel, ".yml"):
		return "a catalog file's name ends with .yaml or .yml"
	}
	for _, r := range rel {
		if r < ' ' || r == 0x7f || !unicode.IsPrint(r) {
			return "the path holds a control or invisible character"
		}
	}
	return ""
}

// distinctLets returns a file's shared lets without those that take the
// name of one that the files including it share, which it reports.
func (l *loader) distinctLets(outer, lets []Let) []Let {
	var distinct []Let
	for _, let := range lets {
		if i := slices.IndexFunc(outer, func(o Let) bool { return o.Name == let.Name }); i >= 0 {
			l.errs.Add(let.NamePos, "duplicate let %q: a file that includes this one already shares it, at %s", let.Name, outer[i].NamePos)
			continue
		}
		distinct = append(distinct, let)
	}
	return distinct
}

// maxLineBreakErrors bounds how many hidden line breaks one catalog reports.
const maxLineBreakErrors = 10

// hiddenLineBreaks reports the characters YAML reads as line breaks but
// editors, terminals, diffs and grep do not all show as such: a carriage
// return not followed by a line feed, NEL, and the Unicode line and
// paragraph separators. A catalog from a plugin could use one to hide a key
// from whoever reviews it ("preview: x␍tier: read" prints as one line and
// parses as two), and positions past one would not match the file's lines.
// Lines end with a line feed, optionally after a carriage return; the
// characters themselves are written as escapes in double-quoted strings.
func hiddenLineBreaks(file string, src []byte) ErrorList {
	var errs ErrorList
	line, col := 1, 1
	for i, r := range string(src) {
		var name string
		switch {
		case r == '\n':
			line, col = line+1, 1
			continue
		case r == '\r' && (i+1 == len(src) || src[i+1] != '\n'):
			name = `a carriage return without a line feed (write it as "\r" in a double-quoted string)`
		case r == 0x85:
			name = `U+0085 NEXT LINE (write it as "\N" in a double-quoted string)`
		case r == 0x2028:
			name = `U+2028 LINE SEPARATOR (write it as "\L" in a double-quoted string)`
		case r == 0x2029:
			name = `U+2029 PARAGRAPH SEPARATOR (write it as "\P" in a double-quoted string)`
		}
		if name != "" {
			if len(errs) == maxLineBreakErrors {
				errs.Add(Pos{File: file, Line: line, Col: col}, "more hidden line breaks follow")
				return errs
			}
			errs.Add(Pos{File: file, Line: line, Col: col},
				"%s: YAML reads it as a line break that editors and terminals may not show; end lines with a line feed", name)
		}
		col++
	}
	return errs
}

type parser struct {
	file      string
	lines     []string
	runeLines [][]rune // lines as runes, built on first use
	errs      ErrorList
	// exampleNodes is how many more values the examples of the catalog
	// may hold.
	exampleNodes *int
	// shared are the catalog's shared lets (Catalog.Lets).
	shared []Let
}

// runes returns the file's lines as runes, without line ends.
func (p *parser) runes() [][]rune {
	if p.runeLines == nil {
		p.runeLines = make([][]rune, len(p.lines))
		for i, l := range p.lines {
			p.runeLines[i] = []rune(strings.TrimRight(l, "\r"))
		}
	}
	return p.runeLines
}

func (p *parser) pos(n *yaml.Node) Pos { return Pos{File: p.file, Line: n.Line, Col: n.Column} }

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs.Add(p.pos(n), format, args...)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// indentationHint says how to fix the line where the YAML library stopped,
// when its message is about indentation: a tab, or a key indented more or
// less than the keys of its mapping. before are the lines above it.
func indentationHint(msg, line string, before []string) string {
	switch {
	case strings.Contains(msg, "found a tab character"):
		return "indent YAML with spaces, not tabs"
	case strings.Contains(msg, "mapping values are not allowed in this context"),
		strings.Contains(msg, "did not find expected key"):
		indent := len(line) - len(strings.TrimLeft(line, " "))
		for i := len(before) - 1; i >= 0; i-- {
			above := strings.TrimRight(before[i], "\r")
			if strings.TrimSpace(above) == "" || strings.HasPrefix(strings.TrimSpace(above), "#") {
				continue
			}
			want := len(above) - len(strings.TrimLeft(above, " "))
			if rest := strings.TrimLeft(above, " "); strings.HasPrefix(rest, "- ") {
				want += 2 // the keys of a list item line up after its dash
			}
			if want != indent && strings.Contains(above, ":") {
				return fmt.Sprintf("this line is indented %d spaces and the key above it %d: the keys of one mapping line up", indent, want)
			}
			return ""
		}
	}
	return ""
}

// top reads a file's top level: its version, shared lets and includes,
// and the keys the rest of it has. It returns nil when the file is not a
// mapping.
func (p *parser) top(src []byte) *catalogFile {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		msg := err.Error()
		line := 1
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = msg[len(m[0]):]
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		// yaml.v3 names the line where the enclosing block starts; the
		// first line at which the text stops parsing is the mistake.
		if problem := firstBadLine(p.lines); problem > line {
			msg += fmt.Sprintf(" (in the block that starts at line %d)", line)
			line = problem
		}
		col := 1
		if line <= len(p.lines) {
			text := p.lines[line-1]
			col += len(text) - len(strings.TrimLeft(text, " \t"))
			if at, hint := quotedThenMore(text); hint != "" {
				col, msg = utf8.RuneCountInString(text[:at])+1, msg+": "+hint
			} else if hint := indentationHint(msg, text, p.lines[:line-1]); hint != "" {
				msg += ": " + hint
			}
		}
		p.errs.Add(Pos{File: p.file, Line: line, Col: col}, "invalid YAML: %s", msg)
		return nil
	}
	if len(doc.Content) == 0 {
		p.errs.Add(Pos{File: p.file, Line: 1, Col: 1}, `empty catalog: want "version: %d" and a list of formatters`, CatalogVersion)
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		p.errorf(root, "a catalog must be a mapping with version and formatters, got %s", describe(root))
		return nil
	}
	f := &catalogFile{p: p, node: root, fields: p.mapping(root, topKeys, "catalog")}
	if v, ok := f.fields["version"]; ok {
		f.version = p.version(v)
	} else {
		p.errorf(root, "missing version: add \"version: %d\" at the top", CatalogVersion)
	}
	if l, ok := f.fields["let"]; ok {
		f.lets = p.lets(l, "the catalog")
	}
	return f
}

// formatters reads the formatters of one file of the catalog, claiming
// their registry keys among those of every file.
func (l *loader) formatters(f *catalogFile) []*Entry {
	if f.node == nil {
		return nil
	}
	p := f.p
	n, ok := f.fields["formatters"]
	if !ok {
		if f.fields["include"] == nil && f.fields["let"] == nil {
			p.errorf(f.node, "missing formatters: add a list of formatters")
		}
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "formatters must be a list, got %s", describe(n))
		return nil
	}
	if len(n.Content) == 0 {
		p.errorf(n, "formatters is empty: add at least one formatter")
	}
	// A registry key is a tool or an alias: each names one formatter.
	claim := func(name, what string, pos Pos) {
		first, dup := l.keys[name]
		if !dup {
			l.keys[name] = registryKey{what, pos}
			return
		}
		if what == "tool" && first.what == "tool" {
			p.errs.Add(pos, "duplicate tool %q: already defined at %s", name, first.pos)
			p.errs.Add(first.pos, "tool %q is defined again at %s", name, pos)
			return
		}
		p.errs.Add(pos, "duplicate %s %q: already defined as %s at %s", what, name, articled(first.what), first.pos)
		p.errs.Add(first.pos, "%s %q is defined again as %s at %s", first.what, name, articled(what), pos)
	}
	var entries []*Entry
	for _, item := range n.Content {
		e := p.entry(item)
		if e == nil {
			continue
		}
		if e.Tool != "" {
			claim(e.Tool, "tool", e.ToolPos)
		}
		for i, a := range e.Aliases {
			claim(a, "alias", e.AliasPos[i])
		}
		entries = append(entries, e)
	}
	return entries
}

// quotedThenMore recognizes the most common YAML mistake of catalog
// authors: CEL that starts with a quote written as a plain value
// (preview: "to " + input.env). YAML reads a quoted value up to its
// closing quote, and the rest of the line is then not YAML. It returns
// the byte offset of the text after the closing quote and a hint, or ""
// when line is not such a line.
func quotedThenMore(line string) (int, string) {
	m := quotedValue.FindStringSubmatchIndex(line)
	if m == nil {
		return 0, ""
	}
	key, start := line[m[2]:m[3]], m[4] // the opening quote
	q := line[start]
	i := start + 1
	for i < len(line) {
		switch {
		case q == '"' && line[i] == '\\':
			i += 2
			continue
		case q == '\'' && line[i] == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i += 2
			continue
		case line[i] == q:
			rest := strings.TrimSpace(line[i+1:])
			if rest == "" || rest[0] == '#' {
				return 0, ""
			}
			return i + 1, fmt.Sprintf("YAML reads a value that starts with a quote only up to its closing quote: "+
				"write CEL that starts with a quote inside the other quotes (%s: '\"to \" + input.env', each ' inside doubled) "+
				"or as a block (%s: |, and the expression on the next line, indented)", key, key)
		}
		i++
	}
	return 0, ""
}

// quotedValue matches a mapping key whose value starts with a quote.
var quotedValue = regexp.MustCompile(`^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*):\s+(["'])`)

// articled returns "a tool" or "an alias".
func articled(what string) string {
	if what == "alias" {
		return "an alias"
	}
	return "a " + what
}

// firstBadLine returns the smallest n such that the first n lines do not
// parse, or 0. Cutting YAML at a line break leaves valid YAML up to the
// mistake, so a binary search finds the line.
func firstBadLine(lines []string) int {
	parses := func(n int) bool {
		var doc yaml.Node
		return yaml.Unmarshal([]byte(strings.Join(lines[:n], "\n")), &doc) == nil
	}
	if parses(len(lines)) {
		return 0
	}
	lo, hi := 0, len(lines) // lines[:lo] parses, lines[:hi] does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if parses(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

func (p *parser) version(n *yaml.Node) int {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		p.errorf(n, "version must be the integer %d, got %s", CatalogVersion, describe(n))
		return 0
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil || v != CatalogVersion {
		p.errorf(n, "unknown version %s: this permgen reads version %d", n.Value, CatalogVersion)
		return 0
	}
	return v
}

// mapping returns the values of a mapping's known keys, reporting unknown
// keys (with a suggestion), duplicate keys (at both places) and non-string
// keys.
func (p *parser) mapping(n *yaml.Node, known []string, what string) map[string]*yaml.Node {
	fields := make(map[string]*yaml.Node, len(n.Content)/2)
	keys := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
			p.errorf(k, "%s keys must be strings, got %s", what, describe(k))
			continue
		}
		if first, dup := keys[k.Value]; dup {
			p.errorf(k, "duplicate key %q: already set at %s", k.Value, p.pos(first))
			continue
		}
		keys[k.Value] = k
		v = deref(v) // an alias stands for its anchor's value
		if !slices.Contains(known, k.Value) {
			msg := fmt.Sprintf("unknown %s key %q", what, k.Value)
			if s := suggest(k.Value, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			} else {
				msg += fmt.Sprintf(" (known keys: %s)", strings.Join(known, ", "))
			}
			p.errorf(k, "%s", msg)
			continue
		}
		fields[k.Value] = v
	}
	return fields
}

// deref returns the node an alias stands for.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// str returns a string scalar, reporting anything else.
func (p *parser) str(n *yaml.Node, name string) (string, bool) {
	n = deref(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		hint := ""
		if n.Kind == yaml.ScalarNode {
			hint = fmt.Sprintf(" (quote it: %q)", n.Value)
		}
		p.errorf(n, "%s must be a string, got %s%s", name, describe(n), hint)
		return "", false
	}
	return n.Value, true
}

func (p *parser) entry(n *yaml.Node) *Entry {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "a formatter must be a mapping with tool and preview, got %s", describe(n))
		return nil
	}
	e := &Entry{Pos: p.pos(n)}
	fields := p.mapping(n, entryKeys, "formatter")
	if t, ok := fields["tool"]; ok {
		e.ToolPos = p.pos(t)
		if tool, ok := p.str(t, "tool"); ok {
			if reason := keyProblem(tool); reason != "" {
				p.errorf(t, "invalid tool %q: %s", tool, reason)
			} else {
				e.Tool = tool
			}
		}
	} else {
		p.errorf(n, "missing tool: the registry key this formatter is for")
	}
	if a, ok := fields["aliases"]; ok {
		p.aliases(e, a)
	}
	if t, ok := fields["title"]; ok {
		p.title(e, t)
	}
	if d, ok := fields["description"]; ok {
		e.Description, _ = p.str(d, "description")
	}
	if c, ok := fields["category"]; ok {
		e.Category, _ = p.str(c, "category")
	}
	if i, ok := fields["icon"]; ok {
		e.Icon = p.icon(i)
	}
	if c, ok := fields["communication"]; ok {
		if c.Kind != yaml.ScalarNode || c.Tag != "!!bool" {
			p.errorf(c, "communication must be true or false, got %s", describe(c))
		} else {
			e.Communication = c.Value == "true"
		}
	}
	if in, ok := fields["input"]; ok {
		e.Input = p.fields(in)
	}
	if o, ok := fields["omits"]; ok {
		p.omits(e, o)
	}
	if l, ok := fields["let"]; ok {
		e.Lets = p.lets(l, "one formatter")
	}
	slots := 0
	for _, x := range []struct {
		key, empty string
		src        *Source
	}{
		{"preview", `"''" for no preview`, &e.Preview},
		{"unwrap", `"[]" for no calls`, &e.Unwrap},
		{"row", `"optional.none()" for the default row`, &e.Row},
		{"result", `"optional.none()" for the default summary`, &e.Result},
		{"error", `"optional.none()" for the default summary`, &e.Error},
		{"expand", `"optional.none()" for the default lines`, &e.Expand},
	} {
		v, ok := fields[x.key]
		if !ok {
			continue
		}
		slots++
		if text, ok := p.str(v, x.key); ok {
			*x.src = p.source(v, text)
			if strings.TrimSpace(text) == "" {
				p.errorf(v, "%s is empty: write a CEL expression (%s)", x.key, x.empty)
				x.src.Text = ""
			}
		}
	}
	if e.HasTitleExpr() {
		slots++
	}
	if t, ok := fields["tier"]; ok {
		slots++
		p.tier(e, t)
	}
	if slots == 0 {
		p.errorf(n, "missing preview, unwrap, tier, row, result, error or expand: a formatter needs at least one: "+
			"preview (the text of the call), unwrap (the calls it carries), tier (how much it may do), "+
			"row (its transcript row), result and error (the summary of its result) or expand (its result's lines)")
	}
	if ex, ok := fields["examples"]; ok {
		e.Examples = p.examples(ex, e.Input)
		for _, x := range e.Examples {
			if x.TitlePos != (Pos{}) && !e.HasTitleExpr() {
				p.errs.Add(x.TitlePos, "an example's title needs title.expr: the expression that computes the title of a call")
			}
		}
	}
	return e
}

// title reads an entry's title: a string, its display name ("" for none),
// or a mapping with name, that display name, and expr, a CEL expression
// that computes the display name of one call (Peekaboo's formatForTitle).
// name is what rows show when expr declines or fails.
func (p *parser) title(e *Entry, n *yaml.Node) {
	if n.Kind == yaml.ScalarNode {
		var ok bool
		e.Title, ok = p.str(n, "title")
		e.NoTitle = ok && e.Title == ""
		return
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "title must be a string or a mapping with name (the display name) and expr "+
			"(a CEL expression for the title of one call), got %s", describe(n))
		return
	}
	fields := p.mapping(n, titleKeys, "title")
	if v, ok := fields["name"]; ok {
		var ok bool
		e.Title, ok = p.str(v, "title.name")
		e.NoTitle = ok && e.Title == ""
	}
	v, ok := fields["expr"]
	if !ok {
		p.errorf(n, "missing expr: a CEL expression for the title of one call (or write the title as a string)")
		return
	}
	if text, ok := p.str(v, "title.expr"); ok {
		if strings.TrimSpace(text) == "" {
			p.errorf(v, `title.expr is empty: write a CEL expression ("optional.none()" for the name)`)
			return
		}
		e.TitleExpr = p.source(v, text)
	}
}

// icon reads an entry's icons: a mapping with nerd and plain, each a
// string, or one string, the icon of the set that can draw it (a Nerd
// Font glyph is the nerd icon, anything else the plain one, which rows
// show in both sets).
func (p *parser) icon(n *yaml.Node) Icon {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		s, _ := p.str(n, "icon")
		if runtime.IsNerdGlyph(s) {
			return Icon{Nerd: s}
		}
		return Icon{Plain: s}
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "icon must be a string or a mapping with nerd (a Nerd Font glyph) and plain (a Unicode symbol), got %s", describe(n))
		return Icon{}
	}
	var icon Icon
	fields := p.mapping(n, iconKeys, "icon")
	if v, ok := fields["nerd"]; ok {
		icon.Nerd, _ = p.str(v, "icon.nerd")
	}
	if v, ok := fields["plain"]; ok {
		icon.Plain, _ = p.str(v, "icon.plain")
	}
	return icon
}

// tier reads an entry's tier: a tier's name, or a CEL expression of type
// string. A lone word that is neither a tier nor a name the expression
// could mean is taken for a misspelt tier.
func (p *parser) tier(e *Entry, n *yaml.Node) {
	text, ok := p.str(n, "tier")
	if !ok {
		return
	}
	word := strings.TrimSpace(text)
	if t, err := runtime.ParseTier(word); err == nil {
		e.Tier, e.StaticTier = Source{Text: text, Pos: p.pos(n)}, t
		return
	}
	isLet := slices.ContainsFunc(e.Lets, func(l Let) bool { return l.Name == word }) ||
		slices.ContainsFunc(p.shared, func(l Let) bool { return l.Name == word })
	switch {
	case word == "":
		p.errorf(n, "tier is empty: write %s, or a CEL expression of type string", tierList())
		return
	case identifier.MatchString(word) && !isLet && !slices.Contains(reservedNames, word):
		p.errorf(n, "%s", unknownTier(word)+", or a CEL expression of type string")
		return
	}
	e.Tier = p.source(n, text)
}

// tierList is the tiers' names for a diagnostic: "read, write, network or
// execute".
func tierList() string {
	names := runtime.TierNames()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// unknownTier says that word names no tier, with a suggestion.
func unknownTier(word string) string {
	msg := fmt.Sprintf("unknown tier %q", word)
	lower := strings.ToLower(strings.TrimSpace(word))
	for _, t := range runtime.TierNames() {
		if editDistance(lower, t) <= 2 || swapped(lower, t) || len(lower) >= 3 && strings.HasPrefix(t, lower) {
			msg += fmt.Sprintf(" (did you mean %q?)", t)
			break
		}
	}
	return msg + "; a tier is " + tierList()
}

// aliases reads an entry's other tool names: a list of registry keys.
func (p *parser) aliases(e *Entry, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "aliases must be a list of tool names, got %s", describe(n))
		return
	}
	for _, item := range n.Content {
		alias, ok := p.str(item, "an alias")
		if !ok {
			continue
		}
		if reason := keyProblem(alias); reason != "" {
			p.errorf(deref(item), "invalid alias %q: %s", alias, reason)
			continue
		}
		e.Aliases = append(e.Aliases, alias)
		e.AliasPos = append(e.AliasPos, p.pos(deref(item)))
	}
}

// omits reads the input fields an entry deliberately does not show: a
// list of field names, each once.
func (p *parser) omits(e *Entry, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "omits must be a list of input field names, got %s", describe(n))
		return
	}
	for _, item := range n.Content {
		name, ok := p.str(item, "an omitted field")
		if !ok {
			continue
		}
		if name == "" {
			p.errorf(deref(item), "an omitted field must be a field name, got an empty string")
			continue
		}
		if i := slices.Index(e.Omits, name); i >= 0 {
			p.errorf(deref(item), "duplicate omitted field %q: already listed at %s", name, e.OmitsPos[i])
			continue
		}
		e.Omits = append(e.Omits, name)
		e.OmitsPos = append(e.OmitsPos, p.pos(deref(item)))
	}
}

func (p *parser) source(n *yaml.Node, text string) Source {
	if tooLong(text) {
		p.errorf(n, "the expression is %d characters long, more than the %d an expression may have",
			utf8.RuneCountInString(text), MaxExpressionChars)
		return Source{Text: text, Pos: p.pos(n), tooLong: true}
	}
	return Source{Text: text, Pos: p.pos(n), at: scalarPositions(p.lines, p.runes, p.file, n)}
}

// tooLong reports whether an expression has more than MaxExpressionChars
// characters.
func tooLong(text string) bool {
	return len(text) > MaxExpressionChars && utf8.RuneCountInString(text) > MaxExpressionChars
}

func (p *parser) fields(n *yaml.Node) []Field {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "input must be a mapping of field names to CEL types, got %s", describe(n))
		return nil
	}
	list := []Field{} // declared, even when empty
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, ok := p.str(k, "an input field name")
		if !ok {
			continue
		}
		if seen[name] {
			p.errorf(k, "duplicate input field %q", name)
			continue
		}
		seen[name] = true
		if !identifier.MatchString(name) {
			p.errorf(k, "input field %q is not an identifier: use letters, digits and _", name)
			continue
		}
		typ, ok := p.str(v, "the type of input field "+strconv.Quote(name))
		if !ok {
			continue
		}
		list = append(list, Field{Name: name, NamePos: p.pos(k), Type: typ, TypePos: p.pos(v)})
	}
	return list
}

// lets reads a let mapping, of one formatter or of the whole catalog
// (where names which, for diagnostics).
func (p *parser) lets(n *yaml.Node, where string) []Let {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "let must be a mapping of names to CEL expressions, got %s", describe(n))
		return nil
	}
	var lets []Let
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, ok := p.str(k, "a let name")
		if !ok {
			continue
		}
		switch {
		case seen[name]:
			p.errorf(k, "duplicate let %q", name)
			continue
		case !identifier.MatchString(name):
			p.errorf(k, "let name %q is not an identifier: use letters, digits and _", name)
			continue
		case slices.Contains(reservedNames, name):
			p.errorf(k, "let %q shadows the variable %s: choose another name", name, name)
			continue
		}
		seen[name] = true
		if len(lets) == MaxLets {
			hint := "combine some with cel.bind, or split the formatter"
			if where == "the catalog" {
				hint = "combine some with cel.bind, or move some into the formatters that use them"
			}
			p.errorf(k, "more than %d lets in %s: %s", MaxLets, where, hint)
			break
		}
		text, ok := p.str(v, "let "+strconv.Quote(name))
		if !ok {
			continue
		}
		lets = append(lets, Let{Name: name, NamePos: p.pos(k), Expr: p.source(deref(v), text)})
	}
	return lets
}

// examples reads an entry's examples; declared are the entry's declared
// input fields (nil when it declares none), against which each example's
// input keys are checked.
func (p *parser) examples(n *yaml.Node, declared []Field) []Example {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "examples must be a list, got %s", describe(n))
		return nil
	}
	var list []Example
	for i, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			p.errorf(item, "an example must be a mapping with input and preview or declines, got %s", describe(item))
			continue
		}
		ex := Example{Pos: p.pos(item)}
		fields := p.mapping(item, exampleKeys, "example")
		values := maxExampleNodes // what the values of this example may hold
		in, hasInput := fields["input"]
		if !hasInput {
			p.errorf(item, "missing input: the tool input of this example")
		} else {
			ex.Input = p.exampleValue(in, &values)
		}
		if x, ok := fields["extra"]; ok {
			if x.Kind != yaml.ScalarNode || x.Tag != "!!bool" {
				p.errorf(x, "extra must be true or false, got %s", describe(x))
			} else {
				ex.Extra = x.Value == "true"
			}
		}
		if hasInput {
			ex.mistyped = p.exampleFields(i+1, deref(in), ex.Input, declared, ex.Extra, fields["extra"])
		}
		if t, ok := fields["tool"]; ok {
			ex.ToolPos = p.pos(t)
			if tool, ok := p.str(t, "an example's tool"); ok {
				switch reason := keyProblem(tool); {
				case reason != "":
					p.errorf(t, "invalid tool %q: %s", tool, reason)
				case strings.HasSuffix(tool, ":*"):
					p.errorf(t, "an example's tool is the name a call uses: %q is a pattern, name one tool", tool)
				default:
					ex.Tool = tool
				}
			}
		}
		if l, ok := fields["limits"]; ok {
			ex.Limits = p.limits(l)
		}
		pv, hasPreview := fields["preview"]
		if hasPreview {
			ex.PreviewPos = p.pos(pv)
			ex.Preview, hasPreview = p.str(pv, "an example's preview")
		}
		if d, ok := fields["declines"]; ok {
			if d.Kind != yaml.ScalarNode || d.Tag != "!!bool" {
				p.errorf(d, "declines must be true or false, got %s", describe(d))
			} else {
				ex.Declines = d.Value == "true"
				if hasPreview && ex.Declines {
					p.errorf(d, "an example has either preview or declines: true, not both")
				}
			}
		}
		if c, ok := fields["calls"]; ok {
			// Calls with a mistake, reported, are not compared.
			errs := len(p.errs)
			ex.CallsPos, ex.Calls = p.pos(c), p.calls(c, &values)
			ex.HasCalls = len(p.errs) == errs
		}
		if t, ok := fields["tier"]; ok {
			ex.TierPos = p.pos(t)
			if word, ok := p.str(t, "an example's tier"); ok {
				if tier, err := runtime.ParseTier(strings.TrimSpace(word)); err != nil {
					p.errorf(t, "%s", unknownTier(word))
				} else {
					ex.Tier = tier
				}
			}
		}
		p.exampleRender(&ex, fields, &values)
		expects := ex.Declines || ex.RowDeclines
		for _, k := range []string{"preview", "calls", "tier", "row", "title", "result", "error", "expand"} {
			_, ok := fields[k]
			expects = expects || ok
		}
		if !expects {
			p.errorf(item, "missing preview: the expected text (or declines: true, or the calls, tier, row, result, "+
				"error or expand the formatter must return)")
		}
		list = append(list, ex)
	}
	return list
}

// exampleRender reads what an example expects of the row, result, error
// and expand slots, and the output the last three see.
func (p *parser) exampleRender(ex *Example, fields map[string]*yaml.Node, values *int) {
	if o, ok := fields["output"]; ok {
		ex.OutputPos = p.pos(o)
		ex.Output = p.output(o, values)
	}
	if r, ok := fields["row"]; ok {
		ex.RowPos = p.pos(r)
		ex.Row, _ = p.str(r, "an example's row")
	}
	if t, ok := fields["title"]; ok {
		if text, ok := p.str(t, "an example's title"); ok {
			ex.Title, ex.TitlePos = text, p.pos(t)
		}
	}
	if d, ok := fields["rowDeclines"]; ok {
		switch {
		case d.Kind != yaml.ScalarNode || d.Tag != "!!bool":
			p.errorf(d, "rowDeclines must be true or false, got %s", describe(d))
		case ex.RowPos != (Pos{}) && d.Value == "true":
			p.errorf(d, "an example has either row or rowDeclines: true, not both")
		case d.Value == "true":
			ex.RowPos, ex.RowDeclines = p.pos(d), true
		}
	}
	for _, x := range []struct {
		key  string
		text *string
		pos  *Pos
	}{{"result", &ex.Result, &ex.ResultPos}, {"error", &ex.Error, &ex.ErrorPos}} {
		if v, ok := fields[x.key]; ok {
			if text, ok := p.str(v, "an example's "+x.key); ok {
				*x.text, *x.pos = text, p.pos(v)
			}
		}
	}
	if v, ok := fields["expand"]; ok {
		if v.Kind != yaml.SequenceNode {
			p.errorf(v, "an example's expand must be a list of strings, got %s", describe(v))
		} else {
			lines := []string{}
			good := true
			for _, item := range v.Content {
				line, ok := p.str(item, "a line of an example's expand")
				good = good && ok
				lines = append(lines, line)
			}
			if good {
				ex.Expand, ex.ExpandPos = lines, p.pos(v)
			}
		}
	}
	if ex.Output == nil && ex.OutputPos == (Pos{}) {
		for _, k := range []string{"result", "error", "expand"} {
			if v, ok := fields[k]; ok {
				p.errorf(v, "an example's %s needs output: the result the call returned, with content, details and isError", k)
			}
		}
	}
}

// output reads an example's output: the result of the call, a mapping with
// content (a list of mappings such as {type: text, text: …}), details (any
// value) and isError (a boolean). It returns the object that the variable
// result holds, content, isError and text always set.
func (p *parser) output(n *yaml.Node, values *int) *value.Object {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "output must be a mapping with content, details and isError, got %s", describe(n))
		return nil
	}
	fields := p.mapping(n, outputKeys, "output")
	content, details := []any{}, any(nil)
	hasDetails, isError := false, false
	if c, ok := fields["content"]; ok {
		if c.Kind != yaml.SequenceNode {
			p.errorf(c, "output.content must be a list of mappings such as {type: text, text: hello}, got %s", describe(c))
		} else {
			for _, item := range c.Content {
				if deref(item).Kind != yaml.MappingNode {
					p.errorf(item, "an item of output.content must be a mapping such as {type: text, text: hello}, got %s",
						describe(deref(item)))
					continue
				}
				content = append(content, p.exampleValue(item, values))
			}
		}
	}
	if d, ok := fields["details"]; ok {
		details, hasDetails = p.exampleValue(d, values), true
	}
	if e, ok := fields["isError"]; ok {
		if e.Kind != yaml.ScalarNode || e.Tag != "!!bool" {
			p.errorf(e, "output.isError must be true or false, got %s", describe(e))
		} else {
			isError = e.Value == "true"
		}
	}
	text := outputText(content)
	if hasDetails {
		return value.ObjectOf([]string{"content", "details", "isError", "text"}, []any{content, details, isError, text})
	}
	return value.ObjectOf([]string{"content", "isError", "text"}, []any{content, isError, text})
}

// outputText is the text of an example's output, as runtime.Result.Text
// makes it of a call's result read by permgen rows: a type or text that is
// not a string reads as empty.
func outputText(content []any) string {
	var res runtime.Result
	for _, item := range content {
		o, _ := item.(*value.Object)
		typ, _ := o.Get("type")
		text, _ := o.Get("text")
		t, _ := typ.(string)
		s, _ := text.(string)
		res.Content = append(res.Content, runtime.Content{Type: t, Text: s})
	}
	return res.Text()
}

// calls reads the calls an example expects: a list of mappings with tool,
// input and kind.
func (p *parser) calls(n *yaml.Node, values *int) []ExampleCall {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "calls must be a list of calls, each with tool and maybe input and kind, got %s", describe(n))
		return nil
	}
	list := []ExampleCall{}
	for _, item := range n.Content {
		item = deref(item)
		if item.Kind != yaml.MappingNode {
			p.errorf(item, "a call must be a mapping with tool and maybe input and kind, got %s", describe(item))
			continue
		}
		c := ExampleCall{Pos: p.pos(item)}
		fields := p.mapping(item, callKeys, "call")
		if t, ok := fields["tool"]; ok {
			c.Tool, _ = p.str(t, "a call's tool")
		} else {
			p.errorf(item, "missing tool: the tool of the call")
		}
		if in, ok := fields["input"]; ok {
			c.Input = p.exampleValue(in, values)
		}
		if k, ok := fields["kind"]; ok {
			c.Kind, _ = p.str(k, "a call's kind")
		}
		list = append(list, c)
	}
	return list
}

// exampleFields reports the keys of the n-th example's input that the
// entry does not declare, unless the example says extra: true (its input
// has undeclared fields on purpose, to show that they are ignored), in
// which case it must have at least one.
//
// A declared field's value of another type is reported at the value, and
// mistyped is set: the example is not run, so that the one mistake is one
// diagnostic, where it is, and not a failure of the preview it feeds.
func (p *parser) exampleFields(n int, in *yaml.Node, input any, declared []Field, extra bool, extraNode *yaml.Node) (mistyped bool) {
	if declared == nil {
		if extra {
			p.errorf(extraNode, "example %d: extra: true, but the formatter declares no input: every field is read", n)
		}
		return false
	}
	if in.Kind != yaml.MappingNode {
		return false
	}
	obj, _ := input.(*value.Object)
	for i := 0; obj != nil && i+1 < len(in.Content); i += 2 {
		k := in.Content[i]
		j := slices.IndexFunc(declared, func(f Field) bool { return f.Name == k.Value })
		if k.Kind != yaml.ScalarNode || j < 0 {
			continue
		}
		t, err := parseType(declared[j].Type)
		v, _ := obj.Get(k.Value)
		if err != nil || v == nil {
			continue // a bad type is reported where it is declared
		}
		if _, err := conform(v, t); err != nil {
			p.errorf(in.Content[i+1], "example %d: input field %s: %v (the entry declares %s: %s)", n, k.Value, err, k.Value, declared[j].Type)
			mistyped = true
		}
	}
	names := make([]string, len(declared))
	for i, f := range declared {
		names[i] = f.Name
	}
	undeclared := 0
	for i := 0; i+1 < len(in.Content); i += 2 {
		k := in.Content[i]
		if k.Kind != yaml.ScalarNode || slices.Contains(names, k.Value) {
			continue
		}
		undeclared++
		s := suggest(k.Value, names)
		if extra {
			continue
		}
		msg := fmt.Sprintf("example %d: input field '%s' is not declared", n, k.Value)
		if s != "" {
			msg += fmt.Sprintf(" (did you mean '%s'?)", s)
		} else {
			msg += " (declare it, or mark the example extra: true to show that it is ignored)"
		}
		p.errorf(k, "%s", msg)
	}
	if extra && undeclared == 0 {
		p.errorf(extraNode, "example %d: extra: true, but every input field is declared: remove it", n)
	}
	return mistyped
}

// limits reads an example's limits: any of preview, summary, log and
// output, each a positive integer; the others keep their defaults.
func (p *parser) limits(n *yaml.Node) Limits {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "limits must be a mapping of preview, summary, log and output to positive integers, got %s", describe(n))
		return Limits{}
	}
	var l Limits
	for name, v := range p.mapping(n, limitNames, "limits") {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
			p.errorf(v, "limits.%s must be a positive integer, got %s", name, describe(v))
			continue
		}
		x, err := strconv.Atoi(v.Value)
		if err != nil || x <= 0 || x > math.MaxInt32 {
			p.errorf(v, "limits.%s must be a positive integer, got %s", name, v.Value)
			continue
		}
		switch name {
		case "preview":
			l.Preview = x
		case "summary":
			l.Summary = x
		case "log":
			l.Log = x
		case "output":
			l.Output = x
		}
	}
	return l
}

// exampleValue reads a value of an example: its input, a part of its
// output, or the input of a call it expects. An alias expands to its
// anchor's whole value, so the values of one example together (left is
// what they may still hold) and of all the examples are bounded: a small
// file cannot expand into an enormous one.
func (p *parser) exampleValue(n *yaml.Node, left *int) any {
	budget := min(*left, *p.exampleNodes)
	start := budget
	v, err := yamlValue(n, &budget, 0)
	spent := start - max(budget, 0)
	*left -= spent
	*p.exampleNodes -= spent
	if err != nil {
		err.Pos.File = p.file
		switch {
		case *p.exampleNodes <= 0:
			err.Msg = fmt.Sprintf("example values are too large: more than %d values in all the examples", maxCatalogExampleNodes)
		case *left <= 0:
			err.Msg = fmt.Sprintf("the example is too large: more than %d values", maxExampleNodes)
		}
		p.errs.Add(err.Pos, "%s", err.Msg)
	}
	return v
}

// yamlValue converts a value of an example into the value model, as if it
// had arrived as JSON.
func yamlValue(n *yaml.Node, budget *int, depth int) (any, *Error) {
	fail := func(n *yaml.Node, format string, args ...any) (any, *Error) {
		return nil, &Error{Pos: Pos{Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)}
	}
	*budget--
	switch {
	case *budget < 0:
		return fail(n, "the example is too large")
	case depth > 100:
		return fail(n, "an example value nests more than 100 deep")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return yamlValue(n.Alias, budget, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], budget, depth+1)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		var keys []string
		var values []any
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
				return fail(k, "example input keys must be strings, got %s", describe(k))
			}
			v, err := yamlValue(n.Content[i+1], budget, depth+1)
			if err != nil {
				return nil, err
			}
			keys, values = append(keys, k.Value), append(values, v)
		}
		return value.ObjectOf(keys, values), nil
	}
	switch n.Tag {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return fail(n, "invalid boolean %q", n.Value)
		}
		return b, nil
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return fail(n, "invalid number %q", n.Value)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fail(n, "%s has no JSON form: tool input is JSON", n.Value)
		}
		// A literal JSON would accept too keeps its digits, as a call's
		// number does; YAML's own forms (0x1F, +1, .5) are converted.
		if v, err := value.DecodeJSON([]byte(n.Value)); err == nil {
			if num, ok := v.(value.Number); ok {
				return num, nil
			}
		}
		return value.NumberOf(f), nil
	}
	return n.Value, nil
}

// describe names a node's kind for a diagnostic.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!str":
		return fmt.Sprintf("string %q", n.Value)
	}
	return fmt.Sprintf("%s %s", strings.TrimPrefix(n.Tag, "!!"), n.Value)
}

// suggest returns the known word closest to word, if it is close enough to
// be a typo.
func suggest(word string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(word), k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// keyProblem says why key cannot name a formatter, or "" (see
// runtime.ValidateKey, the one key validation).
func keyProblem(key string) string {
	var ke *runtime.KeyError
	if errors.As(runtime.ValidateKey(key), &ke) {
		return ke.Reason
	}
	return ""
}
