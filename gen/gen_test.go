package gen

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/permgen/permgen/celfmt"
)

var update = flag.Bool("update", false, "rewrite golden files")

func goodCatalogs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "good", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// load checks a catalog whose positions name it file; the files it
// includes are read from dir.
func load(t testing.TB, file string, src []byte, dir string) *celfmt.Checked {
	t.Helper()
	checked, err := celfmt.LoadFiles(file, src, celfmt.DirFiles(dir), celfmt.Options{})
	require.NoError(t, err)
	return checked
}

// goldenDir is where the package generated from a good catalog is kept.
func goldenDir(catalog string) (dir, pkg string) {
	pkg = strings.TrimSuffix(filepath.Base(catalog), ".yaml")
	pkg = strings.NewReplacer("-", "", "_", "").Replace(pkg)
	return filepath.Join("..", "testdata", "gen", pkg), pkg
}

// TestGolden generates a package from every good catalog and compares it
// with the golden package under testdata/gen (-update rewrites them).
func TestGolden(t *testing.T) {
	for _, file := range goodCatalogs(t) {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		name := filepath.Base(file)
		dir, pkg := goldenDir(file)
		files, err := Generate(load(t, name, src, filepath.Dir(file)), Config{Package: pkg})
		require.NoError(t, err)
		for fname, got := range files {
			path := filepath.Join(dir, fname)
			if *update {
				require.NoError(t, os.MkdirAll(dir, 0o755))
				require.NoError(t, os.WriteFile(path, got, 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./gen -update")
			assert.Equal(t, string(want), string(got), path)
			assert.True(t, bytes.HasPrefix(got, []byte(Header+"\n")), "header first")
		}
	}
}

// TestGoldenPackagesBuild builds and vets the golden packages.
func TestGoldenPackagesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	var dirs []string
	for _, file := range goodCatalogs(t) {
		dir, _ := goldenDir(file)
		dirs = append(dirs, "./"+filepath.ToSlash(filepath.Join("testdata", "gen", filepath.Base(dir))))
	}
	for _, args := range [][]string{{"build"}, {"vet"}} {
		cmd := exec.Command("go", append(args, dirs...)...)
		cmd.Dir = ".."
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s: %s", args[0], out)
	}
}

// TestDeterministic generates each catalog many times, and once more from a
// copy whose keys are shuffled inside every formatter: the bytes are the same.
func TestDeterministic(t *testing.T) {
	for _, file := range goodCatalogs(t) {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		first, err := Generate(load(t, "c.yaml", src, filepath.Dir(file)), Config{Package: "p"})
		require.NoError(t, err)
		// Five generations find an order that depends on a map's; under
		// the race detector, which makes each slow and finds nothing in
		// the generator's one goroutine, one.
		repeats := 5
		if raceEnabled {
			repeats = 1
		}
		for range repeats {
			again, err := Generate(load(t, "c.yaml", src, filepath.Dir(file)), Config{Package: "p"})
			require.NoError(t, err)
			require.Equal(t, first, again)
		}
		// yaml.Marshal lays the file out anew, so compare two marshaled
		// copies: one in the original order, one shuffled.
		ordered := shuffleEntryKeys(t, src, nil)
		shuffled := shuffleEntryKeys(t, src, rand.New(rand.NewPCG(1, 2)))
		require.NotEqual(t, string(ordered), string(shuffled))
		want, err := Generate(load(t, "c.yaml", ordered, filepath.Dir(file)), Config{Package: "p"})
		require.NoError(t, err)
		got, err := Generate(load(t, "c.yaml", shuffled, filepath.Dir(file)), Config{Package: "p"})
		require.NoError(t, err)
		assert.Equal(t, want, got, "shuffled catalog:\n%s", shuffled)
	}
}

// shuffleEntryKeys reorders the keys of every formatter except the first
// (whose position names the entry), keeping the same lines per entry.
func shuffleEntryKeys(t *testing.T, src []byte, r *rand.Rand) []byte {
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal(src, &doc))
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "formatters" {
			continue
		}
		for _, entry := range root.Content[i+1].Content {
			pairs := len(entry.Content) / 2
			rest := make([][2]*yaml.Node, 0, pairs)
			for k := 1; k < pairs; k++ {
				rest = append(rest, [2]*yaml.Node{entry.Content[2*k], entry.Content[2*k+1]})
			}
			if r != nil {
				r.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
			}
			content := entry.Content[:2]
			for _, p := range rest {
				content = append(content, p[0], p[1])
			}
			entry.Content = content
		}
	}
	out, err := yaml.Marshal(&doc)
	require.NoError(t, err)
	return out
}

// TestGeneratedLinesAreShort: generated code is read in review, on screens
// and in diffs: no line of the golden packages or of the stock package is
// longer than 160 characters.
func TestGeneratedLinesAreShort(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "gen", "*", "*_gen.go"))
	require.NoError(t, err)
	files = append(files, filepath.Join("..", "generated", "formatters_gen.go"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		for i, line := range strings.Split(string(src), "\n") {
			if n := len([]rune(line)); n > 160 {
				t.Errorf("%s:%d: %d characters: %.80s…", file, i+1, n, line)
			}
		}
	}
}
