package integration

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestDMLDifferential runs the scenarios of testdata/dml against a real
// PostgreSQL server and against icegate in five configurations (format v2
// and v3, every write.<op>.mode copy-on-write or merge-on-read; and
// merge-on-read on v3 without rewrites) and wants
// the same outcome of every statement: command tag, RETURNING columns and
// rows (a multiset) or, when both fail, the same SQLSTATE; and after every
// statement the same content of every table of the scenario.
//
// PostgreSQL runs each scenario once and its outcomes are the reference;
// then each configuration replays every scenario on its own icegate
// server. A step PostgreSQL 15 cannot run (MERGE's WHEN NOT MATCHED BY
// SOURCE, RETURNING and merge_action(), which came in PostgreSQL 17;
// Spark's UPDATE SET * and INSERT *) carries "-- pg15:" statements that
// bring the reference tables to the state PostgreSQL 17 leaves, and
// "-- want" lines with the outcome PostgreSQL 17's documentation gives,
// written by hand. The corpus format is in testdata/dml/README.md.
//
// When a table's content differs after a step, the difference is reported
// and, outside a transaction block, the icegate table is rebuilt with the
// reference rows, so that later steps are still compared.
func TestDMLDifferential(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare DML outcomes; .ci/run does")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "dml", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in testdata/dml (%v)", err)
	}
	var scenarios []dmlScenario
	for _, f := range files {
		sc, err := readDMLCorpus(f)
		if err != nil {
			t.Fatal(err)
		}
		scenarios = append(scenarios, sc...)
	}
	pg := connectPostgres(t, pgURL)
	refs := make([]dmlReference, len(scenarios))
	steps := 0
	for i, sc := range scenarios {
		refs[i] = recordDMLReference(t, pg, sc)
		steps += len(sc.steps)
	}
	t.Logf("%d scenarios, %d statements, each in %d configurations", len(scenarios), steps, len(dmlConfigs))
	for _, cfg := range dmlConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			t.Parallel()
			addr := startServer(t, t.TempDir(), serverOpts{})
			deleteFiles := map[string]int{}
			for i, sc := range scenarios {
				t.Run(sc.name, func(t *testing.T) {
					replayDMLScenario(t, addr, cfg, sc, refs[i], deleteFiles)
				})
			}
			checkWriteMode(t, cfg, deleteFiles)
		})
	}
}

// dmlConfig is one icegate table configuration the scenarios run in.
type dmlConfig struct {
	name          string
	formatVersion int
	mode          string // write.delete.mode, write.update.mode and write.merge.mode
	extra         string // more properties
}

// The four configurations, and merge-on-read on v3 that never rewrites a
// data file however much of it is deleted, so that deletion vectors of
// many statements merge on the same file.
var dmlConfigs = []dmlConfig{
	{"v2_copy_on_write", 2, "copy-on-write", ""},
	{"v2_merge_on_read", 2, "merge-on-read", ""},
	{"v3_copy_on_write", 3, "copy-on-write", ""},
	{"v3_merge_on_read", 3, "merge-on-read", ""},
	{"v3_merge_on_read_no_rewrite", 3, "merge-on-read", "'write.merge-on-read.rewrite-threshold'='1'"},
}

// tableClause is what "{iceberg ...}" in a corpus CREATE TABLE becomes on
// icegate: the Spark clauses in between, then the configuration's
// properties.
func (c dmlConfig) tableClause(inner string) string {
	props := fmt.Sprintf("'format-version'='%d'", c.formatVersion)
	for _, op := range []string{"delete", "update", "merge"} {
		props += fmt.Sprintf(", 'write.%s.mode'='%s'", op, c.mode)
	}
	if c.extra != "" {
		props += ", " + c.extra
	}
	return "USING iceberg " + strings.TrimSpace(inner) + " TBLPROPERTIES (" + props + ")"
}

var icebergClauseRE = regexp.MustCompile(`\{iceberg([^}]*)\}`)

// forIcegate and forPostgres rewrite a corpus statement's "{iceberg ...}"
// clause for one side.
func (c dmlConfig) forIcegate(sql string) string {
	return icebergClauseRE.ReplaceAllStringFunc(sql, func(m string) string {
		return c.tableClause(icebergClauseRE.FindStringSubmatch(m)[1])
	})
}

