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
	"catalog":             {"engine", "syscat", "translate", "wire", "auth", "conf", "cmd", "integration"},
	"engine":              {"syscat", "translate", "wire", "auth", "conf", "cmd", "integration"},
	"syscat":              {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "integration"},
	"translate":           {"wire", "auth", "cmd", "integration"},
	"wire":                {"engine", "catalog", "syscat", "cmd", "integration"},
	"auth":                {"engine", "catalog", "translate", "wire", "cmd", "integration"},
	"conf":                {"engine", "catalog", "translate", "wire", "cmd", "integration"},
	"internal/pgerr":      {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgtypes", "internal/pgtext"},
	"internal/pgtypes":    {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtext"},
	"internal/pgtext":     {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd"}, // pgerr allowed: input functions fail with PostgreSQL's errors
	"internal/fixtures":   {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtypes", "internal/pgnumeric", "internal/pgtext"},
	"internal/datadriven": {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtypes", "internal/pgnumeric", "internal/fixtures", "internal/pgtext"},
	"internal/needcgo":    {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtypes", "internal/pgnumeric", "internal/fixtures", "internal/pgtext"},
	"internal/pgnumeric":  {"engine", "catalog", "translate", "wire", "auth", "conf", "cmd", "internal/pgerr", "internal/pgtypes", "internal/pgtext"},
	"internal/audit":      {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd"},
	"internal/buildinfo":  {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd", "internal"},
	"internal/theta":      {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd", "internal"},
	// objstore knows object stores, not Iceberg: catalog builds on it.
	"roles":    {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd", "integration"},
	"objstore": {"engine", "catalog", "syscat", "translate", "wire", "auth", "conf", "cmd", "integration"},
}

// compiler lists, per package under translate/, the other translate
// packages it may import: the query compiler's stages depend one way,
// wire -> translate -> {bind, lower, opt, plan, parse, metatable, ...}.
// bind -> {plan, parse, metatable, hints, settings, sequence, enumtype};
// hints -> {parse, metatable};
// changelog -> {plan, metatable}; ddl -> {plan, parse}; lower -> {plan,
// metatable}; the definitions the binder finds through its Env, over its
// exported API: sysfunc -> {bind, plan, parse, regtype}, sparkfunc ->
// {bind, plan}, jsonfunc -> {bind, plan, regtype}, icebergfrom -> {bind,
// plan, parse, metatable, changelog, regtype}, regtype -> {bind, plan,
// parse} (the reg* casts; bind never imports it);
// opt -> plan; metatable -> plan (its columns' types are plan.Type);
// settings -> opt (optimizer_disabled_passes checks pass names); describe
// -> {plan, ddl}; explain (EXPLAIN's PostgreSQL formats) -> plan. The
// statements that run for the session over a small Env of theirs import
// the stages they need: seqexec (sequences), viewexec (views), indexexec
// (kept indexes), copyexec (COPY's options and conversion). parse,
// plan, sequence, enumtype, caterr (catalog errors as SQLSTATEs) and
// procedure (CALL's procedures: they use catalog, engine and internal, never
// the compiler's stages) are leaves. A package
// under translate/ never imports translate itself.
var compiler = map[string][]string{
	"translate/plan":      {},
	"translate/parse":     {},
	"translate/metatable": {"translate/plan"},
	"translate/opt":       {"translate/plan"},
	"translate/explain":   {"translate/plan"},
	"translate/lower":     {"translate/plan", "translate/metatable"},
	"translate/bind":      {"translate/plan", "translate/parse", "translate/metatable", "translate/hints", "translate/settings", "translate/sequence", "translate/enumtype"},
	"translate/hints":     {"translate/parse", "translate/metatable"},
	"translate/changelog": {"translate/plan", "translate/metatable"},
	"translate/ddl":       {"translate/plan", "translate/parse"},
	// The system catalog functions are definitions over the binder's
	// function API (bind.SysFuncDef, Binder.SysCall...): they import bind,
	// and the session hands them to the binder (bind.Env.SysFuncs).
	"translate/sysfunc":     {"translate/bind", "translate/plan", "translate/parse", "translate/regtype"},
	"translate/sparkfunc":   {"translate/bind", "translate/plan"},
	"translate/icebergfrom": {"translate/bind", "translate/plan", "translate/parse", "translate/metatable", "translate/changelog", "translate/regtype"},
	"translate/jsonfunc":    {"translate/bind", "translate/plan", "translate/regtype"},
	"translate/regtype":     {"translate/bind", "translate/plan", "translate/parse"},
	"translate/settings":    {"translate/opt"},
	"translate/sequence":    {},
	"translate/enumtype":    {},
	"translate/describe":    {"translate/plan", "translate/ddl"},
	"translate/procedure":   {},
	"translate/caterr":      {},
	// Sequences run for the session: statements, values, functions.
	// Views run for the session: CREATE / DROP VIEW, temporary views.
	"translate/viewexec": {"translate/bind", "translate/icebergfrom", "translate/ddl", "translate/parse", "translate/plan", "translate/caterr"},
	// Kept indexes and the index statements.
	"translate/indexexec": {"translate/ddl", "translate/parse", "translate/sequence", "translate/caterr"},
	// COPY's options, copied columns and text-row conversion.
	"translate/copyexec": {"translate/bind", "translate/ddl", "translate/parse"},
	"translate/seqexec":  {"translate/bind", "translate/sysfunc", "translate/parse", "translate/plan", "translate/regtype", "translate/sequence", "translate/caterr"},
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
			if err := compilerEdge(rel, drel); err != "" {
				t.Error(err)
			}
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

// compilerEdge checks an import between translate's packages against the
// compiler table; "" when allowed.
func compilerEdge(from, to string) string {
	if !strings.HasPrefix(from, "translate/") || (to != "translate" && !strings.HasPrefix(to, "translate/")) {
		return ""
	}
	allowed, ok := compiler[from]
	if !ok {
		return from + " is a package under translate/ missing from the compiler table in this test: add it with the translate packages it may import"
	}
	for _, a := range allowed {
		if to == a {
			return ""
		}
	}
	return from + " imports " + to + ": the compiler's stages import one way (see the compiler table)"
}

func TestCompilerEdges(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"translate/bind", "translate/plan", true},
		{"translate/opt", "translate/plan", true},
		{"translate/plan", "translate/opt", false},
		{"translate/plan", "translate", false},
		{"translate/lower", "translate/bind", false},
		{"translate/unlisted", "translate/plan", false},
		{"translate", "translate/bind", true},
		{"wire", "translate", true},
	} {
		if got := compilerEdge(c.from, c.to) == ""; got != c.ok {
			t.Errorf("%s -> %s: allowed %v, want %v", c.from, c.to, got, c.ok)
		}
	}
}
