package oracle

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// oracleTable is one table the write test creates with iceberg-go: its
// schema, partitioning and properties at creation, then fill, which makes
// its snapshots (appends, schema changes, deletes).
type oracleTable struct {
	name   string
	props  iceberg.Properties
	schema *iceberg.Schema
	spec   []partitionField
	fill   func(ctx context.Context, tbl *table.Table) (*table.Table, error)
	// evidence is what fill must have written for the table to test what
	// it is named for: snapshot summary counters that must be non-zero in
	// some snapshot, and file name suffixes that must occur in the table.
	evidence []string
	// filters are WHERE clauses checked besides SELECT *, each with the
	// same predicate as an iceberg-go row filter (partition pruning and
	// residuals on both sides).
	filters []filterCase
}

// filterCase is one WHERE clause and its iceberg-go expression.
type filterCase struct {
	where string
	expr  iceberg.BooleanExpression
}

func ref(name string) iceberg.Reference { return iceberg.Reference(name) }

func days(y int, m time.Month, d int) iceberg.Date {
	return iceberg.Date(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func micros(y int, m time.Month, d, h int) iceberg.Timestamp {
	return iceberg.Timestamp(time.Date(y, m, d, h, 0, 0, 0, time.UTC).UnixMicro())
}

type partitionField struct {
	source, name string
	transform    iceberg.Transform
}

func field(id int, name string, typ iceberg.Type, required bool) iceberg.NestedField {
	return iceberg.NestedField{ID: id, Name: name, Type: typ, Required: required}
}

var (
	tBool   = iceberg.PrimitiveTypes.Bool
	tInt    = iceberg.PrimitiveTypes.Int32
	tLong   = iceberg.PrimitiveTypes.Int64
	tFloat  = iceberg.PrimitiveTypes.Float32
	tDouble = iceberg.PrimitiveTypes.Float64
	tDate   = iceberg.PrimitiveTypes.Date
	tTime   = iceberg.PrimitiveTypes.Time
	tTs     = iceberg.PrimitiveTypes.Timestamp
	tTstz   = iceberg.PrimitiveTypes.TimestampTz
	tString = iceberg.PrimitiveTypes.String
	tUUID   = iceberg.PrimitiveTypes.UUID
	tBinary = iceberg.PrimitiveTypes.Binary
)

// appendRows appends rows (in the table's current schema) as one snapshot.
func appendRows(ctx context.Context, tbl *table.Table, rows [][]any) (*table.Table, error) {
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
	if err != nil {
		return nil, fmt.Errorf("arrow schema of %v: %w", tbl.Identifier(), err)
	}
	rec, err := buildRecord(sc, rows)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	rdr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
	if err != nil {
		return nil, err
	}
	defer rdr.Release()
	next, err := tbl.Append(ctx, rdr, nil)
	if err != nil {
		return nil, fmt.Errorf("append to %v: %w", tbl.Identifier(), err)
	}
	return next, nil
}

// genRows makes rows from..to-1 with gen.
func genRows(from, to int, gen func(i int) []any) [][]any {
	rows := make([][]any, 0, to-from)
	for i := from; i < to; i++ {
		rows = append(rows, gen(i))
	}
	return rows
}

// nullAt reports whether column c of row i is NULL in the generated data:
// a spread of NULLs after the first rows (which hold the edge values) and
// the last row NULL in every optional column.
func nullAt(i, c, last int) bool {
	return i == last || (i >= 20 && (i+c)%11 == 5)
}

// pick returns specials[i] for the first rows, else the regular value.
func pick[T any](i int, specials []T, regular T) T {
	if i < len(specials) {
		return specials[i]
	}
	return regular
}

// inexactSum is 0.1 + 0.2 in float64 arithmetic (a constant expression
// would be exact).
func inexactSum() float64 {
	a, b := 0.1, 0.2
	return a + b
}

const day = 86400 * 1_000_000 // microseconds

func bigDecimal(s string) decimal128.Num {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("bad decimal literal " + s)
	}
	return decimal128.FromBigInt(v)
}

// oracleTables is every table the write test checks.
func oracleTables() []oracleTable {
	return []oracleTable{
		typesTable(),
		nestedTable(),
		partValueTable(),
		partTimeTable(),
		partEvolveTable(),
		evolveTable(),
		v3Table(),
		deletesTable("deletes_cow", nil, "deleted-data-files"),
		deletesTable("deletes_position", iceberg.Properties{table.WriteDeleteModeKey: table.WriteModeMergeOnRead},
			"added-position-delete-files"),
		deletesTable("deletes_dv", iceberg.Properties{table.PropertyFormatVersion: "3", table.WriteDeleteModeKey: table.WriteModeMergeOnRead},
			"added-position-delete-files", ".puffin"),
		equalityDeletesTable(),
		overwriteTable(),
		deletesTable("v1_deletes", iceberg.Properties{table.PropertyFormatVersion: "1"}, "deleted-data-files"),
	}
}
