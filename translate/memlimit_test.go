package translate

import (
	"context"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/settings"
)

// TestStatementMemBound: the server's max_statement_mem bounds what a
// session sets statement_mem to. Above it SET fails with 22023; 0 and
// negative values (no limit of the session's own) mean the bound; the
// default and RESET never exceed it; a startup parameter above it refuses
// the connection.
func TestStatementMemBound(t *testing.T) {
	cat, err := catalog.NewFilesystem("icegate", fixturesRoot(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	be := NewBackend(cat, Options{MaxStatementMem: 64 << 20})
	ss, err := be.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	s := ss.(*session)
	show := func() string { v, _ := s.settings.Get(settings.StatementMemName); return v }
	if got, lim := show(), s.settings.StatementMem(); got != "64MB" || lim != 64<<20 {
		t.Errorf("default: SHOW %s, limit %d; want 64MB (the bound, below 4GB)", got, lim)
	}
	for _, tc := range []struct {
		set   string
		code  string
		limit int64
	}{
		{set: "'32MB'", limit: 32 << 20},
		{set: "'64MB'", limit: 64 << 20},
		{set: "'65MB'", code: pgerr.InvalidParameterValue},
		{set: "'1TB'", code: pgerr.InvalidParameterValue},
		{set: "0", limit: 64 << 20},
		{set: "-1", limit: 64 << 20},
		{set: "'16MB'", limit: 16 << 20},
	} {
		_, err := execAll(s, "SET statement_mem = "+tc.set)
		if pgerr.Code(err) != tc.code && !(tc.code == "" && err == nil) {
			t.Errorf("SET statement_mem = %s: %v; want %q", tc.set, err, tc.code)
			continue
		}
		if tc.code != "" {
			continue
		}
		if got := s.settings.StatementMem(); got != tc.limit {
			t.Errorf("SET statement_mem = %s: limit %d, want %d", tc.set, got, tc.limit)
		}
	}
	if out := queryOutput(t, s, &datadriven.Case{Input: "SELECT set_config('statement_mem', '1GB', false)"}); !strings.Contains(out, "error ("+pgerr.InvalidParameterValue+")") {
		t.Errorf("set_config above the bound: %s; want 22023", out)
	}
	if _, err := execAll(s, "RESET statement_mem"); err != nil {
		t.Fatal(err)
	}
	if got := show(); got != "64MB" {
		t.Errorf("after RESET: %s, want 64MB", got)
	}
	if _, err := execAll(s, "RESET ALL"); err != nil {
		t.Fatal(err)
	}
	if got := show(); got != "64MB" {
		t.Errorf("after RESET ALL: %s, want 64MB", got)
	}
	_, err = be.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate",
		Params: map[string]string{"statement_mem": "1GB"}})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InvalidParameterValue || pe.Severity != "FATAL" {
		t.Errorf("startup statement_mem above the bound: %v; want FATAL 22023", err)
	}
	if d := settings.DefaultMaxStatementMem(); d < 64<<20 || d%(1<<20) != 0 {
		t.Errorf("DefaultMaxStatementMem() = %d: want at least 64MB, whole megabytes", d)
	}
}
