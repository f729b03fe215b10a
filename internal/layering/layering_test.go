package layering

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/icegate/icegate/"

// forbidden lists, per package (and its subpackages), the icegate packages
// it must not import directly. Checking every direct import keeps each edge
// of the graph pointing down the layers, so no path can climb them either.
var forbidden = map[string][]string{
	"catalog":            {"engine", "syscat", "translate", "wire", "auth", "conf", "cmd", "integration"},
	"engine":             {"syscat", "translate", "wire", "auth", "conf", "cmd", "integration"},
	"syscat":             {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "integration"},
	"translate":          {"wire", "auth", "cmd", "integration"},
	"wire":               {"engine", "catalog", "syscat", "cmd", "integration"},
	"auth":               {"engine", "catalog", "translate", "wire", "cmd", "integration"},
	"conf":               {"engine", "catalog", "translate", "wire", "cmd", "integration"},
	"internal/pgerr":     {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgtypes"},
	"internal/pgtypes":   {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr"},
	"internal/fixtures":  {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtypes", "internal/pgnumeric"},
	"internal/needcgo":   {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtypes", "internal/pgnumeric", "internal/fixtures"},
	"internal/pgnumeric": {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtypes"},
	"internal/pgtext":    {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd"}, // pgerr allowed: input functions fail with PostgreSQL's errors
}

type listed struct {
	ImportPath string
	Imports    []string
}

func TestImportsFlowOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		rel := strings.TrimPrefix(p.ImportPath, module)
		bans := bansFor(rel)
		if bans == nil {
			continue
		}
		seen++
		for _, dep := range p.Imports {
			if !strings.HasPrefix(dep, module) {
				continue
			}
			drel := strings.TrimPrefix(dep, module)
			for _, ban := range bans {
				if drel == ban || strings.HasPrefix(drel, ban+"/") {
					t.Errorf("%s imports %s: the layers flow cmd -> wire/auth/conf -> translate -> engine -> catalog", rel, drel)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("go list reported none of the layered packages")
	}
}

// bansFor returns the bans of the package or of its nearest listed parent.
func bansFor(rel string) []string {
	for p := rel; p != "" && p != "."; {
		if b, ok := forbidden[p]; ok {
			return b
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return nil
}
