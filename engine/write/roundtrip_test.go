package write

import (
	"slices"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// allTypes is a schema with a column of every type the writer writes.
func allTypes() *catalog.Schema {
	return &catalog.Schema{ID: 0, Fields: []catalog.NestedField{
		{ID: 1, Name: "b", Type: prim(catalog.TBoolean)},
		{ID: 2, Name: "i", Required: true, Type: prim(catalog.TInt)},
		{ID: 3, Name: "l", Type: prim(catalog.TLong)},
		{ID: 4, Name: "f", Type: prim(catalog.TFloat)},
		{ID: 5, Name: "d", Type: prim(catalog.TDouble)},
		{ID: 6, Name: "dec9", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}},
		{ID: 7, Name: "dec18", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 18, Scale: 4}},
		{ID: 8, Name: "dec38", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 38, Scale: 10}},
		{ID: 9, Name: "dt", Type: prim(catalog.TDate)},
		{ID: 10, Name: "tm", Type: prim(catalog.TTime)},
		{ID: 11, Name: "ts", Type: prim(catalog.TTimestamp)},
		{ID: 12, Name: "tstz", Type: prim(catalog.TTimestamptz)},
		{ID: 13, Name: "s", Type: prim(catalog.TString)},
		{ID: 14, Name: "u", Type: prim(catalog.TUUID)},
		{ID: 15, Name: "fx", Type: &catalog.PrimitiveType{ID: catalog.TFixed, Length: 3}},
		{ID: 16, Name: "bin", Type: prim(catalog.TBinary)},
		{ID: 17, Name: "st", Type: &catalog.StructType{Fields: []catalog.NestedField{
			{ID: 20, Name: "a", Type: prim(catalog.TInt)},
			{ID: 21, Name: "b", Required: true, Type: prim(catalog.TString)},
		}}},
		{ID: 18, Name: "lst", Type: &catalog.ListType{ElementID: 22, Element: prim(catalog.TLong)}},
		{ID: 19, Name: "m", Type: &catalog.MapType{KeyID: 23, Key: prim(catalog.TString), ValueID: 24, Value: prim(catalog.TDouble)}},
		{ID: 25, Name: "tsns", Type: prim(catalog.TTimestampNs)},
		{ID: 26, Name: "ls", Type: &catalog.ListType{ElementID: 27, ElementRequired: true, Element: &catalog.StructType{
			Fields: []catalog.NestedField{{ID: 28, Name: "x", Type: prim(catalog.TInt)}}}}},
	}}
}

const allTypesRows = `[
{"b": true, "i": 1, "l": 10, "f": 1.5, "d": 2.25, "dec9": "14.20", "dec18": "-12345.6789", "dec38": "1234567890123456789012345678.0123456789",
 "dt": "2017-11-16", "tm": "22:31:08", "ts": "2017-11-16T22:31:08", "tstz": "2017-11-16T22:31:08Z", "s": "iceberg",
 "u": "95w+CWd8TNCKLQub+0sbew==", "fx": "AAEC", "bin": "AAECAw==", "st": {"a": 1, "b": "x"}, "lst": [1, 2, null],
 "m": [{"key": "k1", "value": 1.0}, {"key": "k2", "value": null}], "tsns": "2017-11-16T22:31:08.123456789", "ls": [{"x": 1}, {"x": null}]},
{"b": null, "i": 2, "l": null, "f": "NaN", "d": null, "dec9": null, "dec18": null, "dec38": null,
 "dt": null, "tm": null, "ts": null, "tstz": null, "s": null, "u": null, "fx": null, "bin": null, "st": null, "lst": null,
 "m": null, "tsns": null, "ls": null},
{"b": false, "i": -3, "l": -30, "f": -0.5, "d": "NaN", "dec9": "-0.01", "dec18": "99999999999999.9999", "dec38": "-0.0000000001",
 "dt": "1969-12-31", "tm": "00:00:00.000001", "ts": "1960-01-01T00:00:00", "tstz": "2030-06-30T12:00:00Z", "s": "",
 "u": "AAAAAAAAAAAAAAAAAAAAAA==", "fx": "////", "bin": "", "st": {"a": null, "b": "yy"}, "lst": [],
 "m": [], "tsns": "1969-12-31T23:59:59.999999999", "ls": []},
{"b": true, "i": 4, "l": 9223372036854775807, "f": 3.25, "d": -1e300, "dec9": "9999999.99", "dec18": "0.0001", "dec38": "0",
 "dt": "2024-02-29", "tm": "23:59:59.999999", "ts": "2024-02-29T12:34:56.789", "tstz": "1970-01-01T00:00:00Z", "s": "ünïcödé ✓",
 "u": "/////////////////////w==", "fx": "AQID", "bin": "/w==", "st": {"a": 7, "b": ""}, "lst": [null],
 "m": [{"key": "z", "value": "NaN"}], "tsns": null, "ls": [{"x": 5}]}
]`

func TestRoundTripEveryType(t *testing.T) {
	schema := allTypes()
	rec := recordFromJSON(t, schema, allTypesRows)
	defer rec.Release()
	for _, codec := range []string{"zstd", "snappy", "gzip", "lz4", "uncompressed"} {
		t.Run(codec, func(t *testing.T) {
			dir := t.TempDir()
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir + "/data", Schema: schema,
				Properties: map[string]string{propCodec: codec}, FormatVersion: 2}, rec, rec)
			if len(files) != 1 {
				t.Fatalf("files = %d, want 1", len(files))
			}
			df := files[0]
			if df.RecordCount != 8 || df.Format != catalog.FormatParquet || len(df.Partition) != 0 {
				t.Errorf("data file = %+v", df)
			}
			got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
			defer releaseAll(got)
			want := append(rowStrings(rec), rowStrings(rec)...)
			if codec == "zstd" {
				t.Logf("row 0: %s", want[0])
			}
			if g := rowStrings(got...); !slices.Equal(g, want) {
				t.Errorf("rows differ\n got: %q\nwant: %q", g, want)
			}
		})
	}
}
