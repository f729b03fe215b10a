package scan

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan/orcfile/orctest"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestORCNestedTypes reads Impala's complextypestbl written to ORC with
// Iceberg ids: lists of lists, maps, lists of maps, and structs nesting
// all of them, with nulls at every level.
func TestORCNestedTypes(t *testing.T) {
	want := []string{
		`1|[1,2,3]|[[1,2],[3,4]]|[{"key":"k1","value":1},{"key":"k2","value":100}]|[[{"key":"k1","value":1}]]|{"a":1,"b":[1],"c":{"d":[[{"e":10,"f":"aaa"},{"e":-10,"f":"bbb"}],[{"e":11,"f":"c"}]]},"g":[{"key":"foo","value":{"h":{"i":[1.1]}}}]}`,
		`2|[null,1,2,null,3,null]|[[null,1,2,null],[3,null,4],[],null]|[{"key":"k1","value":2},{"key":"k2","value":null}]|[[{"key":"k1","value":1},{"key":"k3","value":null}],null,[]]|{"a":null,"b":[null],"c":{"d":[[{"e":null,"f":null},{"e":10,"f":"aaa"},{"e":null,"f":null},{"e":-10,"f":"bbb"},{"e":null,"f":null}],[{"e":11,"f":"c"},null],[],null]},"g":[{"key":"g1","value":{"h":{"i":[2.2,null]}}},{"key":"g2","value":{"h":{"i":[]}}},{"key":"g3","value":null},{"key":"g4","value":{"h":{"i":null}}},{"key":"g5","value":{"h":null}}]}`,
		`3|[]|[null]|[]|[null,null]|{"a":null,"b":null,"c":{"d":[]},"g":[]}`,
		`4|NULL|[]|[]|[]|{"a":null,"b":null,"c":{"d":null},"g":null}`,
		`5|NULL|NULL|[]|NULL|{"a":null,"b":null,"c":null,"g":[{"key":"foo","value":{"h":{"i":[2.2,3.3]}}}]}`,
		`6|NULL|NULL|NULL|NULL|NULL`,
		`7|NULL|[null,[5,6]]|[{"key":"k1","value":null},{"key":"k3","value":null}]|NULL|{"a":7,"b":[2,3,null],"c":{"d":[[],[null],null]},"g":null}`,
		`8|[-1]|[[-1,-2],[]]|[{"key":"k1","value":-1}]|[[],[{"key":"k1","value":1}],[],[]]|{"a":-1,"b":[-1],"c":{"d":[[{"e":-1,"f":"nonnullable"}]]},"g":[]}`,
	}
	for _, batch := range []int{1, 3, 1000} {
		got := scanRows(t, "impala__complextypestbl_iceberg_orc", batch)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("batch %d:\ngot:\n%s\nwant:\n%s", batch, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestORCProjectionAndPartitionFill reads a subset of columns in another
// order, including identity-partition columns that the data file lacks.
func TestORCProjectionAndPartitionFill(t *testing.T) {
	tbl, tasks := loadTable(t, "impala__iceberg_partitioned_orc")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: []int{3, 1}},
		Options{Alloc: mem, BatchSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	got := formatRows(recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	if len(got) != 20 {
		t.Fatalf("rows = %d, want 20", len(got))
	}
	counts := map[string]int{}
	for _, r := range got {
		counts[strings.SplitN(r, "|", 2)[0]]++
	}
	if counts["view"] != 8 || counts["click"] != 6 || counts["download"] != 6 {
		t.Errorf("action counts = %v, want view 8, click 6, download 6", counts)
	}
}

type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

func TestORCErrorsBySQLSTATE(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		code string
	}{
		{"lzo compression", orctest.TailOnly(orctest.LZO), pgerr.FeatureNotSupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f catalog.File = memFile{bytes.NewReader(c.data)}
			_, err := openORC("mem.orc", f, posDeleteFields, readOptions{mem: memory.DefaultAllocator})
			pe := pgerr.As(err)
			if pe == nil || pe.Code != c.code {
				t.Fatalf("err = %v, want SQLSTATE %s", err, c.code)
			}
		})
	}
	t.Run("union column", func(t *testing.T) {
		b := orctest.New(orctest.None)
		if err := b.Stripe(1, 3, nil); err != nil {
			t.Fatal(err)
		}
		data, err := b.Finish([][]byte{
			orctest.Type(orctest.KindStruct, []byte{1}, []string{"u"}, nil),
			orctest.Type(orctest.KindUnion, []byte{2}, nil, map[string]string{"iceberg.id": "1"}),
			orctest.Type(orctest.KindLong, nil, nil, nil),
		})
		if err != nil {
			t.Fatal(err)
		}
		fields := []readField{{field: catalog.NestedField{ID: 1, Name: "u", Type: &catalog.PrimitiveType{ID: catalog.TLong}}}}
		r, err := openORC("mem.orc", memFile{bytes.NewReader(data)}, fields, readOptions{mem: memory.DefaultAllocator})
		if err != nil {
			t.Fatal(err)
		}
		defer r.close()
		_, _, _, err = r.next(context.Background(), 10)
		if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.FeatureNotSupported {
			t.Fatalf("err = %v, want SQLSTATE %s", err, pgerr.FeatureNotSupported)
		}
	})
	t.Run("not an orc file", func(t *testing.T) {
		f := memFile{bytes.NewReader([]byte("PAR1 this is not orc"))}
		_, err := openORC("mem.orc", f, posDeleteFields, readOptions{mem: memory.DefaultAllocator})
		if err == nil || pgerr.As(err) != nil && pgerr.As(err).Code == pgerr.FeatureNotSupported {
			t.Fatalf("err = %v, want a read error", err)
		}
	})
}

// TestORCStripesAndPositions reads a two-stripe file in batches that do
// not line up with the stripes: row positions (for position deletes) run
// across stripes, and a field the file lacks reads as its missing value.
func TestORCStripesAndPositions(t *testing.T) {
	b := orctest.New(orctest.Zstd)
	for _, ids := range [][]int64{{10, 11, 12}, {13, 14}} {
		if err := b.Stripe(len(ids), 2, []orctest.Stream{
			{Column: 1, Kind: orctest.StreamData, Data: orctest.V1Literals(true, ids...)},
		}); err != nil {
			t.Fatal(err)
		}
	}
	data, err := b.Finish([][]byte{
		orctest.Type(orctest.KindStruct, []byte{1}, []string{"id"}, nil),
		orctest.Type(orctest.KindLong, nil, nil, map[string]string{"iceberg.id": "1"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	fields := []readField{
		{field: catalog.NestedField{ID: 1, Name: "id", Type: &catalog.PrimitiveType{ID: catalog.TLong}}},
		{field: catalog.NestedField{ID: 2, Name: "part", Type: &catalog.PrimitiveType{ID: catalog.TString}}, missing: "p"},
	}
	mem := newChecked(t)
	r, err := openORC("mem.orc", memFile{bytes.NewReader(data)}, fields, readOptions{mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		cols, pos, n, err := r.next(context.Background(), 2)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		ids, parts := cols[0].(*array.Int64), cols[1].(*array.String)
		for i := range n {
			got = append(got, fmt.Sprintf("%d:%d:%s", pos+int64(i), ids.Value(i), parts.Value(i)))
		}
		releaseAll(cols)
	}
	r.close()
	mem.AssertSize(t, 0)
	want := "0:10:p 1:11:p 2:12:p 3:13:p 4:14:p"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
}

// BenchmarkScanORCAirports scans every column of the largest ORC fixture.
func BenchmarkScanORCAirports(b *testing.B) {
	tbl, tasks := loadTable(b, "impala__airports_orc")
	schema := tbl.Metadata.CurrentSchema()
	spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
	b.ReportAllocs()
	var rows int64
	for b.Loop() {
		op := New(spec, Options{Alloc: memory.DefaultAllocator})
		if err := op.Open(context.Background()); err != nil {
			b.Fatal(err)
		}
		for {
			rec, err := op.Next()
			if err != nil {
				b.Fatal(err)
			}
			if rec == nil {
				break
			}
			rows += rec.NumRows()
		}
		op.Close()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
