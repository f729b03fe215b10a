package wire

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// goldenRow is one line of testdata/text_golden.tsv: what PostgreSQL printed
// for a value, and the key the test builds the Arrow value from.
type goldenRow struct {
	kind, key, want string
	line            int
}

func readGolden(t *testing.T) []goldenRow {
	t.Helper()
	f, err := os.Open("testdata/text_golden.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []goldenRow
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		parts := strings.SplitN(sc.Text(), "\t", 3)
		if len(parts) == 3 && isGoldenKind(parts[0]) {
			rows = append(rows, goldenRow{parts[0], parts[1], parts[2], n})
			continue
		}
		// A value with a newline or tab continues the previous row.
		if len(rows) == 0 {
			t.Fatalf("line %d: no kind", n)
		}
		rows[len(rows)-1].want += "\n" + sc.Text()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func isGoldenKind(s string) bool {
	switch s {
	case "bool", "int2", "int4", "int8", "float4", "float8", "numeric", "date", "time", "timestamp",
		"timestamptz", "uuid", "bytea", "jsonb", "jsonb_elem", "numeric_send", "interval", "jsonb_text":
		return true
	}
	return strings.HasSuffix(s, "[]") || isCatalogGoldenKind(s)
}

// encodeOne encodes row 0 of arr as a column of oid in format.
func encodeOne(t *testing.T, oid uint32, arr arrow.Array, format int16, env *encodeEnv) string {
	t.Helper()
	b, err := chooseEncoder(pgtypes.Column{TypeOID: oid}, arr.DataType(), format, env)
	if err != nil {
		t.Fatalf("choose encoder for %s / %s: %v", pgtypes.TypeName(oid), arr.DataType(), err)
	}
	return string(b(arr)(nil, 0))
}

func utcEnv() *encodeEnv { return &encodeEnv{loc: time.UTC, extraFloatDigits: 1} }

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func decimalFromString(t *testing.T, s string) decimal128.Num {
	t.Helper()
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad integer %q", s)
	}
	return decimal128.FromBigInt(b)
}

// scalarFromKey builds the one-value Arrow array of a scalar golden row and
// returns it with the column's OID.
func scalarFromKey(t *testing.T, kind, key string) (uint32, arrow.Array) {
	t.Helper()
	mem := memory.DefaultAllocator
	switch kind {
	case "bool":
		b := array.NewBooleanBuilder(mem)
		b.Append(key == "true")
		return pgtypes.Bool, b.NewArray()
	case "int2":
		b := array.NewInt16Builder(mem)
		b.Append(int16(mustInt(t, key)))
		return pgtypes.Int2, b.NewArray()
	case "int4":
		b := array.NewInt32Builder(mem)
		b.Append(int32(mustInt(t, key)))
		return pgtypes.Int4, b.NewArray()
	case "int8":
		b := array.NewInt64Builder(mem)
		b.Append(mustInt(t, key))
		return pgtypes.Int8, b.NewArray()
	case "float8":
		b := array.NewFloat64Builder(mem)
		b.Append(math.Float64frombits(binary.BigEndian.Uint64(mustHex(t, key))))
		return pgtypes.Float8, b.NewArray()
	case "float4":
		b := array.NewFloat32Builder(mem)
		b.Append(math.Float32frombits(binary.BigEndian.Uint32(mustHex(t, key))))
		return pgtypes.Float4, b.NewArray()
	case "numeric":
		unscaled, scale, _ := strings.Cut(key, ":")
		b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: int32(mustInt(t, scale))})
		b.Append(decimalFromString(t, unscaled))
		return pgtypes.Numeric, b.NewArray()
	case "date":
		b := array.NewDate32Builder(mem)
		switch key {
		case "inf":
			b.Append(dateInfinity)
		case "-inf":
			b.Append(dateMinusInfinity)
		default:
			b.Append(arrow.Date32(mustInt(t, key)))
		}
		return pgtypes.Date, b.NewArray()
	case "time":
		b := array.NewTime64Builder(mem, arrow.FixedWidthTypes.Time64us.(*arrow.Time64Type))
		b.Append(arrow.Time64(mustInt(t, key)))
		return pgtypes.Time, b.NewArray()
	case "timestamp", "timestamptz":
		oid, typ := pgtypes.Timestamp, &arrow.TimestampType{Unit: arrow.Microsecond}
		if kind == "timestamptz" {
			oid, typ = pgtypes.Timestamptz, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
		}
		b := array.NewTimestampBuilder(mem, typ)
		switch key {
		case "inf":
			b.Append(tsInfinity)
		case "-inf":
			b.Append(tsMinusInfinity)
		default:
			b.Append(arrow.Timestamp(mustInt(t, key)))
		}
		return oid, b.NewArray()
	case "interval":
		parts := strings.Split(key, ":")
		b := array.NewMonthDayNanoIntervalBuilder(mem)
		b.Append(arrow.MonthDayNanoInterval{Months: int32(mustInt(t, parts[0])), Days: int32(mustInt(t, parts[1])),
			Nanoseconds: mustInt(t, parts[2]) * 1000})
		return pgtypes.Interval, b.NewArray()
	case "uuid":
		b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 16})
		b.Append(mustHex(t, key))
		return pgtypes.UUID, b.NewArray()
	case "bytea":
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
		b.Append(mustHex(t, key))
		return pgtypes.Bytea, b.NewArray()
	}
	t.Fatalf("no scalar kind %q", kind)
	return 0, nil
}

