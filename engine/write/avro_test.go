package write

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/avro/ocf"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestAvroRoundTripEveryType writes every type to Avro with each codec and
// reads the files back through engine/scan's Avro reader.
func TestAvroRoundTripEveryType(t *testing.T) {
	schema := allTypes()
	rec := recordFromJSON(t, schema, allTypesRows)
	defer rec.Release()
	codecs := map[string]string{"gzip": "deflate", "zstd": "zstandard", "snappy": "snappy", "uncompressed": "null", "": "deflate"}
	for codec, avroName := range codecs {
		t.Run("codec="+codec, func(t *testing.T) {
			dir := t.TempDir()
			props := map[string]string{propFormat: "avro"}
			if codec != "" {
				props[propAvroCodec] = codec
			}
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir + "/data", Schema: schema,
				Properties: props, FormatVersion: 2}, rec, rec)
			if len(files) != 1 {
				t.Fatalf("files = %d, want 1", len(files))
			}
			df := files[0]
			if df.RecordCount != 8 || df.Format != catalog.FormatAvro || !strings.HasSuffix(df.Path, ".avro") {
				t.Errorf("data file = %+v", df)
			}
			if len(df.ColumnSizes) != 0 {
				t.Errorf("column sizes = %v, want none for Avro", df.ColumnSizes)
			}
			st, err := os.Stat(df.Path)
			if err != nil || st.Size() != df.FileSizeInBytes {
				t.Errorf("file size %v (err %v), DataFile says %d", st, err, df.FileSizeInBytes)
			}
			f, err := os.Open(df.Path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rd, err := ocf.NewReader(f)
			if err != nil {
				t.Fatalf("open as OCF: %v", err)
			}
			defer rd.Close()
			if got := string(rd.Metadata()["avro.codec"]); got != avroName && !(avroName == "null" && got == "") {
				t.Errorf("avro.codec = %q, want %q", got, avroName)
			}
			got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
			defer releaseAll(got)
			want := mapsUnordered(append(rowStrings(rec), rowStrings(rec)...), 18)
			if g := mapsUnordered(rowStrings(got...), 18); !slices.Equal(g, want) {
				t.Errorf("rows differ\n got: %q\nwant: %q", g, want)
			}
		})
	}
}

// TestAvroMetricsMatchParquet checks that an Avro file's counts and bounds
// are the ones the Parquet writer computes for the same rows.
func TestAvroMetricsMatchParquet(t *testing.T) {
	schema := allTypes()
	rec := recordFromJSON(t, schema, allTypesRows)
	defer rec.Release()
	dir := t.TempDir()
	pq := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir + "/pq", Schema: schema, FormatVersion: 2}, rec)[0]
	av := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir + "/avro", Schema: schema, FormatVersion: 2,
		Properties: map[string]string{propFormat: "AVRO"}}, rec)[0]
	for name, pair := range map[string][2]any{
		"value counts": {pq.ValueCounts, av.ValueCounts}, "null counts": {pq.NullValueCounts, av.NullValueCounts},
		"nan counts": {pq.NaNValueCounts, av.NaNValueCounts}, "lower bounds": {pq.LowerBounds, av.LowerBounds},
		"upper bounds": {pq.UpperBounds, av.UpperBounds},
	} {
		a, _ := json.Marshal(pair[0])
		b, _ := json.Marshal(pair[1])
		if !bytes.Equal(a, b) {
			t.Errorf("%s: parquet %s, avro %s", name, a, b)
		}
	}
	if len(av.LowerBounds) == 0 || av.NullValueCounts[1] != 1 || av.NaNValueCounts[4] != 1 {
		t.Errorf("avro metrics look empty: %+v", av)
	}
}

