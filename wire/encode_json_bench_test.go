package wire

import (
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// jsonBenchBatch is 1024 rows of jsonb in the two shapes the wire prints:
// a text column holding JSON (parsed and printed canonically) and a struct
// column (printed field by field), every tenth value NULL.
func jsonBenchBatch() (arrow.RecordBatch, []pgtypes.Column) {
	mem := memory.DefaultAllocator
	const n = 1024
	txt := array.NewStringBuilder(mem)
	st := arrow.StructOf(
		arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	)
	sb := array.NewStructBuilder(mem, st)
	name := sb.FieldBuilder(0).(*array.StringBuilder)
	id := sb.FieldBuilder(1).(*array.Int64Builder)
	tags := sb.FieldBuilder(2).(*array.ListBuilder)
	tag := tags.ValueBuilder().(*array.StringBuilder)
	for i := 0; i < n; i++ {
		if i%10 == 9 {
			txt.AppendNull()
			sb.AppendNull()
			continue
		}
		s := strconv.Itoa(i)
		txt.Append(`{"user": {"name": "customer#` + s + `", "id": ` + s + `}, "tags": ["a\tb", "\u00e9t\u00e9", "x"],` +
			` "score": 1.50e2, "ok": true, "none": null, "b": [1, 2, {"z": -0.0}]}`)
		sb.Append(true)
		name.Append("customer \"" + s + "\"")
		id.Append(int64(i) * 7919)
		tags.Append(true)
		tag.Append("a\tb")
		tag.Append("été")
	}
	cols := []arrow.Array{txt.NewArray(), sb.NewArray()}
	fields := []arrow.Field{{Name: "t", Type: cols[0].DataType(), Nullable: true}, {Name: "s", Type: st, Nullable: true}}
	pg := []pgtypes.Column{{Name: "t", TypeOID: pgtypes.JSONB}, {Name: "s", TypeOID: pgtypes.JSONB}}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n), pg
}

func BenchmarkEncodeJSONB(b *testing.B) {
	batch, cols := jsonBenchBatch()
	for k, name := range []string{"text", "struct"} {
		b.Run(name, func(b *testing.B) {
			one := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{batch.Schema().Field(k)}, nil),
				[]arrow.Array{batch.Column(k)}, batch.NumRows())
			enc := newRowEncoder(cols[k:k+1], []int16{formatText}, &encodeEnv{loc: time.UTC, extraFloatDigits: 1})
			var buf []byte
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := enc.bindBatch(one); err != nil {
					b.Fatal(err)
				}
				buf = enc.appendRows(buf[:0], 0, int(one.NumRows()))
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}
