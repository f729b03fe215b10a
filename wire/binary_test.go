package wire

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// TestBinaryAgreesWithPostgresText encodes every scalar golden value in
// binary and decodes it with pgx; decoding PostgreSQL's own text of the
// value with pgx must give the same result.
func TestBinaryAgreesWithPostgresText(t *testing.T) {
	m := pgtype.NewMap()
	for _, r := range readGolden(t) {
		switch r.kind {
		case "bool", "int2", "int4", "int8", "float4", "float8", "numeric", "date", "time", "timestamp",
			"timestamptz", "uuid", "bytea", "interval":
		default:
			continue
		}
		t.Run(r.kind+"/"+r.key, func(t *testing.T) {
			key := r.key
			if r.kind == "timestamptz" {
				_, key, _ = strings.Cut(key, " ")
			}
			oid, arr := scalarFromKey(t, r.kind, key)
			bin := encodeOne(t, oid, arr, formatBinary, utcEnv())
			typ, ok := m.TypeForOID(oid)
			if !ok {
				t.Fatalf("pgx has no type %d", oid)
			}
			fromBinary, err := typ.Codec.DecodeValue(m, oid, pgtype.BinaryFormatCode, []byte(bin))
			if err != nil {
				t.Fatalf("pgx cannot decode our binary %x: %v", bin, err)
			}
			fromText, err := typ.Codec.DecodeValue(m, oid, pgtype.TextFormatCode, []byte(r.want))
			if err != nil {
				t.Skipf("pgx cannot decode PostgreSQL's text %q: %v", r.want, err)
			}
			if g, w := comparable(fromBinary), comparable(fromText); g != w {
				t.Errorf("binary decodes to %s, PostgreSQL's text %q to %s", g, r.want, w)
			}
		})
	}
}

// comparable renders a decoded value so that equal values print alike.
func comparable(v any) string {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05.999999999 Z07:00")
	case pgtype.Numeric:
		if x.NaN {
			return "NaN"
		}
		if x.InfinityModifier != pgtype.Finite {
			return fmt.Sprint(x.InfinityModifier)
		}
		if x.Int.Sign() == 0 {
			return "0" // pgx drops the display scale of zero; numeric_send rows check it
		}
		// Compare the exact value and the display scale.
		return fmt.Sprintf("%s e%d", x.Int, x.Exp)
	case float64:
		if math.IsNaN(x) {
			return "NaN"
		}
		return fmt.Sprintf("%b", x)
	case float32:
		if x != x {
			return "NaN"
		}
		return fmt.Sprintf("%b", x)
	}
	return fmt.Sprintf("%#v", v)
}
