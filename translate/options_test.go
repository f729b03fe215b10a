package translate

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/settings"
)

// optionRun runs every statement of sql and returns the rows of the last
// one (values tab-separated, NULL as NULL), the notices of all of them and
// the first error.
func optionRun(s *session, sql string) ([]string, []Notice, error) {
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		s.StatementFailed(err)
		return nil, nil, err
	}
	var lines []string
	var notices []Notice
	for _, st := range stmts {
		rows, err := st.Execute(ctx, nil)
		if err != nil {
			s.StatementFailed(err)
			return nil, notices, err
		}
		lines = nil
		for {
			b, err := rows.Next(ctx)
			if err != nil {
				rows.Close()
				s.StatementFailed(err)
				return nil, notices, err
			}
			if b == nil {
				break
			}
			for i := 0; i < int(b.NumRows()); i++ {
				vals := make([]string, b.NumCols())
				for j := range vals {
					vals[j] = valueText(b.Column(j), i)
				}
				lines = append(lines, strings.Join(vals, "\t"))
			}
		}
		notices = append(notices, rows.Notices()...)
		rows.Close()
	}
	return lines, notices, nil
}

// optionCase is one step of a session: sql gives rows (joined by "|"),
// a NOTICE whose message contains notice ("" = none), or an error with
// code whose message contains msg.
type optionCase struct {
	sql, want, notice, code, msg string
}

