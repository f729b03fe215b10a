package write

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// oneValue builds a one-row array of Iceberg type t from a JSON value.
func oneValue(t *testing.T, typ catalog.Type, js string) arrow.Array {
	t.Helper()
	s := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "v", Type: typ}}}
	rec := recordFromJSON(t, s, `[{"v": `+js+`}]`)
	defer rec.Release()
	col := rec.Column(0)
	col.Retain()
	return col
}

// TestBucketHashSpecValues checks the hash of the spec's Appendix B
// examples. The spec's test UUID is f79c3e09-677c-4bbd-a479-3f349cb785e7
// (its note 3); the hash of bytes 00 01 02 03 is -188683207 (older spec
// revisions print it without the sign).
func TestBucketHashSpecValues(t *testing.T) {
	tests := []struct {
		typ  catalog.Type
		js   string
		hash int32
	}{
		{prim(catalog.TInt), `34`, 2017239379},
		{prim(catalog.TLong), `34`, 2017239379},
		{&catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}, `"14.20"`, -500754589},
		{prim(catalog.TDate), `"2017-11-16"`, -653330422},
		{prim(catalog.TTime), `"22:31:08"`, -662762989},
		{prim(catalog.TTimestamp), `"2017-11-16T22:31:08"`, -2047944441},
		{prim(catalog.TTimestamptz), `"2017-11-16T14:31:08-08:00"`, -2047944441},
		{prim(catalog.TTimestampNs), `"2017-11-16T22:31:08"`, -2047944441},
		{prim(catalog.TString), `"iceberg"`, 1210000089},
		{prim(catalog.TUUID), `"95w+CWd8S72keT80nLeF5w=="`, 1488055340},
		{&catalog.PrimitiveType{ID: catalog.TFixed, Length: 4}, `"AAECAw=="`, -188683207},
		{prim(catalog.TBinary), `"AAECAw=="`, -188683207},
	}
	for _, tc := range tests {
		t.Run(tc.typ.String(), func(t *testing.T) {
			arr := oneValue(t, tc.typ, tc.js)
			defer arr.Release()
			p, err := NewPartitionTransform(catalog.Transform{Name: "bucket", Param: 16}, tc.typ)
			if err != nil {
				t.Fatal(err)
			}
			h, err := p.hash(arr, 0)
			if err != nil {
				t.Fatal(err)
			}
			if int32(h) != tc.hash {
				t.Errorf("hash = %d, want %d", int32(h), tc.hash)
			}
			v, err := p.Value(arr, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := int32((uint32(tc.hash) & 0x7fffffff) % 16); v != want {
				t.Errorf("bucket[16] = %v, want %d", v, want)
			}
		})
	}
}

