package translate

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata files")

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