func forPostgres(sql string) string {
	return icebergClauseRE.ReplaceAllString(sql, "")
}

// checkWriteMode checks that the configuration's mode really wrote what it
// is named for, over all scenarios: copy-on-write no delete files at all;
// merge-on-read position delete files in Parquet on v2 and deletion
// vectors in Puffin files (and nothing else) on v3.
func checkWriteMode(t *testing.T, cfg dmlConfig, deleteFiles map[string]int) {
	t.Helper()
	switch {
	case cfg.mode == "copy-on-write":
		if len(deleteFiles) > 0 {
			t.Errorf("copy-on-write wrote delete files: %v (file format: count)", deleteFiles)
		}
	case cfg.formatVersion == 2:
		if deleteFiles["PARQUET"] == 0 || len(deleteFiles) > 1 {
			t.Errorf("merge-on-read on format v2 wrote delete files %v (file format: count), want Parquet position delete files only", deleteFiles)
		}
	default:
		if deleteFiles["PUFFIN"] == 0 || len(deleteFiles) > 1 {
			t.Errorf("merge-on-read on format v3 wrote delete files %v (file format: count), want deletion vectors in Puffin files only", deleteFiles)
		}
	}
}

// dmlOutcome is what one statement did: its command tag and result, or
// its error.
type dmlOutcome struct {
	tag string
	res textResult
	err error
	// described is what preparing the statement said (parameter types,
	// result columns), for a step run with parameters.
	described string
}

// runDMLStatement runs sql and collects its outcome. Without params it
// goes over the simple protocol (several statements in one string run as
// one implicit transaction, their tags joined by "; "); with params it is
// prepared (its description kept: parameter types left to the server,
// result columns) and executed over the extended protocol, the parameters
// in text format; as a batch, its statements (split at ";") go as one
// extended-protocol batch with one Sync, an implicit transaction. Values
// come back as text.
func runDMLStatement(ctx context.Context, conn *pgx.Conn, sql string, params [][]byte, batch bool) dmlOutcome {
	var results []*pgconn.Result
	described := ""
	if params != nil {
		sd, err := conn.PgConn().Prepare(ctx, "", sql, nil)
		if err != nil {
			return dmlOutcome{err: err}
		}
		described = fmt.Sprintf("parameter types %v, columns", sd.ParamOIDs)
		for _, fd := range sd.Fields {
			described += fmt.Sprintf(" %s:%d", fd.Name, fd.DataTypeOID)
		}
		results = []*pgconn.Result{conn.PgConn().ExecPrepared(ctx, "", params, nil, nil).Read()}
	} else if batch {
		b := &pgconn.Batch{}
		for _, one := range strings.Split(sql, ";") {
			if one = strings.TrimSpace(one); one != "" {
				b.ExecParams(one, nil, nil, nil, nil)
			}
		}
		var err error
		if results, err = conn.PgConn().ExecBatch(ctx, b).ReadAll(); err != nil {
			return dmlOutcome{err: err}
		}
	} else {
		var err error
		if results, err = conn.PgConn().Exec(ctx, sql).ReadAll(); err != nil {
			return dmlOutcome{err: err}
		}
	}
	out := dmlOutcome{described: described}
	var tags []string
	for _, r := range results {
		if r.Err != nil {
			return dmlOutcome{err: r.Err}
		}
		tags = append(tags, r.CommandTag.String())
		if len(r.FieldDescriptions) > 0 && out.res.names == nil {
			for _, fd := range r.FieldDescriptions {
				out.res.names = append(out.res.names, fd.Name)
				out.res.oids = append(out.res.oids, fd.DataTypeOID)
			}
		}
		for _, raw := range r.Rows {
			vals := make([]string, len(raw))
			for i, v := range raw {
				if v == nil {
					vals[i] = nullValue
				} else {
					vals[i] = string(v)
				}
			}
			out.res.rows = append(out.res.rows, vals)
		}
	}
	out.tag = strings.Join(tags, "; ")
	return out
}

