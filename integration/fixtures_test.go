package integration

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// knownUnsupported lists the fixtures icegate cannot read yet, with the
// reason. Each must fail with SQLSTATE 0A000 (feature not supported); one
// that starts working fails the test until it is removed from this list, so
// the list stays honest.
var knownUnsupported = map[string]string{}

// TestFixtures opens every fixture table through the server and checks its
// row count, the rows of SELECT * against the count, and the rows against
// the answers of the current snapshot.
func TestFixtures(t *testing.T) {
	warehouse := fixtures.Warehouse(t)
	fixtures := loadFixtures(t, warehouse)
	addr := startServer(t, warehouse, serverOpts{})
	c := &reconnecting{t: t, addr: addr}

	seen := map[string]bool{}
	for _, fx := range fixtures {
		seen[fx.Folder] = true
		t.Run(fx.Folder, func(t *testing.T) {
			checkFixture(t, c.get(), filepath.Join(warehouse, "iceberg"), fx)
		})
	}
	for folder := range knownUnsupported {
		if !seen[folder] {
			t.Errorf("knownUnsupported names %s, which is not in tables.json", folder)
		}
	}
}

// reconnecting hands out a live connection, opening a new one when a
// fixture's failure closed the last.
type reconnecting struct {
	t    *testing.T
	addr string
	conn *pgx.Conn
}

func (r *reconnecting) get() *pgx.Conn {
	if r.conn == nil || r.conn.IsClosed() {
		r.conn = connect(r.t, r.addr)
	}
	return r.conn
}

func checkFixture(t *testing.T, conn *pgx.Conn, fixturesDir string, fx fixture) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	name := fx.sqlName()

	var count int64
	countErr := conn.QueryRow(ctx, "SELECT count(*) FROM "+name, pgx.QueryExecModeSimpleProtocol).Scan(&count)
	res, selectErr := queryText(ctx, conn, "SELECT * FROM "+name)

	if reason, ok := knownUnsupported[fx.Folder]; ok {
		err := errors.Join(countErr, selectErr)
		switch {
		case err == nil:
			t.Errorf("%s now reads (%d rows): remove it from knownUnsupported (%s)", fx.Folder, len(res.rows), reason)
		case sqlState(countErr, selectErr) != pgerr.FeatureNotSupported:
			t.Errorf("known unsupported (%s): want SQLSTATE 0A000, got %v", reason, err)
		default:
			t.Logf("unsupported as expected (%s): %v", reason, err)
		}
		return
	}
	if countErr != nil {
		t.Fatalf("SELECT count(*) FROM %s: %v", name, describe(countErr))
	}
	if selectErr != nil {
		t.Fatalf("SELECT * FROM %s: %v", name, describe(selectErr))
	}
	if fx.ExpectedRows != nil {
		if count != *fx.ExpectedRows {
			t.Errorf("count(*) = %d, want %d (%s)", count, *fx.ExpectedRows, deref(fx.ExpectedRowsBasis))
		}
	} else {
		t.Logf("tables.json has no expected row count; checking count(*) = %d against SELECT * only", count)
	}
	if int64(len(res.rows)) != count {
		t.Errorf("SELECT * returned %d rows, count(*) says %d", len(res.rows), count)
	}

	for _, rel := range fx.Answers {
		for _, b := range readAnswers(t, fixturesDir, fx, rel) {
			if b.skip != "" {
				t.Logf("answers %s: skipped block %q (%s)", b.file, b.title, b.skip)
				continue
			}
			if b.isCount {
				if count != b.count {
					t.Errorf("answers %s, block %q: count(*) = %d, want %d", b.file, b.title, count, b.count)
				}
				continue
			}
			compareRows(t, b, res)
		}
	}
}

// textResult is a result read in text format: the columns' type OIDs and
// names, and each value as the server sent it (nullValue for NULL).
type textResult struct {
	names []string
	oids  []uint32
	rows  [][]string
}