func runOptionCases(t *testing.T, s *session, cases []optionCase) {
	t.Helper()
	for _, c := range cases {
		rows, notices, err := optionRun(s, c.sql)
		if c.code != "" {
			pe := pgerr.As(err)
			if pe == nil || pe.Code != c.code || !strings.Contains(pe.Message, c.msg) {
				t.Errorf("%s: err %v, want %s containing %q", c.sql, err, c.code, c.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if got := strings.Join(rows, "|"); got != c.want {
			t.Errorf("%s: got %q, want %q", c.sql, got, c.want)
		}
		var msgs []string
		for _, n := range notices {
			msgs = append(msgs, n.Message)
		}
		got := strings.Join(msgs, "; ")
		if c.notice == "" && got != "" || c.notice != "" && !strings.Contains(got, c.notice) {
			t.Errorf("%s: notices %q, want %q", c.sql, got, c.notice)
		}
	}
}

// TestOptionSettings: SET, SHOW and RESET of the options' session
// settings, their spellings, sources, NOTICEs and errors.
func TestOptionSettings(t *testing.T) {
	s := newTestSession(t)
	runOptionCases(t, s, []optionCase{
		{sql: "SHOW iceberg.split_size", want: "134217728\tdefault"},
		{sql: "SET iceberg.split_size = 1024", notice: "setting iceberg.split_size is accepted, but icegate does not act on it"},
		{sql: "SHOW iceberg.split_size", want: "1024\tsession"},
		{sql: `SET "iceberg.split-size" = '2048'`, notice: "does not act on it"},
		{sql: `SHOW "iceberg.split-size"`, want: "2048\tsession"},
		{sql: "SELECT current_setting('iceberg.split_size')", want: "2048"},
		{sql: "RESET iceberg.split_size", want: ""},
		{sql: "SHOW iceberg.split_size", want: "134217728\tdefault"},
		{sql: "SET iceberg.split_size = 'big'", code: pgerr.InvalidParameterValue, msg: `"iceberg.split_size"`},
		{sql: "SET iceberg.batch_size = 0", code: pgerr.InvalidParameterValue, msg: `option "iceberg.batch_size"`},
		// The settings icegate acts on: no NOTICE.
		{sql: "SHOW iceberg.isolation_level", want: "\tdefault"},
		{sql: "SET iceberg.isolation_level = 'SNAPSHOT'", want: ""},
		{sql: "SHOW iceberg.isolation_level", want: "snapshot\tsession"},
		{sql: "SET iceberg.isolation_level = 'repeatable'", code: pgerr.InvalidParameterValue, msg: `"iceberg.isolation_level"`},
		{sql: "SET iceberg.validate_from_snapshot_id = 'x'", code: pgerr.InvalidParameterValue, msg: `"iceberg.validate_from_snapshot_id"`},
		{sql: "SET iceberg.validate_from_snapshot_id = 42", want: ""},
		{sql: "SHOW iceberg.validate_from_snapshot_id", want: "42\tsession"},
		{sql: "SET spark.wap.branch = 'audit'", want: ""},
		{sql: "SHOW iceberg.wap_branch", want: "audit\tsession"},
		{sql: "RESET iceberg.wap_branch; SHOW spark.wap.branch", want: "\tdefault"},
		// Spark's session names are the same settings.
		{sql: "SET spark.sql.iceberg.vectorization.enabled = off", notice: "setting iceberg.vectorization.enabled is accepted"},
		{sql: "SHOW iceberg.vectorization.enabled", want: "false\tsession"},
		{sql: "SET iceberg.parquet.reader_type = comet", notice: "does not act on it"},
		{sql: "SHOW iceberg.parquet.reader_type", want: "COMET\tsession"},
		{sql: "SET iceberg.distribution_mode = 'sideways'", code: pgerr.InvalidParameterValue, msg: "distribution_mode"},
		// iceberg.* holds only the options.
		{sql: "SET iceberg.no_such_option = 1", code: pgerr.UndefinedObject, msg: "iceberg.no_such_option"},
		{sql: "SHOW iceberg.no_such_option", code: pgerr.UndefinedObject, msg: "iceberg.no_such_option"},
		{sql: "SET iceberg.snapshot_id = 1", code: pgerr.UndefinedObject, msg: "iceberg.snapshot_id"},
		// ROLLBACK undoes a SET; SET LOCAL lasts until the block ends.
		{sql: "BEGIN; SET iceberg.lookback = 3; ROLLBACK; SHOW iceberg.lookback", want: "10\tdefault", notice: "does not act on it"},
		{sql: "BEGIN; SET LOCAL iceberg.lookback = 3; SHOW iceberg.lookback", want: "3\tsession", notice: "does not act on it"},
		{sql: "COMMIT; SHOW iceberg.lookback", want: "10\tdefault"},
		{sql: "SELECT set_config('iceberg.write_format', 'AVRO', false)", want: "avro"},
		{sql: "SHOW iceberg.write_format", want: "avro\tsession"},
		{sql: "RESET ALL; SHOW iceberg.write_format", want: "parquet\tdefault"},
	})
	// SHOW ALL lists every session option with the value in effect.
	rows, _, err := optionRun(s, "SHOW ALL")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, r := range rows {
		if strings.HasPrefix(r, "iceberg.") {
			found++
		}
		if strings.HasPrefix(r, "iceberg.batch_size\t") && !strings.HasPrefix(r, "iceberg.batch_size\t5000\t") {
			t.Errorf("SHOW ALL: %q", r)
		}
	}
	want := 0
	for _, o := range conf.IcebergOptions {
		if o.Levels&conf.LevelSession != 0 {
			want++
		}
	}
	if found != want {
		t.Errorf("SHOW ALL lists %d iceberg.* settings, want %d", found, want)
	}
}

// duckdb__fruit has two snapshots: 2 rows, then 3.
const (
	fruitFirst  = "7992439894843196740" // at 1738032330405 ms
	fruitSecond = "3790395430840981108" // at 1738032335502 ms
)

// TestOptionHints: the OPTIONS hint after a table name travels in time
// with snapshot-id and as-of-timestamp, accepts the other read options
// with a NOTICE and refuses unknown ones.
func TestOptionHints(t *testing.T) {
	s := newTestSession(t)
	const fruit = "iceberg.duckdb__fruit"
	runOptionCases(t, s, []optionCase{
		{sql: "SELECT count(*) FROM " + fruit, want: "3"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('snapshot-id'='" + fruitFirst + "') */", want: "2"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('snapshot-id'=" + fruitSecond + ") */ AS f", want: "3"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ options('as-of-timestamp'='1738032330405') */", want: "2"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('as-of-timestamp'='1738032335501') */", want: "2"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('as-of-timestamp'='1738032335502') */", want: "3"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('as-of-timestamp'='2025-01-28 02:45:31+00') */", want: "2"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('as-of-timestamp'='1738032330404') */", code: pgerr.InvalidParameterValue, msg: "no snapshot"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('snapshot-id'='123') */", code: pgerr.InvalidParameterValue, msg: "has no snapshot 123"},
		// Both: snapshot-id wins, and a NOTICE says so.
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('as-of-timestamp'='1738032335502', 'snapshot-id'='" + fruitFirst + "') */",
			want: "2", notice: "as-of-timestamp is ignored"},
		// Two references, two snapshots.
		{sql: "SELECT (SELECT count(*) FROM " + fruit + " /*+ OPTIONS('snapshot-id'='" + fruitFirst + "') */ a), (SELECT count(*) FROM " + fruit + " b)", want: "2\t3"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('snapshot-id'='" + fruitFirst + "') */ f JOIN " + fruit + " g ON f._file = g._file AND f._pos = g._pos", want: "2"},
		// Options icegate does not act on: accepted, with a NOTICE.
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('split-size'='1024', 'lookback'='5') */", want: "3",
			notice: `option "split-size" is accepted, but icegate does not act on it; option "lookback" is accepted`},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('vectorization-enabled'='false') */", want: "3", notice: "does not act on it"},
		// Another engine's hint is a comment.
		{sql: "SELECT /*+ BROADCAST(f) */ count(*) FROM " + fruit + " f", want: "3"},
		// Errors.
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('no-such-option'='1') */", code: pgerr.InvalidParameterValue, msg: `unknown option "no-such-option"`},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('vectorization.enabled'='true') */", code: pgerr.InvalidParameterValue, msg: "is a session setting"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('snapshot-id'='abc') */", code: pgerr.InvalidParameterValue, msg: `option "snapshot-id"`},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('split-size'='-1') */", code: pgerr.InvalidParameterValue, msg: `option "split-size"`},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('lookback'='1', 'lookback'='2') */", code: pgerr.InvalidParameterValue, msg: "given twice"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('lookback') */", code: pgerr.SyntaxError, msg: "invalid OPTIONS hint"},
		{sql: "SELECT count(*) FROM " + fruit + " /*+ OPTIONS('lookback'='1' */", code: pgerr.SyntaxError, msg: "invalid OPTIONS hint"},
		{sql: "SELECT count(*) FROM " + fruit + " VERSION AS OF " + fruitFirst + " /*+ OPTIONS('snapshot-id'='" + fruitFirst + "') */", code: pgerr.SyntaxError, msg: "both a time-travel clause"},
		{sql: "SELECT 1 /*+ OPTIONS('lookback'='1') */", code: pgerr.SyntaxError, msg: "must follow a table name"},
	})
}