// diffOutcome describes how icegate's outcome differs from the reference,
// or returns "". A hand-written reference has no column names or types.
func diffOutcome(got, want dmlOutcome, handWritten bool) string {
	switch {
	case want.err != nil && got.err != nil:
		if sqlState(want.err) != sqlState(got.err) {
			return fmt.Sprintf("both fail, SQLSTATEs differ:\n  icegate:   %s\n  reference: %s", describe(got.err), describe(want.err))
		}
		return ""
	case want.err != nil:
		return fmt.Sprintf("the reference fails, icegate does not:\n  icegate:   %s %s\n  reference: %s", got.tag, formatResult(got.res), describe(want.err))
	case got.err != nil:
		return fmt.Sprintf("icegate fails, the reference does not:\n  icegate:   %s\n  reference: %s %s", describe(got.err), want.tag, formatResult(want.res))
	}
	var diffs []string
	if got.tag != want.tag {
		diffs = append(diffs, fmt.Sprintf("command tag: icegate %q, reference %q", got.tag, want.tag))
	}
	if !handWritten && got.described != want.described {
		diffs = append(diffs, fmt.Sprintf("prepared statement description: icegate %s; reference %s", got.described, want.described))
	}
	if !handWritten && !slices.Equal(got.res.names, want.res.names) {
		diffs = append(diffs, fmt.Sprintf("column names: icegate %q, reference %q", got.res.names, want.res.names))
	}
	if !handWritten && !slices.Equal(got.res.oids, want.res.oids) {
		diffs = append(diffs, fmt.Sprintf("column type OIDs: icegate %v, reference %v", got.res.oids, want.res.oids))
	}
	gotRows, wantRows := diffRowStrings(got.res), diffRowStrings(want.res)
	slices.Sort(gotRows)
	slices.Sort(wantRows)
	if !slices.Equal(gotRows, wantRows) {
		diffs = append(diffs, fmt.Sprintf("rows (as a multiset) differ:\n  icegate:   %s\n  reference: %s", strings.Join(gotRows, " ; "), strings.Join(wantRows, " ; ")))
	}
	return strings.Join(diffs, "\n")
}

// dmlScenario is one scenario of the corpus: its setup and its steps.
type dmlScenario struct {
	name, file string
	setup      []dmlSetup
	steps      []dmlStep
}

// dmlSide says which server a setup statement runs on.
type dmlSide int

const (
	bothSides dmlSide = iota
	postgresOnly
	icegateOnly
)

type dmlSetup struct {
	sql  string
	side dmlSide
}

// dmlStep is one statement of a scenario. pg15, when set, is what the
// reference server runs instead; want, when set, is the hand-written
// outcome (otherwise the reference server's outcome of the last pg15
// statement, or of sql).
type dmlStep struct {
	sql    string
	line   int
	params [][]byte // nil: the simple protocol; else the extended one
	batch  bool     // its statements go as one extended-protocol batch
	pg15   []string
	want   *dmlOutcome
	// icegateOnly: a statement for icegate alone (ALTER TABLE ... SET
	// TBLPROPERTIES, partition spec changes) that leaves the rows as
	// they are; it must succeed, and the tables still compare.
	icegateOnly bool
}

var (
	dmlRowRE   = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"|NULL`)
	dmlStateRE = regexp.MustCompile(`^[0-9A-Z]{5}$`)
)

