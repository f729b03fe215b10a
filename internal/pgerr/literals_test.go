package pgerr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// sqlstateShape is the shape of a SQLSTATE: five digits or upper-case
// letters.
var sqlstateShape = regexp.MustCompile(`^[0-9A-Z]{5}$`)

// literalAllowed lists non-test files, relative to the module root, that
// may hold strings equal to a SQLSTATE as data rather than as an error's
// code (a catalog table shown to users, say). Nothing needs it today: add
// a file here only when its literal is data, never to pass an error code.
var literalAllowed = map[string]bool{}

// literalExempt are the trees this check does not read: pgerr names the
// codes.
var literalExempt = []string{"internal/pgerr"}

// TestSQLStatesAreNamed keeps internal/pgerr the one place SQLSTATEs are
// spelled. In every non-test .go file of the module outside literalExempt
// (nested modules are theirs) it refuses a string literal of a SQLSTATE's shape that either
//   - equals the value of one of this package's constants (whatever the
//     context: a local constant, a comparison, a map), unless the file is
//     in literalAllowed, or
//   - is used as a code: the code argument of New or Wrap, the Code field
//     of a composite literal, compared with (or switched on against) an
//     expression named Code or code, whether or not pgerr names it yet.
func TestSQLStatesAreNamed(t *testing.T) {
	known := pgerrCodes(t)
	root := moduleRoot(t)
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			for _, ex := range literalExempt {
				if rel == ex {
					return filepath.SkipDir
				}
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
				return filepath.SkipDir // another module (bench/duckdbgo)
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, bad := range sqlstateLiterals(t, path, known, literalAllowed[rel]) {
			found = append(found, rel+":"+bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(found)
	for _, f := range found {
		t.Errorf("%s: name the SQLSTATE with internal/pgerr's constant (add it, named as in errcodes.txt, if missing)", f)
	}
}

// sqlstateLiterals returns "line: literal" for each literal SQLSTATE the
// file spells.
func sqlstateLiterals(t *testing.T, path string, known map[string]bool, dataFile bool) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	var out []string
	flagged := map[*ast.BasicLit]bool{}
	flag := func(e ast.Expr) {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING || flagged[lit] {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || !sqlstateShape.MatchString(s) {
			return
		}
		flagged[lit] = true
		out = append(out, strconv.Itoa(fset.Position(lit.Pos()).Line)+": "+lit.Value)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if !dataFile && n.Kind == token.STRING {
				if s, err := strconv.Unquote(n.Value); err == nil && known[s] {
					flag(n)
				}
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "pgerr" {
					switch {
					case sel.Sel.Name == "New" && len(n.Args) > 0:
						flag(n.Args[0])
					case sel.Sel.Name == "Wrap" && len(n.Args) > 1:
						flag(n.Args[1])
					}
				}
			}
		case *ast.KeyValueExpr:
			if isCodeExpr(n.Key) {
				flag(n.Value)
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if isCodeExpr(n.X) {
					flag(n.Y)
				}
				if isCodeExpr(n.Y) {
					flag(n.X)
				}
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && isCodeExpr(n.Tag) {
				for _, st := range n.Body.List {
					for _, e := range st.(*ast.CaseClause).List {
						flag(e)
					}
				}
			}
		}
		return true
	})
	return out
}

// isCodeExpr reports an expression that holds an error's code: x.Code,
// pgerr.Code(err), or a variable named code or sqlstate.
func isCodeExpr(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		n := strings.ToLower(e.Name)
		return n == "code" || n == "sqlstate"
	case *ast.SelectorExpr:
		return e.Sel.Name == "Code" || e.Sel.Name == "SQLState"
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			return sel.Sel.Name == "Code" || sel.Sel.Name == "SQLState"
		}
	}
	return false
}

// pgerrCodes reads the values of this package's string constants of a
// SQLSTATE's shape.
func pgerrCodes(t *testing.T) map[string]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "pgerr.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil && sqlstateShape.MatchString(s) {
						codes[s] = true
					}
				}
			}
		}
	}
	if len(codes) < 50 {
		t.Fatalf("read only %d SQLSTATE constants from pgerr.go", len(codes))
	}
	return codes
}

func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// TestSQLStateCheckFinds runs the check on a file that spells codes in
// each way it must catch, and on one that holds look-alike data.
func TestSQLStateCheckFinds(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.go")
	src := `package x

import "github.com/icegate/icegate/internal/pgerr"

const lost = "08006"

func f(err error, code string) error {
	if pgerr.Code(err) == "57014" {
		return pgerr.New("2201X", "new code not yet in pgerr")
	}
	switch code {
	case "ZZ999":
	}
	return &pgerr.Error{Code: "YY123", Message: "m"}
}
`
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	known := pgerrCodes(t)
	got := sqlstateLiterals(t, bad, known, false)
	want := []string{`5: "08006"`, `8: "57014"`, `9: "2201X"`, `12: "ZZ999"`, `14: "YY123"`}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("found %q, want %q", got, want)
	}
	// The same file allowed as data still may not pass a code to an error.
	if got := sqlstateLiterals(t, bad, known, true); len(got) != 4 {
		t.Errorf("data file: found %q, want the 4 codes used as codes", got)
	}
	data := filepath.Join(dir, "data.go")
	if err := os.WriteFile(data, []byte("package x\n\nvar settings = []string{\"10000\", \"86400\", \"UNION\", \"ARRAY\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := sqlstateLiterals(t, data, known, false); len(got) != 0 {
		t.Errorf("data: found %q", got)
	}
}
