package needcgo

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestBuildWithoutCgoSaysWhy builds this package with CGO_ENABLED=0 (what
// Go does by itself when no C compiler is on PATH) and checks the error
// names the need, and that the server's build goes through this package.
func TestBuildWithoutCgoSaysWhy(t *testing.T) {
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("build without cgo succeeded:\n%s", out)
	}
	for _, want := range []string{"icegate requires cgo and a C compiler (gcc)", "pg_query_go", "CGO_ENABLED=1"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("build without cgo printed no %q:\n%s", want, out)
		}
	}

	deps, err := exec.Command("go", "list", "-deps", "github.com/icegate/icegate/cmd/icegate").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var sawSelf, sawParser bool
	for _, p := range strings.Fields(string(deps)) {
		switch {
		case p == "github.com/icegate/icegate/internal/needcgo":
			sawSelf = true
		case strings.HasPrefix(p, "github.com/pganalyze/pg_query_go"):
			sawParser = true
		}
	}
	if sawParser && !sawSelf {
		t.Error("cmd/icegate needs pg_query_go but not internal/needcgo: a build without cgo would fail with undefined: pg.Parse")
	}
}
