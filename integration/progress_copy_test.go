package integration

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestProgressCopy: while a COPY FROM STDIN waits for more of its stream,
// another session sees it in pg_stat_progress_copy with its table, its
// command and the bytes received; a COPY TO is listed likewise while its
// rows are sent; once each ends the view is empty.
func TestProgressCopy(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	a, watcher := connect(t, addr), connect(t, addr)
	ctx := testCtx(t)
	if _, err := a.Exec(ctx, `CREATE TABLE pc (id int, s text)`); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := a.PgConn().CopyFrom(ctx, pr, `COPY pc FROM STDIN`)
		done <- err
	}()
	first := "1\tone\n2\ttwo\n3\tthree\n"
	if _, err := pw.Write([]byte(first)); err != nil {
		t.Fatal(err)
	}
	const q = `SELECT pid, relid = 'public.pc'::regclass, command, type, bytes_processed, bytes_total, tuples_excluded FROM pg_stat_progress_copy`
	want := fmt.Sprintf("%d true COPY FROM PIPE %d 0 0", a.PgConn().PID(), len(first))
	var got string
	for {
		rows, err := watcher.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for rows.Next() {
			var pid int32
			var rel bool
			var cmd, typ string
			var bytes, total, excluded int64
			if err := rows.Scan(&pid, &rel, &cmd, &typ, &bytes, &total, &excluded); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("%d %v %s %s %d %d %d", pid, rel, cmd, typ, bytes, total, excluded))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		got = strings.Join(lines, "\n")
		if got == want {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("pg_stat_progress_copy during the COPY: %q, want %q", got, want)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if _, err := pw.Write([]byte("4\tfour\n")); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatalf("COPY: %v", err)
	}
	if n := adminOne[int64](t, watcher, `SELECT count(*) FROM pg_stat_progress_copy`); n != 0 {
		t.Errorf("pg_stat_progress_copy lists %d COPYs after the COPY ended", n)
	}

	// COPY TO leaves the view when it ends too.
	var buf strings.Builder
	if _, err := a.PgConn().CopyTo(ctx, &buf, `COPY pc TO STDOUT`); err != nil {
		t.Fatal(err)
	}
	if buf.String() != first+"4\tfour\n" {
		t.Errorf("COPY TO sent %q", buf.String())
	}
	if n := adminOne[int64](t, watcher, `SELECT count(*) FROM pg_stat_progress_copy`); n != 0 {
		t.Errorf("pg_stat_progress_copy lists %d COPYs after COPY TO ended", n)
	}
}
