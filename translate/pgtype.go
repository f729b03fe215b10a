package translate

import (
	"fmt"

	"github.com/icegate/icegate/internal/pgtypes"
)

// pgType is a PostgreSQL type as the binder tracks it per expression: the
// type OID and the typmod (-1 when none; numeric(P,S) and varchar(n) carry
// one).
type pgType struct {
	OID    uint32
	Typmod int32
}

var (
	tBool        = pgType{pgtypes.Bool, -1}
	tInt2        = pgType{pgtypes.Int2, -1}
	tInt4        = pgType{pgtypes.Int4, -1}
	tInt8        = pgType{pgtypes.Int8, -1}
	tFloat4      = pgType{pgtypes.Float4, -1}
	tFloat8      = pgType{pgtypes.Float8, -1}
	tNumeric     = pgType{pgtypes.Numeric, -1}
	tText        = pgType{pgtypes.Text, -1}
	tBytea       = pgType{pgtypes.Bytea, -1}
	tUUID        = pgType{pgtypes.UUID, -1}
	tDate        = pgType{pgtypes.Date, -1}
	tTime        = pgType{pgtypes.Time, -1}
	tTimestamp   = pgType{pgtypes.Timestamp, -1}
	tTimestamptz = pgType{pgtypes.Timestamptz, -1}
	tInterval    = pgType{pgtypes.Interval, -1}
	tJSONB       = pgType{pgtypes.JSONB, -1}
	tUnknown     = pgType{pgtypes.Unknown, -1}
)

// numericType returns numeric(p,s).
func numericType(p, s int) pgType {
	return pgType{pgtypes.Numeric, pgtypes.NumericTypmod(p, s)}
}

// numericPS returns the precision and scale of a numeric typmod; ok is false
// for unconstrained numeric.
func (t pgType) numericPS() (p, s int, ok bool) {
	if t.OID != pgtypes.Numeric || t.Typmod < 4 {
		return 0, 0, false
	}
	m := t.Typmod - 4
	return int(m >> 16), int(m & 0xffff), true
}

// String is the type as PostgreSQL's format_type prints it.
func (t pgType) String() string {
	name := pgtypes.TypeName(t.OID)
	if name == "" {
		name = fmt.Sprintf("oid %d", t.OID)
	}
	if p, s, ok := t.numericPS(); ok {
		return fmt.Sprintf("numeric(%d,%d)", p, s)
	}
	if t.OID == pgtypes.Varchar && t.Typmod >= 4 {
		return fmt.Sprintf("character varying(%d)", t.Typmod-4)
	}
	return name
}