// queryText runs sql over the simple protocol, so every value comes back in
// PostgreSQL's text form.
func queryText(ctx context.Context, conn *pgx.Conn, sql string) (textResult, error) {
	var res textResult
	rows, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return res, err
	}
	defer rows.Close()
	for _, fd := range rows.FieldDescriptions() {
		res.names = append(res.names, fd.Name)
		res.oids = append(res.oids, fd.DataTypeOID)
	}
	for rows.Next() {
		raw := rows.RawValues()
		vals := make([]string, len(raw))
		for i, v := range raw {
			if v == nil {
				vals[i] = nullValue
			} else {
				vals[i] = string(v)
			}
		}
		res.rows = append(res.rows, vals)
	}
	return res, rows.Err()
}

// compareRows compares an answers block with the server's rows as
// multisets of canonical values.
func compareRows(t *testing.T, b answerBlock, res textResult) {
	t.Helper()
	where := fmt.Sprintf("answers %s, block %q", b.file, b.title)
	// order[i] is the expected row's index of the server's column i.
	order := make([]int, len(res.oids))
	for i := range order {
		order[i] = i
	}
	if b.header != nil {
		pos := map[string]int{}
		for i, h := range b.header {
			pos[strings.ToLower(h)] = i
		}
		if len(b.header) != len(res.names) {
			t.Errorf("%s: %d columns %v, server returned %d %v", where, len(b.header), b.header, len(res.names), res.names)
			return
		}
		for i, n := range res.names {
			j, ok := pos[strings.ToLower(n)]
			if !ok {
				t.Errorf("%s: server column %q is not in the answer's header %v", where, n, b.header)
				return
			}
			order[i] = j
		}
	}
	var skipped []string
	for i, oid := range res.oids {
		if !comparable(oid) {
			skipped = append(skipped, res.names[i])
		}
	}
	if len(skipped) > 0 {
		t.Logf("%s: nested columns %v not compared by value", where, skipped)
	}

	canonRow := func(vals []string, expected bool) string {
		var sb strings.Builder
		for i, oid := range res.oids {
			if !comparable(oid) {
				continue
			}
			v := vals[i]
			if expected {
				v = vals[order[i]]
			}
			switch {
			case v == nullValue:
			case expected && b.format == formatDuckDB && oid == oidBytea:
				v = canon(oid, duckdbBlob(v))
			default:
				v = canon(oid, v)
			}
			sb.WriteString(v)
			sb.WriteString(" | ")
		}
		return sb.String()
	}

	want := map[string]int{}
	for _, row := range b.rows {
		if b.dropLast {
			row = row[:len(row)-1]
		}
		if b.header == nil && len(row) != len(res.oids) {
			t.Errorf("%s: expected row has %d values, server returned %d columns %v", where, len(row), len(res.oids), res.names)
			return
		}
		want[canonRow(row, true)]++
	}
	got := map[string]int{}
	for _, row := range res.rows {
		got[canonRow(row, false)]++
	}
	var missing, extra []string
	for k, n := range want {
		if d := n - got[k]; d > 0 {
			missing = append(missing, fmt.Sprintf("%dx %s", d, k))
		}
	}
	for k, n := range got {
		if d := n - want[k]; d > 0 {
			extra = append(extra, fmt.Sprintf("%dx %s", d, k))
		}
	}
	if len(missing)+len(extra) > 0 {
		sort.Strings(missing)
		sort.Strings(extra)
		t.Errorf("%s: rows differ (columns %v)\nmissing from the server's result:\n  %s\nunexpected in the server's result:\n  %s",
			where, res.names, strings.Join(head(missing, 5), "\n  "), strings.Join(head(extra, 5), "\n  "))
		return
	}
	t.Logf("%s: all %d rows match", where, len(b.rows))
}

func head(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("... %d more", len(s)-n))
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// sqlState is the SQLSTATE of the first non-nil error, "" when none came
// from the server.
func sqlState(errs ...error) string {
	for _, err := range errs {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return pe.Code
		}
		if err != nil {
			return ""
		}
	}
	return ""
}

// describe adds the SQLSTATE to a server error's message.
func describe(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s (SQLSTATE %s)", pe.Message, pe.Code)
	}
	return err.Error()
}
