package wire

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// TestDecodeBinaryValues decodes binary parameters straight to values:
// each must be the value of the Arrow array the binary form was encoded
// from (numeric: PostgreSQL's own numeric_send bytes against the text
// PostgreSQL prints), and the errors must be decodeBinaryParam's.
func TestDecodeBinaryValues(t *testing.T) {
	rows := readGolden(t)
	numericText := map[string]string{}
	for _, r := range rows {
		if r.kind == "numeric" {
			numericText[r.key] = r.want
		}
	}
	n := 0
	for _, r := range rows {
		switch r.kind {
		case "numeric_send":
			bin := mustHex(t, r.want)
			v, ok, err := decodeBinaryValue(bin, pgtypes.Numeric)
			if err != nil {
				t.Fatalf("numeric %s: %v", r.key, err)
			}
			want := numericText[r.key]
			if !ok {
				if want != "NaN" && !strings.Contains(want, "Infinity") && len(strings.Trim(want, "-.0")) <= 38 {
					t.Errorf("numeric %s (%s): not decoded to a value", r.key, want)
				}
				continue
			}
			if got := decimalString(v.(translate.Numeric)); got != want {
				t.Errorf("numeric %x: %s, want %s", bin, got, want)
			}
			n++
		case "bool", "int2", "int4", "int8", "float4", "float8", "date", "time", "timestamp", "uuid", "bytea", "interval", "timestamptz":
			var oid uint32
			key := r.key
			if r.kind == "timestamptz" {
				if !strings.HasPrefix(key, "UTC ") {
					continue
				}
				_, key, _ = strings.Cut(key, " ")
			}
			arr := scalarArray(t, r.kind, key, &oid)
			bin := []byte(encodeOne(t, oid, arr, formatBinary, utcEnv()))
			v, ok, err := decodeBinaryValue(bin, oid)
			if err != nil || !ok {
				t.Errorf("%s %s: %v, %v", r.kind, r.key, ok, err)
				continue
			}
			lit, err := expr.ValueLit(arr, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := valueString(v), valueString(lit.V); got != want {
				t.Errorf("%s %s: decoded %s, want %s", r.kind, r.key, got, want)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no golden rows")
	}
	for _, tc := range []struct {
		oid  uint32
		hex  string
		code string
	}{
		{pgtypes.Int4, "0102", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Numeric, "000100000000000027ff", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Numeric, "0000000012340000", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Time, "0000001424000001", pgerr.DatetimeFieldOverflow},
		{pgtypes.Text, "61ff", "22021"},
	} {
		_, _, err := decodeBinaryValue(mustHex(t, tc.hex), tc.oid)
		if pgerr.Code(err) != tc.code {
			t.Errorf("%d %s: %v, want %s", tc.oid, tc.hex, err, tc.code)
		}
		_, errText := decodeBinaryParam(mustHex(t, tc.hex), tc.oid)
		if pgerr.Code(errText) != pgerr.Code(err) {
			t.Errorf("%d %s: %v, the text path says %v", tc.oid, tc.hex, err, errText)
		}
	}
}

// TestDecodeParamsTyped: binary parameters of the types with values
// become values, the others keep their text form; the bad one is named.
func TestDecodeParamsTyped(t *testing.T) {
	int8One := mustHex(t, "0000000000000001")
	text, typed, err := decodeParamsTyped([][]byte{int8One, []byte("x"), nil, mustHex(t, "01")},
		[]int16{formatBinary, formatText, formatBinary, formatBinary},
		[]uint32{pgtypes.Int8, pgtypes.Int8, pgtypes.Int8, pgtypes.Char})
	if err != nil {
		t.Fatal(err)
	}
	if typed[0] != int64(1) || text[0] != nil || *text[1] != "x" || typed[1] != nil || text[2] != nil || typed[2] != nil ||
		text[3] == nil || typed[3] != nil {
		t.Errorf("text %v typed %v", text, typed)
	}
	if _, typed, _ := decodeParamsTyped([][]byte{[]byte("1")}, nil, []uint32{pgtypes.Int8}); typed != nil {
		t.Errorf("text parameters: typed %v, want nil", typed)
	}
	_, _, err = decodeParamsTyped([][]byte{int8One, mustHex(t, "01")}, []int16{formatBinary}, []uint32{pgtypes.Int8, pgtypes.Int4})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InvalidBinaryRepresentation || !strings.HasSuffix(pe.Message, "parameter 2") {
		t.Errorf("bad second parameter: %v", err)
	}
}

func decimalString(d translate.Numeric) string {
	s := new(big.Int).Abs(d.Unscaled).String()
	for len(s) <= d.Scale {
		s = "0" + s
	}
	if d.Scale > 0 {
		s = s[:len(s)-d.Scale] + "." + s[len(s)-d.Scale:]
	}
	if d.Unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}

func valueString(v any) string {
	switch x := v.(type) {
	case []byte:
		return string(x)
	}
	return strings.TrimSpace(fmtAny(v))
}

func fmtAny(v any) string { return fmt.Sprintf("%T %v", v, v) }
