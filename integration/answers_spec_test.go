package integration

import (
	"encoding/hex"
	"errors"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// readSpecAnswers reads a generated-spec answers directory:
// expected_count.csv ("count" then the number) and expected_rows/*.parquet
// (the rows, compared as a multiset). Parquet values are rendered as
// PostgreSQL prints them, so canon treats them like server output.
func readSpecAnswers(t *testing.T, dir string) []answerBlock {
	t.Helper()
	rel := filepath.Join("answers", filepath.Base(dir)) + "/"
	data, err := os.ReadFile(filepath.Join(dir, "expected_count.csv"))
	if err != nil {
		t.Fatalf("read expected count: %v", err)
	}
	lines := strings.Fields(string(data))
	if len(lines) != 2 || lines[0] != "count" {
		t.Fatalf("%s/expected_count.csv: want a count header and one number, have %q", dir, data)
	}
	countBlock := answerBlock{file: rel, title: "expected_count.csv", format: formatSpec, isCount: true,
		count: parseCount(t, "expected_count.csv", lines[1])}

	files, err := filepath.Glob(filepath.Join(dir, "expected_rows", "*.parquet"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s/expected_rows: no Parquet files (%v)", dir, err)
	}
	rowsBlock := answerBlock{file: rel, title: "expected_rows/*.parquet", format: formatSpec}
	for _, f := range files {
		header, rows, err := readParquetAsText(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		rowsBlock.header = header
		rowsBlock.rows = append(rowsBlock.rows, rows...)
	}
	return []answerBlock{countBlock, rowsBlock}
}

// readParquetAsText reads a flat Parquet file's rows, each value in
// PostgreSQL's text form for the matching Iceberg type.
func readParquetAsText(path string) (header []string, rows [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, nil, err
	}
	leaves := pf.Schema().Fields()
	for _, l := range leaves {
		if !l.Leaf() {
			return nil, nil, errors.New("nested column " + l.Name() + ": only flat files are read here")
		}
		header = append(header, l.Name())
	}
	for _, rg := range pf.RowGroups() {
		rr := rg.Rows()
		buf := make([]parquet.Row, 256)
		for {
			n, err := rr.ReadRows(buf)
			for _, row := range buf[:n] {
				vals := make([]string, len(leaves))
				for _, v := range row {
					vals[v.Column()] = parquetText(leaves[v.Column()].Type(), v)
				}
				rows = append(rows, vals)
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rr.Close()
				return nil, nil, err
			}
		}
		rr.Close()
	}
	return header, rows, nil
}

// parquetText renders one value as PostgreSQL prints its type.
func parquetText(typ parquet.Type, v parquet.Value) string {
	if v.IsNull() {
		return nullValue
	}
	var logical format.LogicalTypeValue
	if lt := typ.LogicalType(); lt != nil {
		logical = lt.Value
	}
	switch lt := logical.(type) {
	case *format.DecimalType:
		var unscaled *big.Int
		switch v.Kind() {
		case parquet.Int32:
			unscaled = big.NewInt(int64(v.Int32()))
		case parquet.Int64:
			unscaled = big.NewInt(v.Int64())
		default:
			unscaled = twosComplement(v.ByteArray())
		}
		r := new(big.Rat).SetFrac(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(lt.Scale)), nil))
		return r.FloatString(int(lt.Scale))
	case *format.DateType:
		return time.Unix(int64(v.Int32())*86400, 0).UTC().Format("2006-01-02")
	case *format.TimestampType:
		ts := time.UnixMicro(v.Int64()).UTC()
		if lt.IsAdjustedToUTC {
			return ts.Format("2006-01-02 15:04:05.999999") + "+00"
		}
		return ts.Format("2006-01-02 15:04:05.999999")
	case *format.UUIDType:
		b := v.ByteArray()
		return hex.EncodeToString(b[:4]) + "-" + hex.EncodeToString(b[4:6]) + "-" + hex.EncodeToString(b[6:8]) + "-" + hex.EncodeToString(b[8:10]) + "-" + hex.EncodeToString(b[10:])
	case *format.StringType:
		return string(v.ByteArray())
	}
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean())
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return `\x` + hex.EncodeToString(v.ByteArray())
	}
	return v.String()
}

// twosComplement reads a big-endian two's-complement integer.
func twosComplement(b []byte) *big.Int {
	n := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return n
}
