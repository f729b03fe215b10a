package oracle

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5"
)

// dmlNamespace is the schema TestIcegateDMLIcebergGoReads writes in.
const dmlNamespace = "dml"

// dmlOracleConfig is a format version and the write mode of DELETE,
// UPDATE and MERGE (write.delete.mode, write.update.mode,
// write.merge.mode; an upsert follows write.merge.mode).
type dmlOracleConfig struct {
	name          string
	formatVersion int
	mode          string
	extra         string // more properties: 'key'='value', ...
}

// noRewrite keeps merge-on-read from rewriting a data file however much
// of it is deleted, so deletes stack up on the same files.
const noRewrite = "'write.merge-on-read.rewrite-threshold'='1'"

var dmlOracleConfigs = []dmlOracleConfig{
	{"v2_cow", 2, "copy-on-write", ""},
	{"v2_mor", 2, "merge-on-read", ""},
	{"v2_mor_file", 2, "merge-on-read", "'write.delete.granularity'='file', " + noRewrite},
	{"v2_mor_partition", 2, "merge-on-read", "'write.delete.granularity'='partition', " + noRewrite},
	{"v3_cow", 3, "copy-on-write", ""},
	{"v3_mor", 3, "merge-on-read", ""},
	{"v3_mor_stacked", 3, "merge-on-read", noRewrite},
}

// modeProperties is the TBLPROPERTIES list setting cfg's write modes.
func (cfg dmlOracleConfig) modeProperties() string {
	var props []string
	for _, op := range []string{"delete", "update", "merge"} {
		props = append(props, fmt.Sprintf("'write.%s.mode'='%s'", op, cfg.mode))
	}
	if cfg.extra != "" {
		props = append(props, cfg.extra)
	}
	return strings.Join(props, ", ")
}

// dmlOracleTable is a table the DML oracle fills with three INSERTs (three
// data files per partition) and then changes with steps, each a DML
// statement ("%s" is the table's qualified name) that must change rows.
type dmlOracleTable struct {
	name        string
	partitioned string // PARTITIONED BY's list, or ""
	steps       []string
	// block runs the steps in one BEGIN ... COMMIT: one snapshot, checked
	// after the COMMIT only.
	block bool
}

func dmlOracleTables() []dmlOracleTable {
	const (
		del   = "DELETE FROM %s WHERE id %% 7 = 0 OR id BETWEEN 44 AND 47"
		upd   = "UPDATE %s SET val = val || '-u', amount = amount * 2 WHERE id %% 5 = 0"
		merge = `MERGE INTO %s t USING (SELECT g AS id, 'src-' || g AS val FROM generate_series(30, 130, 3) g) s ON t.id = s.id
			WHEN MATCHED AND s.id %% 2 = 0 THEN DELETE
			WHEN MATCHED THEN UPDATE SET val = s.val, grp = t.grp + 1
			WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.val, 9, 0.5)`
		upsert = `INSERT INTO %s SELECT g, 'up-' || g, g %% 4, g / 4.0 FROM generate_series(100, 140, 4) g
			ON CONFLICT (id) DO UPDATE SET val = EXCLUDED.val, amount = EXCLUDED.amount`
		upsertNothing = "INSERT INTO %s VALUES (1, 'never', 0, 0), (500, 'new', 1, 1) ON CONFLICT (id) DO NOTHING"
	)
	return []dmlOracleTable{
		{name: "deleted", steps: []string{del, "DELETE FROM %s WHERE id > 110"}},
		{name: "updated", steps: []string{upd, "UPDATE %s SET grp = NULL WHERE id %% 9 = 1"}},
		{name: "merged", steps: []string{merge}},
		{name: "upserted", steps: []string{upsert, upsertNothing}},
		{name: "mixed", partitioned: "grp", steps: []string{del, upd, merge, upsert, upsertNothing}},
		{name: "block", partitioned: "grp", steps: []string{del, upd, merge, upsert, upsertNothing}, block: true},
		// Spark's INSERT OVERWRITE (static mode, the default): a partition,
		// then the whole table; the files replaced leave with their deletes.
		{name: "overwritten", partitioned: "grp", steps: []string{
			"INSERT OVERWRITE %[1]s SELECT id, val, grp, amount FROM %[1]s WHERE id %% 3 = 0", del,
			"INSERT OVERWRITE %[1]s PARTITION (grp = 1) SELECT id + 1000, val || '-o', amount FROM %[1]s WHERE grp = 1 AND id < 60"}},
	}
}

