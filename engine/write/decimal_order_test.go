package write

import (
	"math/big"
	"os"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
)

// TestDecimalStatisticsAreSigned checks the Parquet row-group statistics
// and page index of a decimal stored as FIXED_LEN_BYTE_ARRAY: the Parquet
// spec orders DECIMAL by signed value, so -0.5 is the minimum and 9.5 the
// maximum (unsigned byte order would swap the negative value to the top and
// make readers skip row groups holding 0.5).
func TestDecimalStatisticsAreSigned(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "n", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 38, Scale: 10}},
	}}
	rec := recordFromJSON(t, schema, `[{"n": "0.5000000000"}, {"n": "-0.5000000000"}, {"n": "9.5000000000"}, {"n": null}]`)
	defer rec.Release()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema}, rec)
	f, err := os.Open(files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	unscaled := func(b []byte) string {
		v := new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		return v.String()
	}
	stats := pf.Metadata().RowGroups[0].Columns[0].MetaData.Statistics
	if got, want := unscaled(stats.MinValue), "-5000000000"; got != want {
		t.Errorf("row-group min = %s, want %s", got, want)
	}
	if got, want := unscaled(stats.MaxValue), "95000000000"; got != want {
		t.Errorf("row-group max = %s, want %s", got, want)
	}
	ci := pf.ColumnIndexes()
	if len(ci) != 1 || len(ci[0].MinValues) != 1 || unscaled(ci[0].MinValues[0]) != "-5000000000" || unscaled(ci[0].MaxValues[0]) != "95000000000" {
		t.Errorf("page index = %+v, want one page with min -0.5 and max 9.5", ci)
	}
}
