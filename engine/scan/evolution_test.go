package scan

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/fixtures"
)

// readWithPqarrow reads Parquet files with arrow-go's reader (a second,
// independent reader, used in tests only).
func readWithPqarrow(t *testing.T, paths []string) []arrow.RecordBatch {
	t.Helper()
	var out []arrow.RecordBatch
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := file.NewParquetReader(f)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
			rec := rr.RecordBatch()
			rec.Retain()
			out = append(out, rec)
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		pr.Close()
	}
	return out
}

// TestGeneratedSpecAgainstExpectedRows compares the duckdb generator tables
// (13 types; a column added, then promoted int -> long) with the expected
// rows the origin ships, read by a second Parquet reader.
func TestGeneratedSpecAgainstExpectedRows(t *testing.T) {
	for _, name := range []string{"duckdb__generated_spec1_0_001", "duckdb__generated_spec2_0_001"} {
		t.Run(name, func(t *testing.T) {
			paths, _ := filepath.Glob(filepath.Join(fixtures.Dir(t), "answers", name, "expected_rows", "*.parquet"))
			if len(paths) == 0 {
				t.Fatal("no expected rows")
			}
			exp := readWithPqarrow(t, paths)
			want := formatRows(exp)
			releaseRecs(exp)

			tbl, tasks := loadTable(t, name)
			schema := tbl.Metadata.CurrentSchema()
			mem := newChecked(t)
			recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
				Options{Alloc: mem, BatchSize: 1000})
			if err != nil {
				t.Fatal(err)
			}
			got := formatRows(recs)
			releaseRecs(recs)
			mem.AssertSize(t, 0)
			slices.Sort(got)
			slices.Sort(want)
			if len(got) != len(want) {
				t.Fatalf("rows = %d, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("row %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}

// TestSchemaEvolution reads tables whose files predate the read schema and
// checks the projected values (rows as JSON, sorted).
func TestSchemaEvolution(t *testing.T) {
	cases := []struct {
		table string
		what  string
		ids   []int // nil: all columns
		want  []string
	}{
		{
			table: "duckdb__add_columns_with_defaults",
			what:  "v3 initial defaults of 14 types for columns added after the first file",
			ids:   []int{1, 2, 3, 4, 7, 8, 9, 11, 13, 14, 15},
			want: []string{
				`{"col1":"click","col_binary":"AQI=","col_boolean":true,"col_date":"2003-10-20","col_decimal":"12345","col_fixed":"AQID/wM=","col_integer":342342,"col_long":-9223372036854775808,"col_time":"00:00:00.012345","col_timestamptz":"1970-01-01T00:00:00.012345Z","col_uuid":"95w+CWd8S72keT80nLeF5w=="}`,
				`{"col1":"purchase","col_binary":"AQI=","col_boolean":true,"col_date":"2003-10-20","col_decimal":"12345","col_fixed":"AQID/wM=","col_integer":342342,"col_long":-9223372036854775808,"col_time":"00:00:00.012345","col_timestamptz":"1970-01-01T00:00:00.012345Z","col_uuid":"95w+CWd8S72keT80nLeF5w=="}`,
				`{"col1":"test","col_binary":"gACA","col_boolean":false,"col_date":"0011-03-05","col_decimal":"3423434.23","col_fixed":"gACAAIA=","col_integer":453243,"col_long":328725092345834,"col_time":"12:06:45","col_timestamptz":"2023-05-15T14:30:45Z","col_uuid":"Ag1Px6zWRayyFnhz9AOOHw=="}`,
			},
		},
		{
			table: "duckdb__add_columns_with_defaults_in_struct",
			what:  "defaults of fields added inside a struct",
			want: []string{
				`{"a":{"col1":"test","col_binary":"AQI=","col_boolean":true,"col_date":"2003-10-20","col_decimal":"12345","col_double":0.342343242342342,"col_fixed":"AQID/wM=","col_float":0.34234,"col_integer":342342,"col_long":-9223372036854775808,"col_string":"HELLO","col_time":"00:00:00.012345","col_timestamp":"1970-01-01T00:00:00.012345","col_timestamptz":"1970-01-01T00:00:00.012345Z","col_uuid":"95w+CWd8S72keT80nLeF5w=="}}`,
				`{"a":{"col1":"test","col_binary":"gACA","col_boolean":false,"col_date":"0011-03-05","col_decimal":"3423434.23","col_double":23.343424523423433,"col_fixed":null,"col_float":23.34342,"col_integer":453243,"col_long":328725092345834,"col_string":"World","col_time":"12:06:45","col_timestamp":"0011-03-05T12:06:45","col_timestamptz":null,"col_uuid":null}}`,
			},
		},
		{
			table: "impala__iceberg_legacy_partition_schema_evolution",
			what:  "identity partition values absent from migrated files, manifests in pre-promotion types",
			want: []string{
				`{"i":1,"p_dec_dec":"3.141","p_float_double":1.100000023841858,"p_int_long":1}`,
				`{"i":2,"p_dec_dec":"2.718","p_float_double":1.100000023841858,"p_int_long":1}`,
			},
		},
		{
			table: "impala__iceberg_migrated_complex_test",
			what:  "nested struct/list/map in a migrated file matched by names",
			want: []string{
				`{"int_bigint_map_col":[{"key":2,"value":3}],"struct_1_col":{"bool_int_map_col":[{"key":true,"value":1}],"int_array_col":[0],"string_col":"A"},"struct_2_col":{"int_int_map_col":[{"key":5,"value":6}],"struct_3_col":{"bigint_array_col":[4],"float_col":0.5,"string_double_map_col":[{"key":"B","value":1.5}]}}}`,
			},
		},
		{
			table: "impala__test_complex_default",
			what:  "struct column added later reads NULL; timestamptz default",
			want: []string{
				`{"i":1,"j":null,"ts_tz":"2024-01-15T10:30:45.123456Z"}`,
				`{"i":2,"j":{"f1":100,"f2":"hello"},"ts_tz":"2024-12-26T02:30:45.123456Z"}`,
			},
		},
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			tbl, tasks := loadTable(t, c.table)
			schema := tbl.Metadata.CurrentSchema()
			ids := c.ids
			if ids == nil {
				ids = allFieldIDs(schema)
			}
			mem := newChecked(t)
			recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}, Options{Alloc: mem})
			if err != nil {
				t.Fatalf("%s: %v", c.what, err)
			}
			got := jsonRows(t, recs)
			releaseRecs(recs)
			mem.AssertSize(t, 0)
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.what, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// jsonRows renders each row as a JSON object (arrow's JSON form).
func jsonRows(t *testing.T, recs []arrow.RecordBatch) []string {
	t.Helper()
	var out []string
	for _, r := range recs {
		for i := range r.NumRows() {
			one := r.NewSlice(i, i+1)
			b, err := one.MarshalJSON()
			one.Release()
			if err != nil {
				t.Fatal(err)
			}
			s := strings.TrimSpace(string(b))
			s = strings.TrimPrefix(s, "[")
			s = strings.TrimSuffix(s, "]")
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}