// TestTransforms checks truncate, the time transforms, identity and void,
// negative values included, against values worked out from the spec.
func TestTransforms(t *testing.T) {
	dec := func(unscaled int64, scale int) catalog.Decimal {
		return catalog.Decimal{Unscaled: bigInt(unscaled), Scale: scale}
	}
	tests := []struct {
		transform catalog.Transform
		typ       catalog.Type
		js        string
		want      any
	}{
		{catalog.Transform{Name: "truncate", Param: 10}, prim(catalog.TInt), `1`, int32(0)},
		{catalog.Transform{Name: "truncate", Param: 10}, prim(catalog.TInt), `-1`, int32(-10)},
		{catalog.Transform{Name: "truncate", Param: 10}, prim(catalog.TLong), `-10`, int64(-10)},
		{catalog.Transform{Name: "truncate", Param: 10}, prim(catalog.TLong), `19`, int64(10)},
		{catalog.Transform{Name: "truncate", Param: 50}, &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}, `"10.65"`, dec(1050, 2)},
		{catalog.Transform{Name: "truncate", Param: 50}, &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}, `"-0.05"`, dec(-50, 2)},
		{catalog.Transform{Name: "truncate", Param: 3}, prim(catalog.TString), `"iceberg"`, "ice"},
		{catalog.Transform{Name: "truncate", Param: 3}, prim(catalog.TString), `"ünïcödé"`, "ünï"},
		{catalog.Transform{Name: "truncate", Param: 2}, prim(catalog.TBinary), `"AAECAw=="`, []byte{0, 1}},
		{catalog.Transform{Name: "year"}, prim(catalog.TDate), `"2017-11-16"`, int32(47)},
		{catalog.Transform{Name: "year"}, prim(catalog.TDate), `"1969-12-31"`, int32(-1)},
		{catalog.Transform{Name: "month"}, prim(catalog.TDate), `"2017-11-16"`, int32(574)},
		{catalog.Transform{Name: "month"}, prim(catalog.TTimestamp), `"1969-12-31T23:59:59"`, int32(-1)},
		{catalog.Transform{Name: "day"}, prim(catalog.TDate), `"2017-11-16"`, int32(17486)},
		{catalog.Transform{Name: "day"}, prim(catalog.TTimestamptz), `"1969-12-31T23:59:59.999999Z"`, int32(-1)},
		{catalog.Transform{Name: "hour"}, prim(catalog.TTimestamp), `"2017-11-16T22:31:08"`, int32(419686)},
		{catalog.Transform{Name: "hour"}, prim(catalog.TTimestamp), `"1969-12-31T23:00:00.000001"`, int32(-1)},
		{catalog.Transform{Name: "hour"}, prim(catalog.TTimestampNs), `"1970-01-01T01:00:00.000000001"`, int32(1)},
		{catalog.Transform{Name: "identity"}, prim(catalog.TString), `"x y"`, "x y"},
		{catalog.Transform{Name: "identity"}, prim(catalog.TDate), `"1970-01-02"`, int32(1)},
		{catalog.Transform{Name: "void"}, prim(catalog.TLong), `5`, nil},
		{catalog.Transform{Name: "bucket", Param: 4}, prim(catalog.TLong), `null`, nil},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s(%s %s)", transformString(tc.transform), tc.typ, tc.js), func(t *testing.T) {
			arr := oneValue(t, tc.typ, tc.js)
			defer arr.Release()
			p, err := NewPartitionTransform(tc.transform, tc.typ)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Apply(arr)
			if err != nil {
				t.Fatal(err)
			}
			if !catalog.ValuesEqual(got[0], tc.want) || fmt.Sprintf("%T", got[0]) != fmt.Sprintf("%T", tc.want) {
				t.Errorf("got %#v, want %#v", got[0], tc.want)
			}
		})
	}
	// transforms the spec does not define for a type
	for _, tc := range []struct {
		transform catalog.Transform
		typ       catalog.Type
	}{
		{catalog.Transform{Name: "bucket", Param: 4}, prim(catalog.TDouble)},
		{catalog.Transform{Name: "hour"}, prim(catalog.TDate)},
		{catalog.Transform{Name: "truncate", Param: 4}, prim(catalog.TUUID)},
		{catalog.Transform{Name: "day"}, prim(catalog.TString)},
	} {
		_, err := NewPartitionTransform(tc.transform, tc.typ)
		wantCode(t, err, pgerr.FeatureNotSupported)
	}
}

