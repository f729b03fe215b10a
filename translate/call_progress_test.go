package translate

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestProcedureProgress runs a CALL in a session whose notices go out at
// once (StartupInfo.Notify, as wire sets it): each progress message
// reaches the client while the procedure runs, not with its result, and
// another session sees the call in pg_stat_progress_procedure at that
// moment, with its table and last message; once the call ends the view is
// empty again.
func TestProcedureProgress(t *testing.T) {
	w, _, _ := newWriteSession(t)
	mustRun(t, w, `CREATE TABLE pt (id int, g text)`)
	for i := 0; i < 6; i++ {
		mustRun(t, w, "INSERT INTO pt VALUES ("+strings.Repeat("1", i+1)+", 'x')")
	}
	watcher, err := w.backend.NewSession(context.Background(), StartupInfo{User: "watcher", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	var streamed, seen []string
	caller, err := w.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate",
		Notify: func(n Notice) {
			streamed = append(streamed, n.Message)
			seen = append(seen, queryRows(t, watcher.(*session),
				`SELECT procedure, table_name, relid = 'public.pt'::regclass, usename, phase FROM pg_stat_progress_procedure`)...)
		}})
	if err != nil {
		t.Fatal(err)
	}
	out := statementOutput(caller.(*session), `CALL system.rewrite_data_files(table => 'pt', options => map('min-input-files', '2'))`)
	if strings.HasPrefix(out, "error") {
		t.Fatal(out)
	}
	if len(streamed) == 0 {
		t.Fatalf("no notice went out while the procedure ran; its output:\n%s", out)
	}
	if strings.Contains(out, streamed[0]) {
		t.Errorf("notice %q was sent again with the result:\n%s", streamed[0], out)
	}
	want := "rewrite_data_files\tpublic.pt\ttrue\ttester\t" + streamed[0]
	if len(seen) == 0 || seen[0] != want {
		t.Errorf("pg_stat_progress_procedure during the call: %q, want first %q", seen, want)
	}
	if got := queryRows(t, watcher.(*session), `SELECT count(*) FROM pg_stat_progress_procedure`); !slices.Equal(got, []string{"0"}) {
		t.Errorf("pg_stat_progress_procedure after the call: %q", got)
	}
}