// TestTextMatchesPostgres compares every encoder's text output with what
// PostgreSQL printed for the same value (testdata/text_golden.tsv, made by
// testdata/golden.sql).
func TestTextMatchesPostgres(t *testing.T) {
	rows := readGolden(t)
	if len(rows) < 250 {
		t.Fatalf("golden file has %d rows; want the whole matrix", len(rows))
	}
	for _, r := range rows {
		t.Run(r.kind+"/"+r.key, func(t *testing.T) {
			env := utcEnv()
			var got string
			switch {
			case isCatalogGoldenKind(r.kind):
				got = catalogGolden(t, r.kind, r.key)
			case r.kind == "timestamptz":
				zone, micros, _ := strings.Cut(r.key, " ")
				loc, err := time.LoadLocation(zone)
				if err != nil {
					t.Fatal(err)
				}
				env.loc = loc
				oid, arr := scalarFromKey(t, r.kind, micros)
				got = encodeOne(t, oid, arr, formatText, env)
			case r.kind == "numeric_send":
				oid, arr := scalarFromKey(t, "numeric", r.key)
				got = hex.EncodeToString([]byte(encodeOne(t, oid, arr, formatBinary, env)))
			case r.kind == "jsonb_text":
				got = encodeOne(t, pgtypes.JSONB, jsonText(t, string(mustHex(t, r.key))), formatText, env)
			case r.kind == "jsonb":
				got = encodeOne(t, pgtypes.JSONB, jsonbCases(t)[r.key], formatText, env)
			case r.kind == "jsonb_elem":
				env.loc, _ = time.LoadLocation("Asia/Kolkata")
				got = jsonElement(t, r.key, env)
			case strings.HasSuffix(r.kind, "[]"):
				oid, arr := arrayCase(t, r.kind, r.key)
				got = encodeOne(t, oid, arr, formatText, env)
			default:
				oid, arr := scalarFromKey(t, r.kind, r.key)
				got = encodeOne(t, oid, arr, formatText, env)
			}
			if got != r.want {
				t.Errorf("line %d: got %q, PostgreSQL printed %q", r.line, got, r.want)
			}
		})
	}
}

// jsonElement encodes one scalar inside a jsonb value: a struct {"v": x}
// is encoded and the value part returned.
func jsonElement(t *testing.T, key string, env *encodeEnv) string {
	kind, value, _ := strings.Cut(key, ":")
	var arr arrow.Array
	switch kind {
	case "float8":
		b := array.NewFloat64Builder(memory.DefaultAllocator)
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			t.Fatal(err)
		}
		b.Append(f)
		arr = b.NewArray()
	case "float4":
		b := array.NewFloat32Builder(memory.DefaultAllocator)
		f, err := strconv.ParseFloat(value, 32)
		if err != nil {
			t.Fatal(err)
		}
		b.Append(float32(f))
		arr = b.NewArray()
	default:
		_, arr = scalarFromKey(t, kind, value)
	}
	st, err := array.NewStructArray([]arrow.Array{arr}, []string{"v"})
	if err != nil {
		t.Fatal(err)
	}
	out := encodeOne(t, pgtypes.JSONB, st, formatText, env)
	prefix := `{"v": `
	if !strings.HasPrefix(out, prefix) || !strings.HasSuffix(out, "}") {
		t.Fatalf("struct encoding %q", out)
	}
	return out[len(prefix) : len(out)-1]
}

func decimalNum(v int64) decimal128.Num { return decimal128.FromI64(v) }
