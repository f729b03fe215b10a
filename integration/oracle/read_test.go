package oracle

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5"
)

// readTable scans the current snapshot of table ident in the Hadoop-layout
// warehouse with iceberg-go and returns its column names and rows as
// canonical PostgreSQL text. Options (a row filter) go to the scan.
func readTable(ctx context.Context, warehouse string, ident table.Identifier, opts ...table.ScanOption) ([]string, [][]cell, error) {
	tbl, err := loadTable(ctx, warehouse, ident)
	if err != nil {
		return nil, nil, err
	}
	return scanTable(ctx, tbl, opts...)
}

// scanTable is iceberg-go's scan of tbl: its column names and its rows as
// canonical cells.
func scanTable(ctx context.Context, tbl *table.Table, opts ...table.ScanOption) ([]string, [][]cell, error) {
	ident := tbl.Identifier()
	sc, batches, err := tbl.Scan(opts...).ToArrowRecords(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("scan %v: %w", ident, err)
	}
	names := make([]string, sc.NumFields())
	for i, f := range sc.Fields() {
		names[i] = f.Name
	}
	var rows [][]cell
	for rec, err := range batches {
		if err != nil {
			return nil, nil, fmt.Errorf("scan %v: %w", ident, err)
		}
		rows, err = canonRecord(rows, rec)
		rec.Release()
		if err != nil {
			return nil, nil, fmt.Errorf("scan %v: %w", ident, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	return names, rows, nil
}

// loadTable loads table ident with iceberg-go's Hadoop catalog over
// warehouse.
func loadTable(ctx context.Context, warehouse string, ident table.Identifier) (*table.Table, error) {
	cat, err := hadoop.NewCatalog("oracle", warehouse, nil)
	if err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", warehouse, err)
	}
	defer cat.Close()
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return nil, fmt.Errorf("load %v: %w", ident, err)
	}
	return tbl, nil
}

// TestIcegateWritesIcebergGoReads creates and fills every sqlTable through
// icegate's SQL (several statements, so several snapshots), then loads each
// with iceberg-go's Hadoop catalog over the same warehouse and checks that
// iceberg-go's scans (full and filtered) return what icegate's SELECT
// returns, and that the snapshot chain and summaries are right.
func TestIcegateWritesIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+sqlNamespace); err != nil {
		t.Fatalf("icegate CREATE SCHEMA %s: %v", sqlNamespace, err)
	}
	t.Run("known_sql_bugs", func(t *testing.T) { checkKnownSQLBugs(ctx, t, conn) })
	for _, st := range sqlTables() {
		t.Run(st.name, func(t *testing.T) {
			added, err := st.write(ctx, conn)
			if err != nil {
				t.Fatalf("icegate writing %s: %v", st.name, err)
			}
			var problems []string
			problems = append(problems, compareScan(ctx, t, conn, warehouse, st.name, filterCase{})...)
			for _, f := range st.filters {
				problems = append(problems, compareScan(ctx, t, conn, warehouse, st.name, f)...)
			}
			if len(st.probeIDs) > 0 {
				cols, rows, err := queryText(ctx, conn, fmt.Sprintf("SELECT * FROM %s", qualified(st.name)))
				if err != nil {
					t.Fatalf("icegate SELECT * FROM %s: %v", st.name, err)
				}
				probes, err := probeFilters(ctx, warehouse, st.name, cols, rows, st.probeIDs)
				if err != nil {
					t.Fatalf("probe filters for %s: %v", st.name, err)
				}
				for _, f := range probes {
					problems = append(problems, compareScan(ctx, t, conn, warehouse, st.name, f)...)
				}
			}
			problems = append(problems, checkLayout(ctx, warehouse, st)...)
			problems = append(problems, checkSnapshots(ctx, warehouse, st.name, added)...)
			checkKnown(t, st.name, problems)
		})
	}
}

// compareScan compares icegate's SELECT * (with f.where when set) with
// iceberg-go's scan of the same table (filtered by f.expr) and describes
// every difference.
func compareScan(ctx context.Context, t *testing.T, conn *pgx.Conn, warehouse, name string, f filterCase) []string {
	t.Helper()
	label := name
	sql := fmt.Sprintf("SELECT * FROM %s.%s", sqlNamespace, name)
	var opts []table.ScanOption
	if f.where != "" {
		label += " where " + f.where
		sql += " WHERE " + f.where
		opts = append(opts, table.WithRowFilter(f.expr))
	}
	wantCols, want, err := readTable(ctx, warehouse, table.Identifier{sqlNamespace, name}, opts...)
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
	t.Logf("%s: icegate %d rows, iceberg-go %d", label, len(got), len(want))
	var out []string
	for _, d := range diffRows(wantCols, got, want) {
		out = append(out, fmt.Sprintf("table %s: %s", label, d))
	}
	if f.where == "" {
		return append(out, checkFileMetrics(ctx, warehouse, name, gotCols, got)...)
	}
	// Both sides may prune with the same (icegate-written) partition
	// summaries and column metrics, so check the filtered scan against
	// the predicate evaluated as a column over every row, which nothing
	// can prune.
	ref, err := unprunedRows(ctx, conn, name, f.where)
	if err != nil {
		return append(out, fmt.Sprintf("icegate unpruned reference for %s: %v", label, err))
	}
	for _, d := range diffRows(wantCols, ref, want) {
		out = append(out, fmt.Sprintf("table %s (iceberg-go pruned scan against every row): %s", label, d))
	}
	return out
}