// TestIcegateDMLIcebergGoReads changes tables with icegate's DELETE,
// UPDATE, MERGE and INSERT ... ON CONFLICT in each write mode and format
// version, and after every statement checks that iceberg-go's scan of the
// table (its deletes applied) returns exactly the rows icegate's SELECT *
// returns, also under a row filter. At the end it checks what the mode
// wrote, through iceberg-go's scan plan: copy-on-write no delete files;
// merge-on-read Parquet position deletes on v2, deletion vectors on v3.
func TestIcegateDMLIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+dmlNamespace); err != nil {
		t.Fatalf("icegate CREATE SCHEMA %s: %v", dmlNamespace, err)
	}
	for _, cfg := range dmlOracleConfigs {
		for _, ot := range dmlOracleTables() {
			name := ot.name + "_" + cfg.name
			t.Run(name, func(t *testing.T) {
				if err := createDMLTable(ctx, conn, cfg, ot, name); err != nil {
					t.Fatal(err)
				}
				snapshotsBefore, err := snapshotCount(ctx, warehouse, name)
				if err != nil {
					t.Fatal(err)
				}
				if ot.block {
					if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
						t.Fatal(err)
					}
				}
				for i, step := range ot.steps {
					sql := fmt.Sprintf(step, dmlNamespace+"."+name)
					tag, err := conn.Exec(ctx, sql)
					if err != nil {
						t.Fatalf("step %d: %s: %v", i+1, sql, err)
					}
					if tag.RowsAffected() == 0 {
						t.Fatalf("step %d: %s changed no rows (%s); the check checks nothing", i+1, sql, tag)
					}
					if ot.block {
						continue
					}
					for _, f := range []filterCase{{}, {"id >= 50", iceberg.GreaterThanEqual(ref("id"), int64(50))}} {
						for _, p := range compareScanIn(ctx, conn, warehouse, dmlNamespace, name, f) {
							t.Errorf("after step %d (%s): %s", i+1, tag, p)
						}
					}
				}
				if ot.block {
					if _, err := conn.Exec(ctx, "COMMIT"); err != nil {
						t.Fatalf("COMMIT: %v", err)
					}
					for _, f := range []filterCase{{}, {"id >= 50", iceberg.GreaterThanEqual(ref("id"), int64(50))}} {
						for _, p := range compareScanIn(ctx, conn, warehouse, dmlNamespace, name, f) {
							t.Errorf("after COMMIT: %s", p)
						}
					}
				}
				snapshots, err := snapshotCount(ctx, warehouse, name)
				if err != nil {
					t.Fatal(err)
				}
				want := len(ot.steps)
				if ot.block {
					want = 1
				}
				if snapshots-snapshotsBefore != want {
					t.Errorf("%d statements (in a block: %v) made %d snapshots, want %d", len(ot.steps), ot.block, snapshots-snapshotsBefore, want)
				}
				if err := checkDMLDeleteFiles(ctx, warehouse, name, cfg); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// createDMLTable creates and fills one table of the DML oracle.
func createDMLTable(ctx context.Context, conn *pgx.Conn, cfg dmlOracleConfig, ot dmlOracleTable, name string) error {
	props := fmt.Sprintf("'format-version'='%d', %s", cfg.formatVersion, cfg.modeProperties())
	partitioned := ""
	if ot.partitioned != "" {
		partitioned = "PARTITIONED BY (" + ot.partitioned + ") "
	}
	qname := dmlNamespace + "." + name
	sqls := []string{
		fmt.Sprintf("CREATE TABLE %s (id bigint NOT NULL, val text, grp int, amount numeric(10,2)) USING iceberg %sTBLPROPERTIES (%s)", qname, partitioned, props),
		fmt.Sprintf("ALTER TABLE %s SET IDENTIFIER FIELDS id", qname),
	}
	for _, r := range [][2]int{{1, 40}, {41, 80}, {81, 120}} {
		sqls = append(sqls, fmt.Sprintf("INSERT INTO %s SELECT g, 'val-' || g, g %% 4, g * 1.25 FROM generate_series(%d, %d) g", qname, r[0], r[1]))
	}
	for _, sql := range sqls {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return fmt.Errorf("icegate %s: %w", sql, err)
		}
	}
	return nil
}

// compareScanIn compares icegate's SELECT * (WHERE f.where when set) of
// ns.name with iceberg-go's scan of the current snapshot (filtered by
// f.expr).
func compareScanIn(ctx context.Context, conn *pgx.Conn, warehouse, ns, name string, f filterCase) []string {
	return compareScanWith(ctx, conn, func(opts ...table.ScanOption) ([]string, [][]cell, error) {
		return readTable(ctx, warehouse, table.Identifier{ns, name}, opts...)
	}, ns, name, f)
}

// compareScanWith is compareScanIn with iceberg-go's scan made by scan.
func compareScanWith(ctx context.Context, conn *pgx.Conn, scan func(...table.ScanOption) ([]string, [][]cell, error), ns, name string, f filterCase) []string {
	label := name
	sql := fmt.Sprintf("SELECT * FROM %s.%s", ns, name)
	var opts []table.ScanOption
	if f.where != "" {
		label += " where " + f.where
		sql += " WHERE " + f.where
		opts = append(opts, table.WithRowFilter(f.expr))
	}
	wantCols, want, err := scan(opts...)
	if err != nil {
		return []string{fmt.Sprintf("iceberg-go scan of %s: %v", label, err)}
	}
	gotCols, got, err := queryText(ctx, conn, sql)
	if err != nil {
		return []string{fmt.Sprintf("icegate %s: %v", sql, err)}
	}
	if len(got) == 0 {
		return []string{fmt.Sprintf("table %s: icegate returned no rows; the check checks nothing", label)}
	}
	if !slices.Equal(gotCols, wantCols) {
		return []string{fmt.Sprintf("table %s: icegate columns %v, iceberg-go columns %v", label, gotCols, wantCols)}
	}
	var out []string
	for _, d := range diffRows(wantCols, got, want) {
		out = append(out, fmt.Sprintf("table %s: %s", label, d))
	}
	return out
}

// dmlDeleteFiles counts the delete files of the current snapshot of a
// table in iceberg-go's scan plan; a data file with more than one
// deletion vector is an error.
type dmlDeleteFiles struct {
	positional, dvs, equality int
}

func (d dmlDeleteFiles) String() string {
	return fmt.Sprintf("%d position delete files, %d deletion vectors, %d equality delete files", d.positional, d.dvs, d.equality)
}

func planDeleteFiles(ctx context.Context, warehouse string, ident table.Identifier) (dmlDeleteFiles, *table.Table, error) {
	tbl, err := loadTable(ctx, warehouse, ident)
	if err != nil {
		return dmlDeleteFiles{}, nil, err
	}
	d, err := countDeleteFiles(ctx, tbl)
	if err != nil {
		return d, nil, err
	}
	return d, tbl, nil
}

// countDeleteFiles counts the delete files in iceberg-go's plan of the
// current snapshot of tbl.
func countDeleteFiles(ctx context.Context, tbl *table.Table) (dmlDeleteFiles, error) {
	var d dmlDeleteFiles
	ident := tbl.Identifier()
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return d, fmt.Errorf("plan scan of %v: %w", ident, err)
	}
	for _, task := range tasks {
		d.positional += len(task.DeleteFiles)
		d.dvs += len(task.DeletionVectorFiles)
		d.equality += len(task.EqualityDeleteFiles)
		if len(task.DeletionVectorFiles) > 1 {
			return d, fmt.Errorf("table %v: data file %s has %d deletion vectors; the spec allows one", ident, task.File.FilePath(), len(task.DeletionVectorFiles))
		}
		for _, df := range task.DeleteFiles {
			if df.FileFormat() != iceberg.ParquetFile {
				return d, fmt.Errorf("table %v: position delete file %s in format %s", ident, df.FilePath(), df.FileFormat())
			}
		}
	}
	return d, nil
}

// checkDMLDeleteFiles checks, with iceberg-go's plan of the current
// snapshot, that the table's delete files are what its mode writes.
func checkDMLDeleteFiles(ctx context.Context, warehouse, name string, cfg dmlOracleConfig) error {
	d, tbl, err := planDeleteFiles(ctx, warehouse, table.Identifier{dmlNamespace, name})
	if err != nil {
		return err
	}
	if v := tbl.Metadata().Version(); v != cfg.formatVersion {
		return fmt.Errorf("table %s: format version %d, want %d", name, v, cfg.formatVersion)
	}
	switch {
	case d.equality > 0:
		return fmt.Errorf("table %s (%s): %s; icegate writes no equality deletes", name, cfg.name, d)
	case cfg.mode == "copy-on-write" && d.positional+d.dvs > 0:
		return fmt.Errorf("table %s (copy-on-write): %s, want none", name, d)
	case cfg.mode == "merge-on-read" && cfg.formatVersion == 2 && (d.positional == 0 || d.dvs > 0):
		return fmt.Errorf("table %s (merge-on-read, v2): %s, want position delete files only", name, d)
	case cfg.mode == "merge-on-read" && cfg.formatVersion >= 3 && (d.dvs == 0 || d.positional > 0):
		return fmt.Errorf("table %s (merge-on-read, v3): %s, want deletion vectors only", name, d)
	}
	return nil
}

// TestIcegateDMLOverIcebergGoDeletes runs icegate's DML, in both write
// modes, on tables iceberg-go wrote with its own deletes (v2 position
// delete files, v3 deletion vectors, equality deletes followed by a
// re-insert of a deleted key), and after every statement wants
// iceberg-go's scan to equal icegate's SELECT *: rows deleted by the other
// engine must stay deleted when icegate rewrites or adds deletes to their
// files, and on v3 icegate's deletion vector for a file must absorb
// iceberg-go's (one per data file).
func TestIcegateDMLOverIcebergGoDeletes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	cat, err := hadoop.NewCatalog("oracle", warehouse, nil)
	if err != nil {
		t.Fatalf("open warehouse: %v", err)
	}
	defer cat.Close()
	if err := cat.CreateNamespace(ctx, table.Identifier{namespace}, nil); err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	type source struct {
		table         func(name string) oracleTable
		formatVersion int
	}
	sources := map[string]source{
		"position": {func(name string) oracleTable {
			return deletesTable(name, iceberg.Properties{table.WriteDeleteModeKey: table.WriteModeMergeOnRead}, "added-position-delete-files")
		}, 2},
		"dv": {func(name string) oracleTable {
			return deletesTable(name, iceberg.Properties{table.PropertyFormatVersion: "3", table.WriteDeleteModeKey: table.WriteModeMergeOnRead},
				"added-position-delete-files", ".puffin")
		}, 3},
		"equality": {func(name string) oracleTable {
			ot := equalityDeletesTable()
			ot.name = name
			return ot
		}, 2},
	}
	// Each step comes with the ids it leaves, from the ids before it, so
	// that a row the other engine deleted and icegate brought back (both
	// readers would then agree) shows too.
	inSource := func(id int64) bool { return id >= 0 && id <= 360 && id%5 == 0 }
	steps := []struct {
		sql string
		ids func(before []int64) []int64
	}{
		{"DELETE FROM %s WHERE id %% 9 = 0", func(b []int64) []int64 {
			return slices.DeleteFunc(b, func(id int64) bool { return id%9 == 0 })
		}},
		{"UPDATE %s SET val = val || '-u', grp = grp + 10 WHERE id %% 4 = 1", func(b []int64) []int64 { return b }},
		{`MERGE INTO %s t USING (SELECT g AS id FROM generate_series(0, 360, 5) g) s ON t.id = s.id
			WHEN MATCHED AND s.id %% 2 = 0 THEN DELETE
			WHEN MATCHED THEN UPDATE SET val = 'merged'
			WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'new', 0)`, func(b []int64) []int64 {
			out := slices.DeleteFunc(slices.Clone(b), func(id int64) bool { return inSource(id) && id%2 == 0 })
			for id := int64(0); id <= 360; id += 5 {
				if !slices.Contains(b, id) {
					out = append(out, id)
				}
			}
			return out
		}},
		{"INSERT INTO %s SELECT g, 'up', 1 FROM generate_series(100, 400, 7) g ON CONFLICT (id) DO UPDATE SET val = EXCLUDED.val", func(b []int64) []int64 {
			out := slices.Clone(b)
			for id := int64(100); id <= 400; id += 7 {
				if !slices.Contains(b, id) {
					out = append(out, id)
				}
			}
			return out
		}},
	}
	var names []string
	for _, kind := range []string{"position", "dv", "equality"} {
		for _, mode := range []string{"copy-on-write", "merge-on-read"} {
			name := fmt.Sprintf("ice_%s_%s", kind, strings.ReplaceAll(mode, "-", "_"))
			if err := writeTable(ctx, cat, table.Identifier{namespace, name}, sources[kind].table(name)); err != nil {
				t.Fatalf("iceberg-go writing %s: %v", name, err)
			}
			names = append(names, name)
		}
	}
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			qname := namespace + "." + name
			mode := "copy-on-write"
			if strings.HasSuffix(name, "merge_on_read") {
				mode = "merge-on-read"
			}
			cfg := dmlOracleConfig{name: mode, mode: mode}
			alter := fmt.Sprintf("ALTER TABLE %s SET TBLPROPERTIES (%s)", qname, cfg.modeProperties())
			if _, err := conn.Exec(ctx, alter); err != nil {
				t.Fatalf("icegate %s: %v", alter, err)
			}
			for i, step := range steps {
				before, err := tableIDs(ctx, conn, qname)
				if err != nil {
					t.Fatal(err)
				}
				sql := fmt.Sprintf(step.sql, qname)
				tag, err := conn.Exec(ctx, sql)
				if err != nil {
					t.Fatalf("step %d: %s: %v", i+1, sql, err)
				}
				if tag.RowsAffected() == 0 {
					t.Fatalf("step %d: %s changed no rows (%s); the check checks nothing", i+1, sql, tag)
				}
				for _, p := range compareScanIn(ctx, conn, warehouse, namespace, name, filterCase{}) {
					t.Errorf("after step %d (%s): %s", i+1, tag, p)
				}
				if _, _, err := planDeleteFiles(ctx, warehouse, table.Identifier{namespace, name}); err != nil {
					t.Errorf("after step %d: %v", i+1, err)
				}
				after, err := tableIDs(ctx, conn, qname)
				if err != nil {
					t.Fatal(err)
				}
				want := step.ids(before)
				slices.Sort(want)
				if !slices.Equal(after, want) {
					t.Errorf("after step %d (%s): ids icegate shows but the step should not leave: %v; ids the step should leave but icegate lacks: %v", i+1, tag, idDiff(after, want), idDiff(want, after))
				}
			}
		})
	}
}

// tableIDs returns the sorted ids of table qname as icegate reads them.
func tableIDs(ctx context.Context, conn *pgx.Conn, qname string) ([]int64, error) {
	rows, err := conn.Query(ctx, "SELECT id FROM "+qname)
	if err != nil {
		return nil, fmt.Errorf("icegate SELECT id FROM %s: %w", qname, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("icegate SELECT id FROM %s: %w", qname, err)
	}
	slices.Sort(ids)
	return ids, nil
}

// idDiff lists the ids of a (sorted) missing from b, as a multiset.
func idDiff(a, b []int64) []int64 {
	count := map[int64]int{}
	for _, id := range b {
		count[id]++
	}
	var out []int64
	for _, id := range a {
		if count[id] > 0 {
			count[id]--
			continue
		}
		out = append(out, id)
	}
	return out
}

// snapshotCount is the number of snapshots in the metadata of table name,
// as iceberg-go reads it.
func snapshotCount(ctx context.Context, warehouse, name string) (int, error) {
	tbl, err := loadTable(ctx, warehouse, table.Identifier{dmlNamespace, name})
	if err != nil {
		return 0, err
	}
	return len(tbl.Metadata().Snapshots()), nil
}