// TestOptionsFunction: iceberg.option(s) resolve an option across the
// statement, the session, the table's properties and the default.
func TestOptionsFunction(t *testing.T) {
	s := newTestSession(t)
	const fruit = "'iceberg.duckdb__fruit'"
	runOptionCases(t, s, []optionCase{
		{sql: "SELECT value, source, table_property FROM iceberg.option(" + fruit + ", 'write-format')", want: "parquet\tdefault\twrite.format.default"},
		{sql: "SELECT value, source FROM iceberg.option(" + fruit + ", 'compression-codec')", want: "zstd\ttable"},
		{sql: "SELECT value, source FROM iceberg.option('iceberg.lithium__no_partitioning', 'write_format')", want: "PARQUET\ttable"},
		{sql: "SET iceberg.write_format = 'avro'"},
		{sql: "SELECT value, source FROM iceberg.option(" + fruit + ", 'write-format')", want: "avro\tsession"},
		{sql: "SELECT value, source FROM iceberg.option(" + fruit + ", 'write-format') /*+ OPTIONS('write-format'='parquet') */", want: "parquet\tstatement"},
		{sql: "SELECT value, source FROM iceberg.option(" + fruit + ", 'write-format') /*+ OPTIONS('write-format'='orc') */", code: pgerr.FeatureNotSupported, msg: "writing ORC data files"},
		{sql: "SELECT value, source, session_setting FROM iceberg.option('', 'iceberg.isolation_level')", want: "NULL\tdefault\ticeberg.isolation_level"},
		{sql: "SELECT levels, icegate_acts_at FROM iceberg.option(" + fruit + ", 'snapshot-id')", want: "read\tread"},
		{sql: "SELECT count(*) FROM iceberg.options()", want: strconv.Itoa(len(conf.IcebergOptions))},
		{sql: "SELECT count(*) FROM iceberg.options(" + fruit + ") o WHERE o.source = 'table'", want: "1"},
		{sql: "SELECT option FROM iceberg.options() WHERE option LIKE 'snapshot-property%'", want: "snapshot-property.<key>"},
		{sql: "SELECT * FROM iceberg.option(" + fruit + ", 'no-such')", code: pgerr.InvalidParameterValue, msg: `unknown option "no-such"`},
		{sql: "SELECT * FROM iceberg.option(" + fruit + ")", code: pgerr.UndefinedFunction, msg: "iceberg.option takes"},
		{sql: "SELECT * FROM iceberg.options('iceberg.no_such_table')", code: pgerr.UndefinedTable, msg: "no_such_table"},
	})
}

