// Package datadriven reads the testdata files of icegate's data-driven
// tests (translate's exec and bind goldens, bind's and opt's cases) and
// writes them back with -rewrite. Only tests import it.
//
// A file holds cases of the form
//
//	directive [arg ...]
//	input lines
//	----
//	expected output (up to a blank line)
//
// with lines starting with # between cases as comments.
package datadriven

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Case is one case of a file.
type Case struct {
	Pos       string // file:line of the directive
	Directive string
	Args      []string
	Input     string
	Expected  string
}

// Arg is the value of name=value among the case's arguments.
func (c *Case) Arg(name string) (string, bool) {
	for _, a := range c.Args {
		if k, v, ok := strings.Cut(a, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// Run runs the cases of path in order through run, each as a subtest,
// comparing what run returns with the expected output; with rewrite it
// writes the actual outputs back into the file instead.
func Run(t *testing.T, path string, rewrite bool, run func(t *testing.T, c *Case) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []string
	for i := 0; i < len(lines); {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			out = append(out, line)
			i++
			continue
		}
		c := &Case{Pos: fmt.Sprintf("%s:%d", filepath.Base(path), i+1)}
		fields := strings.Fields(trimmed)
		c.Directive, c.Args = fields[0], fields[1:]
		out = append(out, line)
		i++
		var input []string
		for i < len(lines) && lines[i] != "----" {
			input = append(input, lines[i])
			out = append(out, lines[i])
			i++
		}
		if i >= len(lines) {
			t.Fatalf("%s: missing ----", c.Pos)
		}
		out = append(out, "----")
		i++
		var expected []string
		for i < len(lines) && lines[i] != "" {
			expected = append(expected, lines[i])
			i++
		}
		c.Input = strings.Join(input, "\n")
		c.Expected = strings.Join(expected, "\n")
		var actual string
		t.Run(c.Pos, func(t *testing.T) {
			actual = strings.TrimRight(run(t, c), "\n")
			if !rewrite && actual != c.Expected {
				t.Errorf("%s: %s\n%s\nexpected:\n%s\nactual:\n%s", c.Pos, strings.Join(fields, " "), c.Input, c.Expected, actual)
			}
		})
		if actual != "" {
			out = append(out, strings.Split(actual, "\n")...)
		}
	}
	if rewrite {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
