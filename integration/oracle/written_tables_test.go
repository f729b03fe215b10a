package oracle

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// sqlNamespace is the schema the reverse test creates its tables in.
const sqlNamespace = "written"

// sqlTable is one table the reverse test creates and fills through
// icegate's SQL: create makes it (a CTAS also fills it), then every insert
// statement and every COPY payload adds one snapshot.
type sqlTable struct {
	name    string
	create  string
	inserts []string
	copies  []copyInput
	filters []filterCase
	// formatVersion and partitioning (transform(column) as iceberg-go
	// prints them) are what the table's metadata must say.
	formatVersion int
	partitioning  []string
	// unpruned are the filters (their where) that match rows in every data
	// file; for every other filter iceberg-go must plan fewer data files
	// than for the full scan.
	unpruned []string
	// probeIDs are the rows (their first column as text) whose every value
	// makes an equality filter (see probeFilters).
	probeIDs []string
}

// copyInput is one COPY ... FROM STDIN statement and its payload.
type copyInput struct {
	sql, data string
}

// write runs the table's statements and returns the number of rows each
// snapshot-making statement reported, in order.
func (st sqlTable) write(ctx context.Context, conn *pgx.Conn) ([]int64, error) {
	var added []int64
	tag, err := conn.Exec(ctx, st.create)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", st.create, err)
	}
	if tag.Select() {
		added = append(added, tag.RowsAffected())
	}
	for _, sql := range st.inserts {
		tag, err := conn.Exec(ctx, sql)
		if err != nil {
			return nil, fmt.Errorf("%.200s: %w", sql, err)
		}
		added = append(added, tag.RowsAffected())
	}
	for _, c := range st.copies {
		tag, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(c.data), c.sql)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.sql, err)
		}
		added = append(added, tag.RowsAffected())
	}
	return added, nil
}

// sqlTables are the tables the reverse test writes.
func sqlTables() []sqlTable {
	return []sqlTable{
		typesSQLTable(),
		partIdentitySQLTable(),
		partHashSQLTable(),
		partTimeSQLTable(),
		copySQLTable(),
		ctasSQLTable(),
		nestedSQLTable(),
		partBinarySQLTable(),
	}
}

// qualified names a table in sqlNamespace.
func qualified(name string) string { return sqlNamespace + "." + name }

// insertValues is INSERT INTO table VALUES with one row per element of
// rows, each already SQL text.
func insertValues(table string, rows [][]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s VALUES ", qualified(table))
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + strings.Join(r, ", ") + ")")
	}
	return b.String()
}

// genSQLRows makes rows from..to-1 with gen.
func genSQLRows(from, to int, gen func(int) []string) [][]string {
	rows := make([][]string, 0, to-from)
	for i := from; i < to; i++ {
		rows = append(rows, gen(i))
	}
	return rows
}

// lit is s as a SQL string literal.
func lit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// nullEvery replaces v by NULL on every k-th row, shifted by column.
func nullEvery(i, col, k int, v string) string {
	if (i+col)%k == 0 {
		return "NULL"
	}
	return v
}