// TestOptionScalar: iceberg.option(t, name) in an expression is the value
// in effect (text, NULL when unset), as the value column of the FROM form;
// the iceberg.* functions that return tables say to call them in FROM.
func TestOptionScalar(t *testing.T) {
	s := newTestSession(t)
	const fruit = "'iceberg.duckdb__fruit'"
	runOptionCases(t, s, []optionCase{
		{sql: "SELECT iceberg.option(" + fruit + ", 'write-format')", want: "parquet"},
		{sql: "SELECT iceberg.option(" + fruit + ", 'compression-codec') AS codec, 1 + 1", want: "zstd\t2"},
		{sql: "SELECT count(*) FROM " + fruit[1:len(fruit)-1] + " WHERE iceberg.option(" + fruit + ", 'compression-codec') = 'zstd'", want: "3"},
		{sql: "SELECT upper(iceberg.option('iceberg.lithium__no_partitioning', 'write_format'))", want: "PARQUET"},
		{sql: "SELECT iceberg.option('', 'iceberg.isolation_level') IS NULL", want: "true"},
		{sql: "SET iceberg.write_format = 'avro'"},
		{sql: "SELECT iceberg.option(" + fruit + ", 'write-format'), value FROM iceberg.option(" + fruit + ", 'write-format')", want: "avro\tavro"},
		{sql: "RESET iceberg.write_format", want: ""},
		{sql: "SELECT iceberg.option(" + fruit + ", 'write-format')", want: "parquet"},
		// Errors, as in FROM.
		{sql: "SELECT iceberg.option(" + fruit + ", 'no-such')", code: pgerr.InvalidParameterValue, msg: `unknown option "no-such"`},
		{sql: "SELECT iceberg.option(" + fruit + ")", code: pgerr.UndefinedFunction, msg: "iceberg.option takes"},
		{sql: "SELECT iceberg.option('iceberg.no_such_table', 'write-format')", code: pgerr.UndefinedTable, msg: "no_such_table"},
		{sql: "SELECT iceberg.option(relname, 'write-format') FROM pg_class", code: pgerr.DatatypeMismatch, msg: "must be a string constant"},
		// The table functions are for FROM.
		{sql: "SELECT iceberg.options(" + fruit + ")", code: pgerr.FeatureNotSupported, msg: "iceberg.options returns a table"},
		{sql: "SELECT iceberg.snapshot(" + fruit + ", 1)", code: pgerr.FeatureNotSupported, msg: "iceberg.snapshot returns a table"},
		{sql: "SELECT 1 WHERE iceberg.as_of(" + fruit + ", 0) IS NULL", code: pgerr.FeatureNotSupported, msg: "iceberg.as_of returns a table"},
		{sql: "SELECT iceberg.table_changes(" + fruit + ", NULL)", code: pgerr.FeatureNotSupported, msg: "iceberg.table_changes returns a table"},
		{sql: "SELECT iceberg.no_such_function()", code: pgerr.UndefinedFunction, msg: "function iceberg.no_such_function does not exist"},
	})
}