// TestAvroSchemaIDs checks the Avro schema of the spec's appendix: field
// ids, list/map ids, logical types, decimals and uuid as fixed, nested
// record names defined once.
func TestAvroSchemaIDs(t *testing.T) {
	schema := allTypes()
	schema.Fields = append(schema.Fields,
		catalog.NestedField{ID: 30, Name: "im", Type: &catalog.MapType{KeyID: 31, Key: prim(catalog.TInt), ValueID: 32,
			Value: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}}},
		catalog.NestedField{ID: 33, Name: "9 bad-name", Type: prim(catalog.TUUID)})
	text, err := avroSchemaJSON(schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"field-id":1,"name":"b","type":["null","boolean"]`,
		`"element-id":22`, `"key-id":23`, `"value-id":24`,
		`{"logicalType":"decimal","name":"decimal_38_10","precision":38,"scale":10,"size":16,"type":"fixed"}`,
		`{"logicalType":"uuid","name":"uuid_fixed","size":16,"type":"fixed"}`,
		`{"adjust-to-utc":true,"logicalType":"timestamp-micros","type":"long"}`,
		`{"adjust-to-utc":false,"logicalType":"timestamp-nanos","type":"long"}`,
		`{"logicalType":"time-micros","type":"long"}`, `{"logicalType":"date","type":"int"}`,
		`"logicalType":"map","type":"array"`, `"name":"k31_v32"`,
		`"field-id":33,"name":"_9_x20bad_x2Dname","type":["null","uuid_fixed"]`,
		`"name":"decimal_9_2"`, `"type":["null","decimal_9_2"]`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("schema lacks %s\n%s", want, text)
		}
	}
	// The map with int keys round-trips too.
	rec := recordFromJSON(t, schema, `[{"i": 1, "im": [{"key": 3, "value": "1.50"}, {"key": -1, "value": null}], "9 bad-name": "AAAAAAAAAAAAAAAAAAAAAQ=="}, {"i": 2, "im": null}]`)
	defer rec.Release()
	dir := t.TempDir()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, FormatVersion: 2,
		Properties: map[string]string{propFormat: "avro"}}, rec)
	got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
	defer releaseAll(got)
	if g, w := rowStrings(got...), rowStrings(rec); !slices.Equal(g, w) {
		t.Errorf("rows differ\n got: %q\nwant: %q", g, w)
	}
}

// mapsUnordered sorts the entries of the map in column col of rendered
// rows: Avro maps have no order and engine/scan reads them through Go maps.
func mapsUnordered(rows []string, col int) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		cells := strings.Split(r, " | ")
		var entries []json.RawMessage
		if json.Unmarshal([]byte(cells[col]), &entries) == nil {
			slices.SortFunc(entries, func(a, b json.RawMessage) int { return bytes.Compare(a, b) })
			b, _ := json.Marshal(entries)
			cells[col] = string(b)
		}
		out[i] = strings.Join(cells, " | ")
	}
	return out
}

func TestFormatAndAvroCodecErrors(t *testing.T) {
	schema := allTypes()
	for _, tc := range []struct {
		format string
		props  map[string]string
		code   string
	}{
		{"", map[string]string{propFormat: "orc"}, pgerr.FeatureNotSupported},
		{"orc", nil, pgerr.FeatureNotSupported},
		{"", map[string]string{propFormat: "csv"}, pgerr.InvalidParameterValue},
		{"", map[string]string{propFormat: "avro", propAvroCodec: "bzip2"}, pgerr.FeatureNotSupported},
		{"", map[string]string{propFormat: "avro", propAvroCodec: "brotli"}, pgerr.InvalidParameterValue},
		{"", map[string]string{propFormat: "avro", propAvroCodec: "gzip", propAvroCodecLevel: "12"}, pgerr.InvalidParameterValue},
	} {
		_, err := NewWriter(t.Context(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema,
			FormatVersion: 2, Format: tc.format, Properties: tc.props})
		wantCode(t, err, tc.code)
		if tc.code == pgerr.FeatureNotSupported && strings.Contains(tc.format+tc.props[propFormat], "orc") &&
			!strings.Contains(err.Error(), "writing ORC data files") {
			t.Errorf("error %q does not name ORC data files", err)
		}
	}
}

// TestAvroFormatOverride: the statement's format wins over the table's.
func TestAvroFormatOverride(t *testing.T) {
	schema := allTypes()
	rec := recordFromJSON(t, schema, allTypesRows)
	defer rec.Release()
	dir := t.TempDir()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, FormatVersion: 2,
		Format: "avro", Properties: map[string]string{propFormat: "parquet"}}, rec)
	if files[0].Format != catalog.FormatAvro {
		t.Errorf("format = %s, want AVRO", files[0].Format)
	}
}

// TestAvroRolling: Avro files roll at write.target-file-size-bytes, their
// recorded sizes are the files' and every row reads back once.
func TestAvroRolling(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "s", Type: prim(catalog.TString)},
	}}
	var b strings.Builder
	b.WriteString("[")
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": %d, "s": "value %d %x"}`, i, i, i*7919)
	}
	b.WriteString("]")
	rec := recordFromJSON(t, schema, b.String())
	defer rec.Release()
	dir := t.TempDir()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Format: "avro",
		Properties: map[string]string{propTargetFileSize: "100000", propAvroCodec: "uncompressed"}}, rec)
	if len(files) < 3 {
		t.Fatalf("files = %d, want several", len(files))
	}
	var total int64
	for _, df := range files {
		total += df.RecordCount
		st, err := os.Stat(df.Path)
		if err != nil || st.Size() != df.FileSizeInBytes {
			t.Errorf("%s: size %d recorded, stat %v %v", df.Path, df.FileSizeInBytes, st, err)
		}
		// the writer checks the size after each chunk of chunkRows rows
		// (about 25 bytes each here)
		if df.FileSizeInBytes > 100000+chunkRows*30 {
			t.Errorf("%s: %d bytes, target 100000", df.Path, df.FileSizeInBytes)
		}
	}
	if total != 20000 {
		t.Errorf("total rows %d, want 20000", total)
	}
	got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
	defer releaseAll(got)
	if !slices.Equal(rowStrings(got...), rowStrings(rec)) {
		t.Errorf("rows read back differ from the rows written")
	}
}

// TestAvroCompressionLevel: write.avro.compression-level reaches the codec
// (deflate level 0 stores, the default level 9 compresses).
func TestAvroCompressionLevel(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "s", Type: prim(catalog.TString)}}}
	rec := recordFromJSON(t, schema, "["+strings.Repeat(`{"s": "the same words again and again"},`, 2000)+`{"s": "end"}]`)
	defer rec.Release()
	size := func(level string) int64 {
		props := map[string]string{propAvroCodec: "gzip"}
		if level != "" {
			props[propAvroCodecLevel] = level
		}
		files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, Format: "avro", Properties: props}, rec)
		return files[0].FileSizeInBytes
	}
	stored, def := size("0"), size("")
	if stored < 2000*30 || def*10 > stored {
		t.Errorf("deflate level 0: %d bytes, default level: %d bytes", stored, def)
	}
}