// readDMLCorpus reads the scenarios of one corpus file.
func readDMLCorpus(path string) ([]dmlScenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	base := filepath.Base(path)
	var (
		out     []dmlScenario
		cur     *dmlScenario
		section string
		stmt    []string
		next    dmlStep // directives for the next step
		lineNo  int
		stmtAt  int
	)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", base, lineNo, fmt.Sprintf(format, args...))
	}
	wantOf := func() *dmlOutcome {
		if next.want == nil {
			next.want = &dmlOutcome{}
		}
		return next.want
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if len(stmt) == 0 {
			directive, arg, isDirective := strings.Cut(strings.TrimPrefix(trimmed, "-- "), ":")
			arg = strings.TrimSpace(arg)
			if !strings.HasPrefix(trimmed, "-- ") {
				isDirective = false
			}
			switch {
			case trimmed == "":
				continue
			case isDirective && directive == "scenario":
				out = append(out, dmlScenario{name: arg, file: base})
				cur, section = &out[len(out)-1], ""
				continue
			case trimmed == "-- setup" || trimmed == "-- steps":
				if cur == nil {
					return nil, fail("%s before a -- scenario line", trimmed)
				}
				section = strings.TrimPrefix(trimmed, "-- ")
				continue
			case isDirective && directive == "icegate" && section == "steps":
				if !strings.HasSuffix(arg, ";") {
					return nil, fail("-- icegate: is a one-line statement ending with ;")
				}
				cur.steps = append(cur.steps, dmlStep{sql: strings.TrimSuffix(arg, ";"), line: lineNo, icegateOnly: true})
				continue
			case isDirective && (directive == "pg" || directive == "icegate"):
				if section != "setup" || !strings.HasSuffix(arg, ";") {
					return nil, fail("-- %s: is a one-line setup statement ending with ;", directive)
				}
				side := postgresOnly
				if directive == "icegate" {
					side = icegateOnly
				}
				cur.setup = append(cur.setup, dmlSetup{sql: strings.TrimSuffix(arg, ";"), side: side})
				continue
			case isDirective && directive == "pg15":
				if section != "steps" || !strings.HasSuffix(arg, ";") {
					return nil, fail("-- pg15: is a one-line statement ending with ; before a step")
				}
				next.pg15 = append(next.pg15, strings.TrimSuffix(arg, ";"))
				continue
			case isDirective && directive == "params":
				if section != "steps" {
					return nil, fail("-- params: goes before a step")
				}
				next.params = [][]byte{}
				for _, p := range strings.Split(arg, "|") {
					if p = strings.TrimSpace(p); p == "NULL" {
						next.params = append(next.params, nil)
					} else {
						next.params = append(next.params, []byte(p))
					}
				}
				continue
			case trimmed == "-- batch":
				if section != "steps" {
					return nil, fail("-- batch goes before a step")
				}
				next.batch = true
				continue
			case isDirective && directive == "want":
				wantOf().tag = arg
				continue
			case isDirective && directive == "want row":
				cells := dmlRowRE.FindAllStringSubmatch(arg, -1)
				if len(cells) == 0 {
					return nil, fail("-- want row: wants cells like (\"1\",NULL)")
				}
				row := make([]string, len(cells))
				for i, c := range cells {
					if c[0] == "NULL" {
						row[i] = nullValue
					} else {
						row[i] = strings.ReplaceAll(strings.ReplaceAll(c[1], `\"`, `"`), `\\`, `\`)
					}
				}
				w := wantOf()
				w.res.rows = append(w.res.rows, row)
				continue
			case isDirective && directive == "want error":
				if !dmlStateRE.MatchString(arg) {
					return nil, fail("-- want error: wants a SQLSTATE")
				}
				wantOf().err = &pgconn.PgError{Code: arg, Message: "hand-written expectation"}
				continue
			case strings.HasPrefix(trimmed, "--"):
				continue
			}
			stmtAt = lineNo
		}
		stmt = append(stmt, line)
		if !strings.HasSuffix(trimmed, ";") {
			continue
		}
		sql := strings.TrimSuffix(strings.TrimSpace(strings.Join(stmt, "\n")), ";")
		stmt = nil
		switch section {
		case "setup":
			cur.setup = append(cur.setup, dmlSetup{sql: sql})
		case "steps":
			if next.want != nil && len(next.pg15) == 0 {
				return nil, fmt.Errorf("%s:%d: a hand-written outcome needs -- pg15: statements for the reference tables", base, stmtAt)
			}
			next.sql, next.line = sql, stmtAt
			cur.steps = append(cur.steps, next)
			next = dmlStep{}
		default:
			return nil, fmt.Errorf("%s:%d: statement outside a -- setup or -- steps section", base, stmtAt)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(stmt) > 0 {
		return nil, fmt.Errorf("%s:%d: statement without a closing ;", base, stmtAt)
	}
	for _, s := range out {
		if len(s.steps) == 0 {
			return nil, fmt.Errorf("%s: scenario %s has no steps", base, s.name)
		}
	}
	return out, nil
}

// dmlSchema is the schema a scenario's tables live in, on both servers.
func dmlSchema(scenario string) string { return "dmldiff_" + scenario }

// dmlReference is the reference server's outcome of every step of a
// scenario and the content of each of its tables after every step.
type dmlReference struct {
	tables  []string // the scenario's tables
	queries []string // SELECT * of each table
	steps   []dmlStepReference
}

type dmlStepReference struct {
	outcome dmlOutcome
	tables  []dmlOutcome // the result of each of queries after the step
}

// recordDMLReference runs a scenario on PostgreSQL and records its
// outcomes. The scenario's schema is dropped when the test ends.
func recordDMLReference(t *testing.T, pg *pgx.Conn, sc dmlScenario) dmlReference {
	t.Helper()
	ctx := testCtx(t)
	schema := dmlSchema(sc.name)
	for _, sql := range []string{"DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema, "SET search_path = " + schema} {
		if _, err := pg.Exec(ctx, sql); err != nil {
			t.Fatalf("PostgreSQL: %s: %v", sql, err)
		}
	}
	t.Cleanup(func() {
		if _, err := pg.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+schema+" CASCADE"); err != nil {
			t.Logf("PostgreSQL: drop schema %s: %v", schema, err)
		}
	})
	for _, s := range sc.setup {
		if s.side == icegateOnly {
			continue
		}
		if _, err := pg.Exec(ctx, forPostgres(s.sql), pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: scenario %s: PostgreSQL setup: %s: %v", sc.file, sc.name, s.sql, err)
		}
	}
	var ref dmlReference
	rows, err := pg.Query(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`, schema)
	if err != nil {
		t.Fatalf("PostgreSQL: list the tables of %s: %v", schema, err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatalf("PostgreSQL: list the tables of %s: %v", schema, err)
		}
		// The rows compare as a multiset: no ORDER BY, which a column
		// dropped by a step would break.
		ref.tables = append(ref.tables, name)
		ref.queries = append(ref.queries, "SELECT * FROM "+name)
	}
	if rows.Close(); rows.Err() != nil || len(ref.tables) == 0 {
		t.Fatalf("PostgreSQL: list the tables of %s: %v (%d tables)", schema, rows.Err(), len(ref.tables))
	}
	for _, st := range sc.steps {
		var sr dmlStepReference
		if st.icegateOnly {
			// nothing runs on the reference server
		} else if len(st.pg15) == 0 {
			sr.outcome = runDMLStatement(ctx, pg, forPostgres(st.sql), st.params, st.batch)
		}
		for i, sql := range st.pg15 {
			sr.outcome = runDMLStatement(ctx, pg, sql, st.params, st.batch)
			if sr.outcome.err != nil && i < len(st.pg15)-1 {
				t.Fatalf("%s:%d: PostgreSQL fails on the step's -- pg15: %s: %v", sc.file, st.line, sql, sr.outcome.err)
			}
		}
		if st.want != nil {
			sr.outcome = *st.want
		}
		for _, q := range ref.queries {
			sr.tables = append(sr.tables, runDMLStatement(ctx, pg, q, nil, false))
		}
		ref.steps = append(ref.steps, sr)
	}
	if st := pg.PgConn().TxStatus(); st != 'I' {
		t.Fatalf("%s: scenario %s leaves a transaction block open on PostgreSQL (status %c)", sc.file, sc.name, st)
	}
	return ref
}

// replayDMLScenario runs a scenario on icegate in one configuration and
// compares every outcome with the reference. It adds the delete files the
// scenario's tables were given, by file format, to deleteFiles.
func replayDMLScenario(t *testing.T, addr string, cfg dmlConfig, sc dmlScenario, ref dmlReference, deleteFiles map[string]int) {
	ctx := testCtx(t)
	schema := dmlSchema(sc.name)
	conn := connect(t, addr)
	execAll(t, conn, "CREATE SCHEMA "+schema, "SET search_path = "+schema)
	for _, s := range sc.setup {
		if s.side == postgresOnly {
			continue
		}
		if _, err := conn.Exec(ctx, cfg.forIcegate(s.sql), pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: icegate setup: %s: %s", sc.file, cfg.forIcegate(s.sql), describe(err))
		}
	}
	if slices.ContainsFunc(sc.steps, func(st dmlStep) bool {
		return st.icegateOnly && strings.Contains(strings.ToUpper(st.sql), "TBLPROPERTIES")
	}) {
		// The scenario sets the write modes itself: its delete files say
		// nothing of the configuration's.
		deleteFiles = map[string]int{}
	}
	diverged := make([]bool, len(ref.tables))
	differ, resyncs := 0, 0
	for i, st := range sc.steps {
		where := fmt.Sprintf("%s:%d", sc.file, st.line)
		want := ref.steps[i]
		got := runDMLStatement(ctx, conn, cfg.forIcegate(st.sql), st.params, st.batch)
		if st.icegateOnly {
			if got.err != nil {
				t.Fatalf("%s: icegate: %s: %s; later steps not compared", where, st.sql, describe(got.err))
			}
		} else if d := diffOutcome(got, want.outcome, st.want != nil); d != "" {
			differ++
			t.Errorf("%s: %s\n%s", where, st.sql, d)
		}
		if conn.IsClosed() {
			t.Errorf("%s: icegate closed the connection; reconnecting", where)
			conn = connect(t, addr)
			execAll(t, conn, "SET search_path = "+schema)
		}
		inBlock := conn.PgConn().TxStatus() != 'I'
		for j, q := range ref.queries {
			gotTable := runDMLStatement(ctx, conn, q, nil, false)
			d := diffOutcome(gotTable, want.tables[j], false)
			if d == "" {
				diverged[j] = false
				continue
			}
			if !diverged[j] {
				t.Errorf("%s: after %s\ntable %s differs: %s", where, firstLine(st.sql), ref.tables[j], d)
			}
			diverged[j] = true
			if inBlock || want.tables[j].err != nil {
				continue
			}
			if err := countDeleteFiles(ctx, conn, ref.tables[j], deleteFiles); err != nil {
				t.Error(err)
			}
			if err := resyncTable(ctx, conn, cfg, sc, ref.tables[j], want.tables[j].res); err != nil {
				t.Fatalf("%s: rebuilding icegate's table %s with the reference rows: %v; later steps not compared", where, ref.tables[j], err)
			}
			resyncs++
			diverged[j] = false
		}
	}
	if conn.PgConn().TxStatus() == 'I' {
		for _, name := range ref.tables {
			if err := countDeleteFiles(ctx, conn, name, deleteFiles); err != nil {
				t.Error(err)
			}
		}
	}
	t.Logf("%s: %d statements, %d outcomes differ, %d tables rebuilt after a difference", sc.name, len(sc.steps), differ, resyncs)
}

// countDeleteFiles adds the delete files of every snapshot of icegate's
// table name, by file format, to deleteFiles.
func countDeleteFiles(ctx context.Context, conn *pgx.Conn, name string, deleteFiles map[string]int) error {
	res, err := queryText(ctx, conn, fmt.Sprintf("SELECT file_format, count(*) FROM %s$all_delete_files GROUP BY 1", name))
	if err != nil {
		return fmt.Errorf("icegate: delete files of %s: %s", name, describe(err))
	}
	for _, r := range res.rows {
		var n int
		if _, err := fmt.Sscan(r[1], &n); err != nil {
			return fmt.Errorf("icegate: delete files of %s: count %q: %v", name, r[1], err)
		}
		deleteFiles[r[0]] += n
	}
	return nil
}

var createOrAlterTableRE = regexp.MustCompile(`(?is)^\s*(?:create|alter)\s+table\s+(?:if\s+not\s+exists\s+)?([a-z_][a-z0-9_]*)`)

// resyncTable rebuilds icegate's table name with the reference rows: it
// drops it, runs the scenario's CREATE TABLE and ALTER TABLE setup
// statements for it and inserts the rows as text literals.
func resyncTable(ctx context.Context, conn *pgx.Conn, cfg dmlConfig, sc dmlScenario, name string, rows textResult) error {
	sqls := []string{"DROP TABLE " + name}
	for _, s := range sc.setup {
		if m := createOrAlterTableRE.FindStringSubmatch(s.sql); s.side != postgresOnly && m != nil && strings.EqualFold(m[1], name) {
			sqls = append(sqls, cfg.forIcegate(s.sql))
		}
	}
	if len(rows.rows) > 0 {
		var values []string
		for _, r := range rows.rows {
			cells := make([]string, len(r))
			for i, v := range r {
				cells[i] = "NULL"
				if v != nullValue {
					cells[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
				}
			}
			values = append(values, "("+strings.Join(cells, ", ")+")")
		}
		sqls = append(sqls, "INSERT INTO "+name+" VALUES "+strings.Join(values, ", "))
	}
	for _, sql := range sqls {
		if _, err := conn.Exec(ctx, sql, pgx.QueryExecModeSimpleProtocol); err != nil {
			return fmt.Errorf("%s: %s", sql, describe(err))
		}
	}
	return nil
}
