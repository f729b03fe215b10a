package wire

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate"
)

// TestReportedParamsAfterStatements runs statements on the real backend
// and checks the ParameterStatus values the client holds after each: a
// connection skips building the reported settings when nothing changed
// (reportedUnchanged), and must still send every change.
func TestReportedParamsAfterStatements(t *testing.T) {
	cat, err := catalog.NewFilesystem("icegate", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Backend: translate.NewBackend(cat, translate.Options{Logger: quietLogger()})})
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ts.url("icegate", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	steps := []struct {
		sql         string
		name, value string
	}{
		{"SELECT 1", "TimeZone", "UTC"},
		{"SET TimeZone = 'Europe/Paris'", "TimeZone", "Europe/Paris"},
		{"SELECT 1", "TimeZone", "Europe/Paris"},
		{"SET application_name = 'reports'", "application_name", "reports"},
		{"SELECT 2", "TimeZone", "Europe/Paris"},
		{"BEGIN", "application_name", "reports"},
		{"SET LOCAL application_name = 'inner'", "application_name", "inner"},
		{"COMMIT", "application_name", "reports"},
		{"RESET TimeZone", "TimeZone", "UTC"},
		{"SET DateStyle = 'German'", "DateStyle", "German, DMY"},
		{"RESET ALL", "DateStyle", "ISO, MDY"},
	}
	for i, s := range steps {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
			if _, err := conn.Exec(ctx, s.sql, mode); err != nil {
				t.Fatalf("step %d: %s: %v", i, s.sql, err)
			}
			if got := conn.PgConn().ParameterStatus(s.name); got != s.value {
				t.Errorf("step %d (%s, mode %v): %s = %q, want %q", i, s.sql, mode, s.name, got, s.value)
			}
			if s.sql == "BEGIN" || s.sql == "COMMIT" || s.sql == "SET LOCAL application_name = 'inner'" {
				break // once: the block's statements do not repeat
			}
		}
	}
}
