package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestBIReplay replays the catalog queries that BI tools and drivers send
// when they connect and list schemas, tables and columns:
// testdata/bi-introspection.sql (a copy of the project's shared client
// captures) and testdata/bi-introspection-extra.sql (format:
// readReplayFile). Every entry runs on a fresh
// connection to icegate and to the reference PostgreSQL, both holding the
// introspection dataset (introspect_dataset_test.go); entries marked
// modes=simple go as one simple-protocol Query, the others through the
// extended protocol as drivers send them (unnamed Parse, Bind, Describe
// portal, Execute, Sync). An entry passes when it succeeds on both, every
// statement's columns have PostgreSQL's names and type classes
// (pgTypeDict.class), and icegate returns rows exactly when PostgreSQL
// does. Contents are not compared: OIDs, owners and catalog sizes
// legitimately differ.
//
// The entries name the database 'icegate', the catalog icegate serves
// here; on PostgreSQL that literal becomes the reference database's name.
func TestBIReplay(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to replay client introspection against it; .ci/run does")
	}
	files := []string{
		filepath.Join("testdata", "bi-introspection.sql"),
		filepath.Join("testdata", "bi-introspection-extra.sql"),
	}
	var entries []replayEntry
	ids := map[string]string{}
	for _, f := range files {
		es, err := readReplayFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) == 0 {
			t.Fatalf("%s: no entries", f)
		}
		for _, e := range es {
			if where, dup := ids[e.id]; dup {
				t.Fatalf("%s:%d: entry id %s is also at %s", e.file, e.line, e.id, where)
			}
			ids[e.id] = fmt.Sprintf("%s:%d", e.file, e.line)
		}
		entries = append(entries, es...)
	}

	pg := connectPostgres(t, pgURL)
	dict, err := loadTypeDict(testCtx(t), pg)
	if err != nil {
		t.Fatal(err)
	}
	var pgDB string
	if err := pg.QueryRow(testCtx(t), "SELECT current_database()").Scan(&pgDB); err != nil {
		t.Fatal(err)
	}
	setupIntrospection(t, pg, "PostgreSQL", introspectSetupPostgres)
	addr := startServer(t, t.TempDir(), serverOpts{})
	setupIntrospection(t, connect(t, addr), "icegate", introspectSetupIcegate)

	var failed []string
	for _, e := range entries {
		var first string
		known, isKnown := knownReplay[e.id]
		t.Run(e.id, func(t *testing.T) {
			fatalf, errorf := t.Fatalf, t.Errorf
			if isKnown {
				// A known difference is reported, and must still be one.
				fatalf = func(f string, a ...any) { t.Logf("known ("+known+"): "+f, a...); t.SkipNow() }
				errorf = func(f string, a ...any) { t.Logf("known ("+known+"): "+f, a...) }
			}
			pgSQL := e.sql
			if pgDB != "icegate" {
				pgSQL = strings.ReplaceAll(pgSQL, "'icegate'", "'"+strings.ReplaceAll(pgDB, "'", "''")+"'")
			}
			ctx := testCtx(t)
			want, err := runReplay(ctx, connectPostgres(t, pgURL).PgConn(), pgSQL, e.simple)
			if err != nil {
				first = "PostgreSQL fails: the entry is wrong: " + replayErrText(pgSQL, err)
				fatalf("%s:%d: %s", e.file, e.line, first)
			}
			got, err := runReplay(ctx, connect(t, addr).PgConn(), e.sql, e.simple)
			if err != nil {
				first = "icegate fails: " + replayErrText(e.sql, err)
				fatalf("%s:%d: %s", e.file, e.line, first)
			}
			problems, notes := compareReplay(dict, got, want)
			for _, n := range notes {
				t.Logf("note (same class, not a failure): %s", n)
			}
			for _, p := range problems {
				errorf("%s:%d: %s", e.file, e.line, p)
			}
			if len(problems) > 0 {
				first = problems[0]
			}
		})
		switch {
		case isKnown && first == "":
			t.Errorf("%s passes now: remove it from knownReplay (%s)", e.id, known)
		case isKnown:
		case first != "":
			failed = append(failed, e.id+": "+firstLine(first))
		}
	}
	t.Logf("%d of %d entries pass", len(entries)-len(failed), len(entries))
	if len(failed) > 0 {
		t.Logf("failing entries:\n  %s", strings.Join(failed, "\n  "))
	}
}

