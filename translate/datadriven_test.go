package translate

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata files")

// testCase is one case of a testdata file: a directive line (with
// arguments), the input up to "----", and the expected output up to a
// blank line.
type testCase struct {
	pos       string
	directive string
	args      []string
	input     string
	expected  string
}

// runDataDriven runs every case of path through run; with -rewrite it
// writes the actual outputs back into the file.
func runDataDriven(t *testing.T, path string, run func(t *testing.T, c *testCase) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []string
	i := 0
	for i < len(lines) {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			out = append(out, line)
			i++
			continue
		}
		c := &testCase{pos: fmt.Sprintf("%s:%d", filepath.Base(path), i+1)}
		fields := strings.Fields(trimmed)
		c.directive, c.args = fields[0], fields[1:]
		out = append(out, line)
		i++
		var input []string
		for i < len(lines) && lines[i] != "----" {
			input = append(input, lines[i])
			out = append(out, lines[i])
			i++
		}
		if i >= len(lines) {
			t.Fatalf("%s: missing ----", c.pos)
		}
		out = append(out, "----")
		i++
		var expected []string
		for i < len(lines) && lines[i] != "" {
			expected = append(expected, lines[i])
			i++
		}
		c.input = strings.Join(input, "\n")
		c.expected = strings.Join(expected, "\n")
		var actual string
		t.Run(c.pos, func(t *testing.T) {
			actual = strings.TrimRight(run(t, c), "\n")
			if !*rewrite && actual != c.expected {
				t.Errorf("%s: %s\n%s\nexpected:\n%s\nactual:\n%s", c.pos, c.directive, c.input, c.expected, actual)
			}
		})
		if actual != "" {
			out = append(out, strings.Split(actual, "\n")...)
		}
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixturesRoot is the fixture warehouse, testdata under the module root.
func fixturesRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found")
		}
		dir = parent
	}
	root := filepath.Join(dir, "testdata")
	if _, err := os.Stat(filepath.Join(root, "iceberg")); err != nil {
		t.Fatalf("fixtures not found at %s: %v", root, err)
	}
	return root
}