// unprunedRows returns the rows of table name for which where is true,
// selecting every row with where as an extra column, so that no partition
// or metrics pruning can drop a row.
func unprunedRows(ctx context.Context, conn *pgx.Conn, name, where string) ([][]cell, error) {
	sql := fmt.Sprintf("SELECT *, (%s) IS TRUE AS keep_row FROM %s.%s", where, sqlNamespace, name)
	_, rows, err := queryText(ctx, conn, sql)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sql, err)
	}
	var out [][]cell
	for _, r := range rows {
		if keep := r[len(r)-1]; keep.null || (keep.text != "t" && keep.text != "f") {
			return nil, fmt.Errorf("%s: keep_row is %s", sql, keep.display())
		} else if keep.text == "t" {
			out = append(out, r[:len(r)-1])
		}
	}
	return out, nil
}

// plannedFiles is the number of data files iceberg-go plans to read for a
// scan of table name with opts.
func plannedFiles(ctx context.Context, warehouse, name string, opts ...table.ScanOption) (int, error) {
	tbl, err := loadTable(ctx, warehouse, table.Identifier{sqlNamespace, name})
	if err != nil {
		return 0, err
	}
	tasks, err := tbl.Scan(opts...).PlanFiles(ctx)
	if err != nil {
		return 0, fmt.Errorf("plan scan of %s: %w", name, err)
	}
	return len(tasks), nil
}

// checkSnapshots walks the current snapshot's ancestry with iceberg-go and
// checks that there is one snapshot per writing statement, each the child of
// the one before, with added-records and total-records as the statements'
// row counts say.
func checkSnapshots(ctx context.Context, warehouse, name string, added []int64) []string {
	tbl, err := loadTable(ctx, warehouse, table.Identifier{sqlNamespace, name})
	if err != nil {
		return []string{err.Error()}
	}
	md := tbl.Metadata()
	var chain []table.Snapshot
	for s := md.CurrentSnapshot(); s != nil; {
		chain = append(chain, *s)
		if s.ParentSnapshotID == nil {
			break
		}
		parent := md.SnapshotByID(*s.ParentSnapshotID)
		if parent == nil {
			return []string{fmt.Sprintf("table %s: snapshot %d has parent %d, which the metadata does not hold", name, s.SnapshotID, *s.ParentSnapshotID)}
		}
		s = parent
	}
	slices.Reverse(chain)
	var out []string
	if len(chain) != len(added) || len(md.Snapshots()) != len(added) {
		out = append(out, fmt.Sprintf("table %s: %d writing statements, %d snapshots in the current ancestry, %d in the metadata", name, len(added), len(chain), len(md.Snapshots())))
	}
	var total int64
	for i, s := range chain {
		if i == 0 && s.ParentSnapshotID != nil {
			out = append(out, fmt.Sprintf("table %s: first snapshot %d has a parent", name, s.SnapshotID))
		}
		if i >= len(added) {
			break
		}
		total += added[i]
		var props map[string]string
		if s.Summary != nil {
			props = s.Summary.Properties
		}
		for key, want := range map[string]int64{"added-records": added[i], "total-records": total} {
			if got := props[key]; got != strconv.FormatInt(want, 10) {
				out = append(out, fmt.Sprintf("table %s: snapshot %d (statement %d) summary %s = %q, want %d", name, s.SnapshotID, i+1, key, got, want))
			}
		}
		if s.Summary == nil || s.Summary.Operation != table.OpAppend {
			out = append(out, fmt.Sprintf("table %s: snapshot %d operation %v, want append", name, s.SnapshotID, s.Summary))
		}
		out = append(out, checkLineage(md, name, i, s, added[i], total-added[i])...)
	}
	if md.Version() >= 2 && md.LastSequenceNumber() != int64(len(chain)) {
		out = append(out, fmt.Sprintf("table %s: last-sequence-number %d, want %d", name, md.LastSequenceNumber(), len(chain)))
	}
	if md.Version() >= 3 && md.NextRowID() != total {
		out = append(out, fmt.Sprintf("table %s: next-row-id %d, want %d (rows added to the table)", name, md.NextRowID(), total))
	}
	return out
}

// checkLineage checks the i-th snapshot (0-based) of a table that only
// ever appended: in v2 and later its sequence number is i+1; in v3 its
// first-row-id is the rows added before it (the table's next-row-id at
// commit) and its added-rows the rows it added.
func checkLineage(md table.Metadata, name string, i int, s table.Snapshot, added, before int64) []string {
	var out []string
	if md.Version() >= 2 && s.SequenceNumber != int64(i+1) {
		out = append(out, fmt.Sprintf("table %s: snapshot %d (statement %d) sequence-number %d, want %d", name, s.SnapshotID, i+1, s.SequenceNumber, i+1))
	}
	if md.Version() < 3 {
		return out
	}
	if s.FirstRowID == nil || *s.FirstRowID != before {
		out = append(out, fmt.Sprintf("table %s: snapshot %d (statement %d) first-row-id %s, want %d", name, s.SnapshotID, i+1, optInt(s.FirstRowID), before))
	}
	if s.AddedRows == nil || *s.AddedRows != added {
		out = append(out, fmt.Sprintf("table %s: snapshot %d (statement %d) added-rows %s, want %d", name, s.SnapshotID, i+1, optInt(s.AddedRows), added))
	}
	return out
}

func optInt(p *int64) string {
	if p == nil {
		return "absent"
	}
	return strconv.FormatInt(*p, 10)
}
