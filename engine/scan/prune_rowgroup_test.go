package scan

import (
	"context"
	"encoding/binary"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// groupRow is a row of the row-group pruning tests: id ascends through the
// file, so each row group covers one range of ids; amount is a wide decimal
// stored as FIXED_LEN_BYTE_ARRAY, whose statistics parquet-go orders as
// unsigned bytes (a group holding -0.5 and 0.5 records min 0.5, max -0.5).
type groupRow struct {
	ID     int64   `parquet:"id"`
	Name   string  `parquet:"name"`
	Amount [9]byte `parquet:"amount,decimal(2:20)"`
	Maybe  *int32  `parquet:"maybe,optional"`
	Inner  *inner  `parquet:"inner,optional"`
}

type inner struct {
	V int64 `parquet:"v"`
}

func amountBytes(unscaled int64) [9]byte {
	var b [9]byte
	binary.BigEndian.PutUint64(b[1:], uint64(unscaled))
	if unscaled < 0 {
		b[0] = 0xff
	}
	return b
}

// writeGroupTable writes one Parquet file of 4 row groups of 100 rows into
// a fresh table and returns the table and its tasks.
func writeGroupTable(t *testing.T) (*catalog.Table, []catalog.FileScanTask) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("wh", filepath.Join(t.TempDir(), "wh"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "groups"}
	tbl, err := cat.CreateTable(ctx, id, catalog.TableSpec{FormatVersion: 2, Schema: &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 2, Name: "name", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TString}},
		{ID: 3, Name: "amount", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 20, Scale: 2}},
		{ID: 4, Name: "maybe", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 5, Name: "inner", Type: &catalog.StructType{Fields: []catalog.NestedField{
			{ID: 6, Name: "v", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}}}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]groupRow, 400)
	for i := range rows {
		rows[i] = groupRow{ID: int64(i), Name: string(rune('a' + i/100)), Amount: amountBytes(int64(i%100 - 50))}
		if i%2 == 0 {
			rows[i].Inner = &inner{V: int64(i)} // odd rows: a null struct
		}
		if i >= 300 {
			v := int32(i)
			rows[i].Maybe = &v // groups 0-2 all null, group 3 none null
		}
	}
	dir := filepath.Join(tbl.Metadata.Location, "data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "groups.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[groupRow](f, parquet.MaxRowsPerRowGroup(100))
	for i := 0; i < len(rows); i += 100 {
		if _, err := w.Write(rows[i : i+100]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	df := &catalog.DataFile{Content: catalog.ContentData, Path: path, Format: catalog.FormatParquet,
		RecordCount: int64(len(rows)), FileSizeInBytes: st.Size()}
	if tbl, err = catalog.Append(ctx, cat, id, []*catalog.DataFile{df}, nil); err != nil {
		t.Fatal(err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	return tbl, tasks
}

// TestRowGroupPruning checks which row groups statistics skip, that the
// rows of the groups read all come back (positions intact for deletes),
// and that the unsigned-ordered decimal statistics never skip a group.
func TestRowGroupPruning(t *testing.T) {
	tbl, tasks := writeGroupTable(t)
	schema := tbl.Metadata.CurrentSchema()
	dec := func(n int64) catalog.Decimal { return catalog.Decimal{Unscaled: big.NewInt(n), Scale: 2} }
	for _, tc := range []struct {
		name        string
		preds       []catalog.Predicate
		wantSkipped int
		wantRows    int64
	}{
		{"no filter", nil, 0, 400},
		{"id equal", []catalog.Predicate{{FieldID: 1, Op: catalog.OpEq, Values: []any{int64(150)}}}, 3, 100},
		{"id range", []catalog.Predicate{{FieldID: 1, Op: catalog.OpGtEq, Values: []any{int64(199)}}, {FieldID: 1, Op: catalog.OpLt, Values: []any{int64(201)}}}, 2, 200},
		{"id in", []catalog.Predicate{{FieldID: 1, Op: catalog.OpIn, Values: []any{int64(5), int64(399)}}}, 2, 200},
		{"id above all", []catalog.Predicate{{FieldID: 1, Op: catalog.OpGt, Values: []any{int64(399)}}}, 4, 0},
		{"name", []catalog.Predicate{{FieldID: 2, Op: catalog.OpEq, Values: []any{"c"}}}, 3, 100},
		{"name below", []catalog.Predicate{{FieldID: 2, Op: catalog.OpLt, Values: []any{"b"}}}, 3, 100},
		{"decimal unsigned stats kept", []catalog.Predicate{{FieldID: 3, Op: catalog.OpEq, Values: []any{dec(-50)}}}, 0, 400},
		{"all-null groups", []catalog.Predicate{{FieldID: 4, Op: catalog.OpIsNotNull}}, 3, 100},
		{"all-null groups compared", []catalog.Predicate{{FieldID: 4, Op: catalog.OpGt, Values: []any{int32(0)}}}, 3, 100},
		{"is null keeps all", []catalog.Predicate{{FieldID: 4, Op: catalog.OpIsNull}}, 0, 400},
		{"struct field", []catalog.Predicate{{FieldID: 6, Op: catalog.OpEq, Values: []any{int64(250)}}}, 3, 100},
		{"struct field null", []catalog.Predicate{{FieldID: 6, Op: catalog.OpIsNull}}, 0, 400},
		{"column missing from filter list", []catalog.Predicate{{FieldID: 99, Op: catalog.OpEq, Values: []any{int64(1)}}}, 0, 400},
	} {
		op := New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: []int{1, 2, 3, 4, 5}, Filters: tc.preds}, Options{BatchSize: 64}).(*Scan)
		if err := op.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		var rows int64
		for {
			rec, err := op.Next()
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if rec == nil {
				break
			}
			rows += rec.NumRows()
		}
		st := op.Stats()
		op.Close()
		if st.RowGroups != 4 || st.RowGroupsSkipped != tc.wantSkipped || rows != tc.wantRows || st.Rows != tc.wantRows {
			t.Errorf("%s: %+v and %d rows; want 4 groups, %d skipped, %d rows", tc.name, st, rows, tc.wantSkipped, tc.wantRows)
		}
	}
}
