package oracle

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
)

// This file prints Arrow values (iceberg-go's scan output) as PostgreSQL's
// text output functions print the types icegate maps them to (DESIGN.md
// section 3), with the session TimeZone set to UTC: lists of scalars as
// arrays, structs, maps and nested lists as jsonb.

// cell is one value in canonical text; null marks SQL NULL.
type cell struct {
	text string
	null bool
}

func (c cell) String() string {
	if c.null {
		return "NULL"
	}
	return strconv.Quote(c.text)
}

// display is the cell as psql would show it, NULL spelled out.
func (c cell) display() string {
	if c.null {
		return "NULL"
	}
	return c.text
}

// rowKey joins a row's cells into one comparable string.
func rowKey(row []cell) string {
	parts := make([]string, len(row))
	for i, c := range row {
		parts[i] = c.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// canonRecord appends the canonical cells of every row of rec to rows.
func canonRecord(rows [][]cell, rec arrow.RecordBatch) ([][]cell, error) {
	for i := 0; i < int(rec.NumRows()); i++ {
		row := make([]cell, rec.NumCols())
		for c := range row {
			v, err := pgText(rec.Column(c), i)
			if err != nil {
				return nil, fmt.Errorf("column %s row %d: %w", rec.ColumnName(c), i, err)
			}
			row[c] = v
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// pgText is the text PostgreSQL sends for value i of a top-level column.
func pgText(arr arrow.Array, i int) (cell, error) {
	if arr.IsNull(i) {
		return cell{null: true}, nil
	}
	if elems, ok := listElems(arr); ok && isScalar(elems.DataType()) {
		s, err := pgArray(arr, i)
		return cell{text: s}, err
	}
	switch arr.DataType().ID() {
	case arrow.STRUCT, arrow.MAP, arrow.LIST, arrow.LARGE_LIST:
		var b strings.Builder
		err := jsonValue(&b, arr, i)
		return cell{text: b.String()}, err
	}
	s, err := scalarText(arr, i)
	return cell{text: s}, err
}

// listElems returns the element array of a list (not map) column.
func listElems(arr arrow.Array) (arrow.Array, bool) {
	switch a := arr.(type) {
	case *array.List:
		return a.ListValues(), true
	case *array.LargeList:
		return a.ListValues(), true
	}
	return nil, false
}

func listBounds(arr arrow.Array, i int) (int, int) {
	switch a := arr.(type) {
	case *array.List:
		s, e := a.ValueOffsets(i)
		return int(s), int(e)
	case *array.LargeList:
		s, e := a.ValueOffsets(i)
		return int(s), int(e)
	case *array.Map:
		s, e := a.ValueOffsets(i)
		return int(s), int(e)
	}
	return 0, 0
}

func isScalar(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRUCT, arrow.MAP, arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST:
		return false
	}
	return true
}

// pgArray is array_out: {a,b,NULL} with elements quoted when they are
// empty, spell NULL, or hold braces, commas, quotes, backslashes or space.
func pgArray(arr arrow.Array, i int) (string, error) {
	elems, _ := listElems(arr)
	start, end := listBounds(arr, i)
	var b strings.Builder
	b.WriteByte('{')
	for k := start; k < end; k++ {
		if k > start {
			b.WriteByte(',')
		}
		if elems.IsNull(k) {
			b.WriteString("NULL")
			continue
		}
		s, err := scalarText(elems, k)
		if err != nil {
			return "", err
		}
		if !needsArrayQuote(s) {
			b.WriteString(s)
			continue
		}
		b.WriteByte('"')
		for _, ch := range []byte(s) {
			if ch == '"' || ch == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(ch)
		}
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String(), nil
}

func needsArrayQuote(s string) bool {
	if s == "" || strings.EqualFold(s, "NULL") {
		return true
	}
	return strings.ContainsAny(s, "{},\"\\ \t\n\r\v\f")
}

// scalarText is the output function of the scalar's PostgreSQL type.
func scalarText(arr arrow.Array, i int) (string, error) {
	switch a := arr.(type) {
	case *array.Boolean:
		if a.Value(i) {
			return "t", nil
		}
		return "f", nil
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), nil
	case *array.Float32:
		return pgFloat(float64(a.Value(i)), 32), nil
	case *array.Float64:
		return pgFloat(a.Value(i), 64), nil
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		return numericText(a.Value(i).BigInt(), int(dt.Scale)), nil
	case *array.Date32:
		return dateText(int64(a.Value(i))), nil
	case *array.Time64:
		return timeText(toMicros(int64(a.Value(i)), a.DataType().(*arrow.Time64Type).Unit)), nil
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		s := timestampText(toMicros(int64(a.Value(i)), dt.Unit), ' ')
		if dt.TimeZone != "" {
			s += "+00"
		}
		return s, nil
	case *array.String:
		return a.Value(i), nil
	case *array.LargeString:
		return a.Value(i), nil
	case *extensions.UUIDArray:
		return strings.ToLower(a.Value(i).String()), nil
	case *array.Binary:
		return byteaText(a.Value(i)), nil
	case *array.LargeBinary:
		return byteaText(a.Value(i)), nil
	case *array.FixedSizeBinary:
		return byteaText(a.Value(i)), nil
	}
	return "", fmt.Errorf("no PostgreSQL text for Arrow type %s", arr.DataType())
}

// pgFloat is float4out/float8out with extra_float_digits = 1: the shortest
// exact text, in exponent form when the decimal exponent is below -4 or at
// least 6 (float4) / 15 (float8).
func pgFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	limit := 15
	if bits == 32 {
		limit = 6
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= limit {
		return e
	}
	return strconv.FormatFloat(f, 'f', -1, bits)
}

// numericText prints an unscaled integer with scale digits after the point.
func numericText(unscaled *big.Int, scale int) string {
	neg := unscaled.Sign() < 0
	digits := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

func toMicros(v int64, unit arrow.TimeUnit) int64 {
	switch unit {
	case arrow.Second:
		return v * 1e6
	case arrow.Millisecond:
		return v * 1e3
	case arrow.Nanosecond:
		return floorDiv(v, 1e3)
	}
	return v
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func dateText(days int64) string {
	return time.Unix(days*86400, 0).UTC().Format("2006-01-02")
}

// fraction prints microseconds as PostgreSQL does: nothing when zero, else
// a point and up to six digits without trailing zeros.
func fraction(us int64) string {
	if us == 0 {
		return ""
	}
	return strings.TrimRight(fmt.Sprintf(".%06d", us), "0")
}

func timeText(us int64) string {
	s := us / 1e6
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60) + fraction(us%1e6)
}

func timestampText(us int64, sep byte) string {
	secs := floorDiv(us, 1e6)
	t := time.Unix(secs, 0).UTC()
	return t.Format("2006-01-02") + string(sep) + t.Format("15:04:05") + fraction(us-secs*1e6)
}

func byteaText(b []byte) string { return `\x` + hex.EncodeToString(b) }
