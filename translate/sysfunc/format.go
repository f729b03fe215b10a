package sysfunc

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// format_type(type oid, typmod int4): the SQL name of a type as
// PostgreSQL 15 prints it (numeric(10,2), character varying(20),
// timestamp(3) with time zone, integer[]; "???" for an unknown OID). It is
// not strict in typmod: NULL means no typmod was given, which differs from
// -1 for character ("character" vs "bpchar") and bit.

func addFormatFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"format_type": {Bind: bindFormatType},
	})
}

func bindFormatType(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2); err != nil {
		return bind.Bound{}, err
	}
	args := b.SysArgs(c, tOIDArg, plan.TInt4)
	return b.SysCall(c, plan.TText, args, bind.SysCallOpts{Lenient: true, Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		if v[0] == nil {
			return nil, nil
		}
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		if snap != nil {
			if e := snap.EnumByOID(oid); e != nil {
				return EnumTypeName(snap, e), nil
			}
		}
		typmod, given := int64(-1), v[1] != nil
		if given {
			typmod, _ = bind.ToInt64(v[1])
		}
		return FormatType(oid, int32(typmod), given)
	})
}

// Type OIDs format_type names specially.
const (
	oidBit    = 1560
	oidVarbit = 1562
	oidTimetz = 1266
)

// typeFacts returns what format_type needs of a type: its name (typname,
// or for types syscat does not list yet the SQL name, already quoted), and
// its element type when it is an array.
func typeFacts(oid uint32) (name string, quoted bool, elem uint32, ok bool) {
	if ti := syscat.TypeByOID(oid); ti != nil {
		if ti.Elem != 0 && ti.Storage != 'p' {
			elem = ti.Elem
		}
		if ti.Namespace == syscat.InformationSchemaOID && elem == 0 {
			// Not on the search path: PostgreSQL qualifies it.
			return "information_schema." + ti.Name, true, 0, true
		}
		return ti.Name, false, elem, true
	}
	if oid != pgtypes.Int2Vector && oid != pgtypes.OIDVector {
		if e := pgtypes.ElemOf(oid); e != 0 {
			return "", false, e, true
		}
	}
	switch oid {
	case oidBit:
		return "bit", false, 0, true
	case oidVarbit:
		return "varbit", false, 0, true
	case oidTimetz:
		return "timetz", false, 0, true
	}
	if n := pgtypes.TypeName(oid); n != "" {
		return n, true, 0, true
	}
	return "", false, 0, false
}

// FormatType is format_type(oid, typmod); given is false when the typmod
// argument was NULL.
func FormatType(oid uint32, typmod int32, given bool) (string, error) {
	if oid == 0 {
		return "-", nil
	}
	name, quoted, elem, ok := typeFacts(oid)
	if !ok {
		return "???", nil
	}
	suffix := ""
	if elem != 0 {
		oid, suffix = elem, "[]"
		if name, quoted, _, ok = typeFacts(oid); !ok {
			return "???" + suffix, nil
		}
	}
	with := given && typmod >= 0
	var s string
	switch oid {
	case oidBit:
		switch {
		case with:
			s = fmt.Sprintf("bit(%d)", typmod)
		case given:
			s = syscat.QuoteIdent("bit") // bit with typmod -1 is not bit(1)
		default:
			s = "bit"
		}
	case pgtypes.Bool:
		s = "boolean"
	case pgtypes.BPChar:
		switch {
		case with:
			s = "character" + charTypmod(typmod)
		case given:
			s = "bpchar" // no length: not the same as character(1)
		default:
			s = "character"
		}
	case pgtypes.Float4:
		s = "real"
	case pgtypes.Float8:
		s = "double precision"
	case pgtypes.Int2:
		s = "smallint"
	case pgtypes.Int4:
		s = "integer"
	case pgtypes.Int8:
		s = "bigint"
	case pgtypes.Numeric:
		s = "numeric"
		if with {
			s += numericTypmod(typmod)
		}
	case pgtypes.Interval:
		s = "interval"
		if with {
			t, err := intervalTypmod(typmod)
			if err != nil {
				return "", err
			}
			s += t
		}
	case pgtypes.Time, oidTimetz, pgtypes.Timestamp, pgtypes.Timestamptz:
		s = "time"
		if oid == pgtypes.Timestamp || oid == pgtypes.Timestamptz {
			s = "timestamp"
		}
		if with {
			s += fmt.Sprintf("(%d)", typmod)
		}
		if oid == oidTimetz || oid == pgtypes.Timestamptz {
			s += " with time zone"
		} else {
			s += " without time zone"
		}
	case oidVarbit:
		s = "bit varying"
		if with {
			s += fmt.Sprintf("(%d)", typmod)
		}
	case pgtypes.Varchar:
		s = "character varying"
		if with {
			s += charTypmod(typmod)
		}
	default:
		s = name
		if !quoted {
			s = syscat.QuoteIdent(name)
		}
	}
	return s + suffix, nil
}

// charTypmod is the length suffix of character and character varying.
func charTypmod(typmod int32) string {
	if typmod > 4 {
		return fmt.Sprintf("(%d)", typmod-4)
	}
	return ""
}

// numericTypmod is "(precision,scale)"; the scale may be negative.
func numericTypmod(typmod int32) string {
	if typmod < 4 {
		return ""
	}
	t := typmod - 4
	precision := (t >> 16) & 0xffff
	scale := ((t & 0x7ff) ^ 1024) - 1024
	return fmt.Sprintf("(%d,%d)", precision, scale)
}

// Interval typmod fields, as PostgreSQL packs them: range << 16 | precision.
const (
	ivMonth  = 1 << 1
	ivYear   = 1 << 2
	ivDay    = 1 << 3
	ivHour   = 1 << 10
	ivMinute = 1 << 11
	ivSecond = 1 << 12
	ivFull   = 0x7fff
)

var intervalFields = map[int32]string{
	ivYear: " year", ivMonth: " month", ivDay: " day", ivHour: " hour", ivMinute: " minute",
	ivSecond: " second", ivYear | ivMonth: " year to month", ivDay | ivHour: " day to hour",
	ivDay | ivHour | ivMinute: " day to minute", ivDay | ivHour | ivMinute | ivSecond: " day to second",
	ivHour | ivMinute: " hour to minute", ivHour | ivMinute | ivSecond: " hour to second",
	ivMinute | ivSecond: " minute to second", ivFull: "",
}

// intervalTypmod is the fields and precision suffix of interval.
func intervalTypmod(typmod int32) (string, error) {
	fields, ok := intervalFields[(typmod>>16)&0x7fff]
	if !ok {
		return "", pgerr.New(pgerr.InternalError, "invalid INTERVAL typmod: 0x%x", typmod)
	}
	if p := typmod & 0xffff; p != 0xffff {
		return fmt.Sprintf("%s(%d)", fields, p), nil
	}
	return fields, nil
}

// EnumTypeName is how format_type names an enum type: qualified when its
// schema is not on the search path.
func EnumTypeName(snap *syscat.Snapshot, e *syscat.Enum) string {
	if slices.Contains(snap.SearchPath, e.Namespace) {
		return syscat.QuoteIdent(e.Name)
	}
	return syscat.QuoteIdent(e.Namespace) + "." + syscat.QuoteIdent(e.Name)
}