// knownReplay lists the entries whose difference from PostgreSQL is known
// and deliberate, with the reason. They are run and reported; one that
// starts to match fails the test until it is removed here.
var knownReplay = map[string]string{
	"psql_dx": "icegate has no extensions; PostgreSQL lists plpgsql",
}

// replayResult is what one statement of an entry returned.
type replayResult struct {
	names []string
	oids  []uint32
	rows  int
	tag   string
}

// runReplay sends sql as one simple-protocol Query (simple) or through the
// extended protocol with no parameters and text results, and returns each
// statement's result.
func runReplay(ctx context.Context, conn *pgconn.PgConn, sql string, simple bool) ([]replayResult, error) {
	var results []*pgconn.Result
	if simple {
		rs, err := conn.Exec(ctx, sql).ReadAll()
		if err != nil {
			return nil, err
		}
		results = rs
	} else {
		r := conn.ExecParams(ctx, sql, nil, nil, nil, nil).Read()
		if r.Err != nil {
			return nil, r.Err
		}
		results = []*pgconn.Result{r}
	}
	out := make([]replayResult, len(results))
	for i, r := range results {
		if r.Err != nil {
			return nil, r.Err
		}
		for _, fd := range r.FieldDescriptions {
			out[i].names = append(out[i].names, fd.Name)
			out[i].oids = append(out[i].oids, fd.DataTypeOID)
		}
		out[i].rows = len(r.Rows)
		out[i].tag = r.CommandTag.String()
	}
	return out, nil
}

// compareReplay checks icegate's results against PostgreSQL's: the same
// statements, column names, type classes, and rows present iff PostgreSQL
// has rows. Columns of the same class but another type are notes.
func compareReplay(dict pgTypeDict, got, want []replayResult) (problems, notes []string) {
	if len(got) != len(want) {
		return []string{fmt.Sprintf("%d results, PostgreSQL returns %d", len(got), len(want))}, nil
	}
	for i := range want {
		g, w := got[i], want[i]
		stmt := ""
		if len(want) > 1 {
			stmt = fmt.Sprintf("statement %d (%s): ", i+1, w.tag)
		}
		if !slices.Equal(g.names, w.names) {
			problems = append(problems, fmt.Sprintf("%scolumn names differ:\n  icegate:    %q\n  PostgreSQL: %q", stmt, g.names, w.names))
		}
		for j := range min(len(g.oids), len(w.oids)) {
			name := w.names[j]
			gc, wc := dict.class(g.oids[j]), dict.class(w.oids[j])
			switch {
			case gc != wc:
				problems = append(problems, fmt.Sprintf("%scolumn %d %q: type %s (class %s), PostgreSQL %s (class %s)",
					stmt, j+1, name, dict.name(g.oids[j]), gc, dict.name(w.oids[j]), wc))
			case dict.baseType(g.oids[j]) != dict.baseType(w.oids[j]):
				notes = append(notes, fmt.Sprintf("%scolumn %d %q: type %s, PostgreSQL %s",
					stmt, j+1, name, dict.name(g.oids[j]), dict.name(w.oids[j])))
			}
		}
		if (g.rows > 0) != (w.rows > 0) {
			problems = append(problems, fmt.Sprintf("%s%d rows, PostgreSQL returns %d", stmt, g.rows, w.rows))
		}
	}
	return problems, notes
}

// replayErrText shows an error with its SQLSTATE and, when the server
// gave a position, the fragment of the statement it points at.
func replayErrText(sql string, err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	s := fmt.Sprintf("%s %s", pe.Code, pe.Message)
	if pe.Position > 0 {
		r := []rune(sql)
		from := int(pe.Position) - 1
		if from < len(r) {
			to := min(from+60, len(r))
			s += fmt.Sprintf(" (at %q)", strings.Join(strings.Fields(string(r[from:to])), " "))
		}
	}
	return s
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
