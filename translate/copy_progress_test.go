package translate

import (
	"context"
	"slices"
	"testing"
)

// TestCopyToProgress: a COPY TO is in pg_stat_progress_copy from its
// Execute to its Close, with the rows its batches carried and the bytes
// wire reported sent.
func TestCopyToProgress(t *testing.T) {
	s, _, _ := newWriteSession(t)
	mustRun(t, s, `CREATE TABLE ct (id int)`, `INSERT INTO ct VALUES (1), (2), (3)`)
	watcher, err := s.backend.NewSession(context.Background(), StartupInfo{User: "watcher", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	const q = `SELECT relid = 'public.ct'::regclass, command, type, tuples_processed, bytes_processed FROM pg_stat_progress_copy`
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, `COPY ct TO STDOUT`, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := queryRows(t, watcher.(*session), q); !slices.Equal(got, []string{"true\tCOPY TO\tPIPE\t0\t0"}) {
		t.Errorf("before the first batch: %q", got)
	}
	var n int64
	for {
		b, err := rows.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		n += b.NumRows()
	}
	rows.(CopyBytesSink).CopyBytesSent(6)
	if got := queryRows(t, watcher.(*session), q); n != 3 || !slices.Equal(got, []string{"true\tCOPY TO\tPIPE\t3\t6"}) {
		t.Errorf("after the rows (%d): %q", n, got)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if got := queryRows(t, watcher.(*session), `SELECT count(*) FROM pg_stat_progress_copy`); !slices.Equal(got, []string{"0"}) {
		t.Errorf("after Close: %q", got)
	}
}
