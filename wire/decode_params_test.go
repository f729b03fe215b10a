package wire

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestDecodeBinaryParams decodes binary parameters to the text PostgreSQL
// prints for the same value: numeric from PostgreSQL's own numeric_send
// bytes, other types from our binary encoding (itself checked against pgx).
func TestDecodeBinaryParams(t *testing.T) {
	rows := readGolden(t)
	numericText := map[string]string{}
	for _, r := range rows {
		if r.kind == "numeric" {
			numericText[r.key] = r.want
		}
	}
	for _, r := range rows {
		switch r.kind {
		case "numeric_send", "bool", "int2", "int4", "int8", "float4", "float8", "date", "time", "timestamp", "uuid", "bytea", "interval":
		case "timestamptz":
			if !strings.HasPrefix(r.key, "UTC ") {
				continue // binary timestamptz parameters are printed in UTC
			}
		default:
			continue
		}
		t.Run(r.kind+"/"+r.key, func(t *testing.T) {
			var oid uint32
			var bin []byte
			want := r.want
			switch r.kind {
			case "numeric_send":
				oid, bin = pgtypes.Numeric, mustHex(t, r.want)
				want = numericText[r.key]
				if want == "" {
					t.Fatalf("numeric_send row %s has no numeric text row", r.key)
				}
			case "timestamptz":
				_, micros, _ := strings.Cut(r.key, " ")
				arr := scalarArray(t, r.kind, micros, &oid)
				bin = []byte(encodeOne(t, oid, arr, formatBinary, utcEnv()))
			case "bool", "int2", "int4", "int8", "float4", "float8", "date", "time", "timestamp", "uuid", "bytea", "interval":
				arr := scalarArray(t, r.kind, r.key, &oid)
				bin = []byte(encodeOne(t, oid, arr, formatBinary, utcEnv()))
				if r.kind == "bool" {
					want = map[string]string{"t": "true", "f": "false"}[want]
				}
			}
			got, err := decodeBinaryParam(bin, oid)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("decoded %x to %q, want %q", bin, got, want)
			}
		})
	}
}

func scalarArray(t *testing.T, kind, key string, oid *uint32) arrow.Array {
	o, arr := scalarFromKey(t, kind, key)
	*oid = o
	return arr
}

func TestDecodeBinaryParamErrors(t *testing.T) {
	cases := []struct {
		oid  uint32
		hex  string
		code string
	}{
		{pgtypes.Int4, "0102", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Int8, "01", pgerr.InvalidBinaryRepresentation},
		{pgtypes.UUID, "00", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Numeric, "0001", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Numeric, "000100000000000027ff", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Numeric, "0000000012340000", pgerr.InvalidBinaryRepresentation},
		{pgtypes.JSONB, "027b7d", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Interval, "00", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Regtype, "0019", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Char, "6162", pgerr.InvalidBinaryRepresentation},
		{pgtypes.Name, "61ff", "22021"},
		{pgtypes.Inet, "00", pgerr.FeatureNotSupported},
	}
	for _, tc := range cases {
		b, _ := hex.DecodeString(tc.hex)
		_, err := decodeBinaryParam(b, tc.oid)
		if pgerr.Code(err) != tc.code {
			t.Errorf("%s %s: %v, want %s", pgtypes.TypeName(tc.oid), tc.hex, err, tc.code)
		}
	}
	if s, err := decodeBinaryParam([]byte{0, 0, 0, 0, 0xC0, 0, 0, 0}, pgtypes.Numeric); err != nil || s != "NaN" {
		t.Errorf("numeric NaN: %q, %v", s, err)
	}
}