// TestOptionHintsWritten: on a table of two snapshots written here, the
// hint reads either snapshot, and a row-level change's hint sets its
// isolation-level and validate-from-snapshot-id.
func TestOptionHintsWritten(t *testing.T) {
	s, _, _ := newWriteSession(t)
	for _, sql := range []string{"CREATE TABLE w (id int)", "INSERT INTO w VALUES (1), (2)", "INSERT INTO w VALUES (3)"} {
		if _, _, err := optionRun(s, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	snaps, _, err := optionRun(s, `SELECT snapshot_id FROM "w$snapshots" ORDER BY committed_at`)
	if err != nil || len(snaps) != 2 {
		t.Fatalf("snapshots %v: %v", snaps, err)
	}
	first, second := snaps[0], snaps[1]
	runOptionCases(t, s, []optionCase{
		{sql: "SELECT id FROM w /*+ OPTIONS('snapshot-id'='" + first + "') */ ORDER BY id", want: "1|2"},
		{sql: "SELECT id FROM w /*+ OPTIONS('snapshot-id'='" + second + "') */ ORDER BY id", want: "1|2|3"},
		{sql: "DELETE FROM w /*+ OPTIONS('snapshot-id'='" + first + "') */ WHERE id = 1", code: pgerr.FeatureNotSupported, msg: "read at another snapshot"},
		{sql: "DELETE FROM w /*+ OPTIONS('isolation-level'='sideways') */ WHERE id = 1", code: pgerr.InvalidParameterValue, msg: `option "isolation-level"`},
		// Validated from the first snapshot, deleting 3 conflicts with the
		// second, which added it; validated from the one it read, it does not.
		{sql: "DELETE FROM w /*+ OPTIONS('validate-from-snapshot-id'='" + first + "', 'isolation-level'='serializable') */ WHERE id = 3",
			code: "40001", msg: ""},
		{sql: "DELETE FROM w /*+ OPTIONS('isolation-level'='serializable', 'write-format'='avro') */ WHERE id = 3", want: ""},
		{sql: "SELECT id FROM w ORDER BY id", want: "1|2"},
		{sql: "INSERT INTO w /*+ OPTIONS('target-file-size-bytes'='1000') */ VALUES (4)", want: "",
			notice: `option "target-file-size-bytes" is accepted, but icegate does not act on it`},
		{sql: "INSERT INTO w /*+ OPTIONS('split-size'='x') */ VALUES (5)", code: pgerr.InvalidParameterValue, msg: `option "split-size"`},
		{sql: "INSERT INTO w /*+ OPTIONS('snapshot-id'='" + first + "') */ VALUES (5)", code: pgerr.FeatureNotSupported, msg: "read at another snapshot"},
		{sql: "SELECT count(*) FROM w", want: "3"},
	})
}

// TestOptionRegistry: every option of seed 000 is in the registry at its
// levels, defaults pass their own checks, and an option icegate does not
// act on at some level says why.
func TestOptionRegistry(t *testing.T) {
	session := []string{"spark.sql.iceberg.vectorization.enabled", "spark.sql.iceberg.parquet.reader-type",
		"spark.sql.iceberg.check-nullability", "spark.sql.iceberg.check-ordering",
		"spark.sql.iceberg.planning.preserve-data-grouping", "spark.sql.iceberg.aggregate-push-down.enabled",
		"spark.sql.iceberg.distribution-mode", "spark.wap.id", "spark.wap.branch",
		"spark.sql.iceberg.compression-codec", "spark.sql.iceberg.compression-level", "spark.sql.iceberg.compression-strategy",
		"spark.sql.iceberg.data-planning-mode", "spark.sql.iceberg.delete-planning-mode", "spark.sql.iceberg.advisory-partition-size",
		"spark.sql.iceberg.locality.enabled", "spark.sql.iceberg.executor-cache.enabled", "spark.sql.iceberg.executor-cache.timeout",
		"spark.sql.iceberg.executor-cache.max-entry-size", "spark.sql.iceberg.executor-cache.max-total-size",
		"spark.sql.iceberg.executor-cache.locality.enabled", "spark.sql.iceberg.merge-schema", "spark.sql.iceberg.report-column-stats",
		"iceberg.isolation_level", "iceberg.validate_from_snapshot_id", "iceberg.wap_branch", "iceberg.wap_id"}
	for _, n := range session {
		if conf.LookupOptionSetting(n) == nil || settings.Lookup(n) == nil {
			t.Errorf("session option %s is not a setting", n)
		}
	}
	read := []string{"snapshot-id", "as-of-timestamp", "split-size", "lookback", "file-open-cost", "vectorization-enabled",
		"batch-size", "stream-from-timestamp", "streaming-max-files-per-micro-batch", "streaming-max-rows-per-micro-batch"}
	write := []string{"write-format", "target-file-size-bytes", "check-nullability", "snapshot-property.custom-key", "fanout-enabled",
		"check-ordering", "isolation-level", "validate-from-snapshot-id", "compression-codec", "compression-level",
		"compression-strategy", "distribution-mode", "delete-granularity"}
	for _, l := range []struct {
		names []string
		level conf.OptionLevel
	}{{read, conf.LevelRead}, {write, conf.LevelWrite}} {
		for _, n := range l.names {
			if o := conf.LookupOption(n); o == nil || o.Levels&l.level == 0 {
				t.Errorf("option %s is not a %s option", n, l.level.Names())
			}
		}
	}
	for _, o := range conf.IcebergOptions {
		if o.Default != "" {
			if v, err := o.Check(o.Name, o.Default); err != nil || v != o.Default {
				t.Errorf("%s: default %q checks as %q, %v", o.Name, o.Default, v, err)
			}
		}
		if o.AllLevels()&^o.Acts&(conf.LevelSession|conf.LevelRead|conf.LevelWrite) != 0 && o.Ignored == "" {
			t.Errorf("%s: not acted on at some level, and no reason given", o.Name)
		}
	}
}
