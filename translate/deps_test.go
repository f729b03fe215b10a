package translate

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsFlowOneWay checks that translate imports only the layers below
// it (engine, catalog, syscat, internal), never wire, auth, conf or cmd.
func TestImportsFlowOneWay(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/icegate/icegate/"
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, mod) {
				continue
			}
			rest := strings.TrimPrefix(p, mod)
			if !strings.HasPrefix(rest, "engine") && !strings.HasPrefix(rest, "catalog") && rest != "syscat" && !strings.HasPrefix(rest, "internal/") {
				t.Errorf("%s imports %s: translate may import only engine, catalog, syscat and internal", f, p)
			}
		}
	}
}
