package plan

import (
	"fmt"

	"github.com/icegate/icegate/internal/pgtypes"
)

// Type is a PostgreSQL type as the binder tracks it per expression: the
// type OID and the typmod (-1 when none; numeric(P,S) and varchar(n) carry
// one).
type Type struct {
	OID    uint32
	Typmod int32
}

var (
	TBool        = Type{pgtypes.Bool, -1}
	TInt2        = Type{pgtypes.Int2, -1}
	TInt4        = Type{pgtypes.Int4, -1}
	TInt8        = Type{pgtypes.Int8, -1}
	TFloat4      = Type{pgtypes.Float4, -1}
	TFloat8      = Type{pgtypes.Float8, -1}
	TNumeric     = Type{pgtypes.Numeric, -1}
	TText        = Type{pgtypes.Text, -1}
	TBytea       = Type{pgtypes.Bytea, -1}
	TUUID        = Type{pgtypes.UUID, -1}
	TDate        = Type{pgtypes.Date, -1}
	TTime        = Type{pgtypes.Time, -1}
	TTimestamp   = Type{pgtypes.Timestamp, -1}
	TTimestamptz = Type{pgtypes.Timestamptz, -1}
	TInterval    = Type{pgtypes.Interval, -1}
	TJSONB       = Type{pgtypes.JSONB, -1}
	TUnknown     = Type{pgtypes.Unknown, -1}
)

// NumericType returns numeric(p,s).
func NumericType(p, s int) Type {
	return Type{pgtypes.Numeric, pgtypes.NumericTypmod(p, s)}
}

// numericPS returns the precision and scale of a numeric typmod; ok is false
// for unconstrained numeric.
func (t Type) NumericPS() (p, s int, ok bool) {
	if t.OID != pgtypes.Numeric || t.Typmod < 4 {
		return 0, 0, false
	}
	m := t.Typmod - 4
	return int(m >> 16), int(m & 0xffff), true
}

// String is the type as PostgreSQL's format_type prints it.
func (t Type) String() string {
	name := pgtypes.TypeName(t.OID)
	if name == "" {
		name = fmt.Sprintf("oid %d", t.OID)
	}
	if p, s, ok := t.NumericPS(); ok {
		return fmt.Sprintf("numeric(%d,%d)", p, s)
	}
	if t.OID == pgtypes.Varchar && t.Typmod >= 4 {
		return fmt.Sprintf("character varying(%d)", t.Typmod-4)
	}
	return name
}
