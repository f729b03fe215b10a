package bind

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// elemPGTypeKey is the metadata key of a set-returning function's column
// that carries its PostgreSQL type when the Arrow type alone would give
// another: unnest of a name[] returns name, of a varchar[] varchar, not
// text.
const elemPGTypeKey = "icegate.pg_type"

// withElemPGType records on unnest's column f the element type of its
// array argument of type arr.
func withElemPGType(f arrow.Field, arr plan.Type) arrow.Field {
	e := pgtypes.ElemOf(arr.OID)
	if e == 0 || pgTypeOfArrow(f.Type).OID == e {
		return f
	}
	if pgtypes.ArrayOf(pgTypeOfArrow(f.Type).OID) == 0 || plan.ArrowOf(plan.Type{OID: e, Typmod: -1}).ID() != f.Type.ID() {
		return f
	}
	f.Metadata = arrow.NewMetadata([]string{elemPGTypeKey}, []string{strconv.FormatUint(uint64(e), 10)})
	return f
}

// fieldPGType is the PostgreSQL type of a set-returning function's column.
func fieldPGType(f arrow.Field) plan.Type {
	if v, ok := f.Metadata.GetValue(elemPGTypeKey); ok {
		if oid, err := strconv.ParseUint(v, 10, 32); err == nil {
			return plan.Type{OID: uint32(oid), Typmod: -1}
		}
	}
	return pgTypeOfArrow(f.Type)
}