// TestTransformsMatchFixtures recomputes the partition tuple of every row
// of tables written by Spark, Trino and Impala and compares it with the
// partition values their manifests record for the row's file.
func TestTransformsMatchFixtures(t *testing.T) {
	for _, name := range []string{
		"duckdb__partition_bucket_test", "lithium__bucket_partitioning", "impala__iceberg_column_case_sensitivity_issue",
		"lithium__day_timestamptz_partitioning", "lithium__hour_timestamptz_partitioning",
		"lithium__month_timestamptz_partitioning", "lithium__year_date_partitioning",
		"lithium__year_timestamp_partitioning", "lithium__year_timestamptz_partitioning",
		"duckdb__partition_timestamp_year", "impala__iceberg_timestamp_part", "impala__iceberg_timestamptz_part",
		"lithium__identity_partitioning", "lithium__decimal_partitioning", "lithium__partitioning_with_null_value",
		"duckdb__partition_fixed_length_binary", "duckdb__partition_time", "duckdb__partition_binary",
	} {
		t.Run(name, func(t *testing.T) {
			tbl, tasks := loadFixture(t, name)
			schema := tbl.Metadata.CurrentSchema()
			rows := 0
			for _, task := range tasks {
				spec := task.Spec
				var transforms []*PartitionTransform
				var cols []int
				for _, pf := range spec.Fields {
					path, src := sourcePath(schema, pf.SourceID)
					if src == nil || len(path) != 1 {
						t.Fatalf("source %d of %s is not a top-level column", pf.SourceID, pf.Name)
					}
					p, err := NewPartitionTransform(pf.Transform, src.Type)
					if err != nil {
						t.Fatal(err)
					}
					transforms = append(transforms, p)
					cols = append(cols, path[0])
				}
				recs := scanRecords(t, tbl, schema, []catalog.FileScanTask{{File: task.File, Spec: spec}})
				for _, rec := range recs {
					for j, p := range transforms {
						vals, err := p.Apply(rec.Column(cols[j]))
						if err != nil {
							t.Fatal(err)
						}
						for i, v := range vals {
							if want := task.File.Partition[j]; !catalog.ValuesEqual(v, want) {
								t.Fatalf("%s row %d field %s: computed %#v, manifest has %#v",
									task.File.Path, i, spec.Fields[j].Name, v, want)
							}
						}
					}
					rows += int(rec.NumRows())
				}
				releaseAll(recs)
			}
			if rows == 0 {
				t.Fatalf("checked no rows")
			}
			t.Logf("%d rows in %d files match their partition tuples", rows, len(tasks))
			checkRewrite(t, tbl, tasks)
		})
	}
}

// checkRewrite writes a fixture table's rows again with its current spec:
// the writer must put as many rows in each partition as the fixture has.
func checkRewrite(t *testing.T, tbl *catalog.Table, tasks []catalog.FileScanTask) {
	t.Helper()
	schema := tbl.Metadata.CurrentSchema()
	var spec *catalog.PartitionSpec
	for _, s := range tbl.Metadata.PartitionSpecs {
		if s.ID == tbl.Metadata.DefaultSpecID {
			spec = s
		}
	}
	type part struct {
		tuple []any
		rows  int64
	}
	var want []part
	add := func(parts []part, tuple []any, n int64) []part {
		for i := range parts {
			if tuplesEqual(parts[i].tuple, tuple) {
				parts[i].rows += n
				return parts
			}
		}
		return append(parts, part{tuple, n})
	}
	for _, task := range tasks {
		if task.Spec.ID != spec.ID {
			return // written under an older spec: the partitions differ
		}
		want = add(want, task.File.Partition, task.File.RecordCount)
	}
	recs := scanRecords(t, tbl, schema, tasks)
	defer releaseAll(recs)
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, Spec: spec}, recs...)
	var got []part
	for _, f := range files {
		got = add(got, f.Partition, f.RecordCount)
	}
	if len(got) != len(want) {
		t.Fatalf("rewrite made %d partitions, fixture has %d", len(got), len(want))
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			if tuplesEqual(g.tuple, w.tuple) {
				found = true
				if g.rows != w.rows {
					t.Errorf("partition %v: %d rows written, fixture has %d", w.tuple, g.rows, w.rows)
				}
			}
		}
		if !found {
			t.Errorf("partition %v of the fixture was not written", w.tuple)
		}
	}
	t.Logf("rewrite: %d partitions with the fixture's row counts", len(got))
}

func tuplesEqual(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !catalog.ValuesEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}
