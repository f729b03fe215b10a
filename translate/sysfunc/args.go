package sysfunc

import (
	"fmt"
	"math"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// Argument types of the catalog functions.
var (
	tOIDArg  = plan.Type{OID: pgtypes.OID, Typmod: -1}
	tNameArg = plan.Type{OID: pgtypes.Name, Typmod: -1}
)

// isTextArg reports whether argument i is a string (text, varchar, name,
// or an untyped literal, which PostgreSQL resolves to text when a function
// has both a text and an oid form).
func isTextArg(a bind.Bound) bool {
	if a.Unknown() {
		return !a.IsNull() // an untyped string literal, not an untyped NULL
	}
	switch a.T.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown:
		return true
	}
	return false
}

// oidValue reads an oid argument value.
func oidValue(v any) (uint32, error) {
	n, ok := bind.ToInt64(v)
	if !ok || n < 0 || n > math.MaxUint32 {
		return 0, fmt.Errorf("oid argument %v (%T)", v, v)
	}
	return uint32(n), nil
}

// boolValue reads a boolean argument value (NULL is false).
func boolValue(v any) bool {
	x, _ := v.(bool)
	return x
}

// invalidParameter is SQLSTATE 22023.
func invalidParameter(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, format, args...)
}
