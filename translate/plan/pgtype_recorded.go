package plan

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgtypes"
)

// PGTypesProperty is the table property that records, per field id, the
// PostgreSQL type of a column whose type Iceberg lacks (json, jsonb,
// varchar(n), char(n), smallint, interval). Its value is a JSON object from field id
// (as a string) to the type as format_type prints it:
//
//	{"2": "jsonb", "3": "character varying(20)", "4": "smallint"}
//
// Other engines read the plain Iceberg type (string, int, and for interval
// the struct of its parts, engine.IntervalPartsType); icegate shows a
// PostgreSQL client the recorded one. Keyed by field id, an entry survives
// renames; one whose field is gone or whose Iceberg type no longer fits is
// ignored (and pruned by the next schema change).
const PGTypesProperty = "icegate.pg-types"

// RecordedTypes reads PGTypesProperty from a table's properties. Malformed
// entries are ignored: the plain Iceberg type is then shown.
func RecordedTypes(props map[string]string) map[int]Type {
	raw, ok := props[PGTypesProperty]
	if !ok || raw == "" {
		return nil
	}
	var m map[string]string
	if json.Unmarshal([]byte(raw), &m) != nil {
		return nil
	}
	out := make(map[int]Type, len(m))
	for k, v := range m {
		id, err := strconv.Atoi(k)
		if err != nil {
			continue
		}
		if t, ok := ParseRecordedType(v); ok {
			out[id] = t
		}
	}
	return out
}

// RecordedTypesOf is RecordedTypes of a table (nil for none).
func RecordedTypesOf(t *catalog.Table) map[int]Type {
	if t == nil || t.Metadata == nil {
		return nil
	}
	return RecordedTypes(t.Metadata.Properties)
}

// EncodeRecordedTypes is the value of PGTypesProperty for rec ("" when
// empty: the property is then removed).
func EncodeRecordedTypes(rec map[int]Type) string {
	if len(rec) == 0 {
		return ""
	}
	ids := make([]int, 0, len(rec))
	for id := range rec {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var sb strings.Builder
	sb.WriteByte('{')
	for i, id := range ids {
		if i > 0 {
			sb.WriteString(", ")
		}
		k, _ := json.Marshal(strconv.Itoa(id))
		v, _ := json.Marshal(rec[id].String())
		sb.Write(k)
		sb.WriteString(": ")
		sb.Write(v)
	}
	sb.WriteByte('}')
	return sb.String()
}

// recordableElems are the element types of the arrays of several
// dimensions a table records: those of Iceberg's primitive types.
var recordableElems = []uint32{pgtypes.Bool, pgtypes.Int4, pgtypes.Int8, pgtypes.Float4, pgtypes.Float8, pgtypes.Numeric,
	pgtypes.Text, pgtypes.Bytea, pgtypes.UUID, pgtypes.Date, pgtypes.Time, pgtypes.Timestamp, pgtypes.Timestamptz}

// ParseRecordedType reads a recorded type name (format_type's spelling).
func ParseRecordedType(s string) (Type, bool) {
	s = strings.TrimSpace(s)
	withLen := func(prefix string, oid uint32) (Type, bool) {
		rest := strings.TrimPrefix(s, prefix)
		if rest == "" {
			return Type{OID: oid, Typmod: -1}, true
		}
		if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
			return Type{}, false
		}
		n, err := strconv.Atoi(rest[1 : len(rest)-1])
		if err != nil || n < 1 || n > 10485760 {
			return Type{}, false
		}
		return Type{OID: oid, Typmod: int32(n + 4)}, true
	}
	if base, ok := strings.CutSuffix(s, "[]"); ok {
		// character varying(n)[], character(n)[], json[], interval[]:
		// the array type of the recorded element type, whose length is
		// the array's typmod.
		if et, ok := ParseRecordedType(base); ok && (charArrayElem(et.OID) || et.OID == pgtypes.Interval) {
			return Type{OID: pgtypes.ArrayOf(et.OID), Typmod: et.Typmod}, true
		}
		// An array of several dimensions (nested lists): the array type
		// of its element.
		for _, oid := range recordableElems {
			if pgtypes.TypeName(oid) == base {
				return Type{OID: pgtypes.ArrayOf(oid), Typmod: -1}, true
			}
		}
		return Type{}, false
	}
	switch {
	case s == "json":
		return Type{OID: pgtypes.JSON, Typmod: -1}, true
	case s == "jsonb":
		return TJSONB, true
	case s == "smallint":
		return TInt2, true
	case s == "interval":
		return TInterval, true
	case s == "bpchar":
		return Type{OID: pgtypes.BPChar, Typmod: -1}, true
	case strings.HasPrefix(s, "character varying"):
		return withLen("character varying", pgtypes.Varchar)
	case strings.HasPrefix(s, "character"):
		return withLen("character", pgtypes.BPChar)
	}
	return Type{}, false
}

// Recordable reports whether a column of PostgreSQL type t stored as
// Iceberg type it keeps t in PGTypesProperty: t is one Iceberg lacks and it
// is stored as the plain type recorded types are read back from.
func Recordable(t Type, it catalog.Type) bool {
	if t.OID == pgtypes.Interval {
		return engine.IsIntervalParts(it)
	}
	if t.OID == pgtypes.IntervalArray {
		// Lists (of lists) of the parts.
		lt, ok := it.(*catalog.ListType)
		for ok {
			it = lt.Element
			lt, ok = it.(*catalog.ListType)
		}
		return engine.IsIntervalParts(it)
	}
	if e := pgtypes.ElemOf(t.OID); charArrayElem(e) {
		p, ok := ListLeaf(it).(*catalog.PrimitiveType)
		return ArrayDims(it) >= 1 && ok && p.ID == catalog.TString
	}
	if pgtypes.ElemOf(t.OID) != 0 {
		return ArrayDims(it) >= 2 && TypeOfIceberg(ListLeaf(it)).OID == pgtypes.ElemOf(t.OID)
	}
	p, ok := it.(*catalog.PrimitiveType)
	if !ok {
		return false
	}
	switch t.OID {
	case pgtypes.JSON, pgtypes.JSONB, pgtypes.Varchar, pgtypes.BPChar:
		return p.ID == catalog.TString
	case pgtypes.Int2:
		return p.ID == catalog.TInt
	}
	return false
}

// ArrayDims is the number of dimensions of the arrays an Iceberg type
// stores: its nested list levels down to a primitive element or an
// interval's parts (0 for other types). Other engines read such a column
// as lists of lists; icegate shows it as an array of the element's type with that many dimensions
// when its PostgreSQL type is recorded (PGTypesProperty).
func ArrayDims(it catalog.Type) int {
	d := 0
	for {
		lt, ok := it.(*catalog.ListType)
		if !ok {
			if _, prim := it.(*catalog.PrimitiveType); prim || engine.IsIntervalParts(it) {
				return d // an interval is stored as the struct of its parts
			}
			return 0
		}
		d++
		it = lt.Element
	}
}

// ListLeaf is the innermost element type of nested lists.
func ListLeaf(it catalog.Type) catalog.Type {
	for {
		lt, ok := it.(*catalog.ListType)
		if !ok {
			return it
		}
		it = lt.Element
	}
}

// TypeOfField is the PostgreSQL type of a table column: the recorded one
// when rec holds one for its field id that its Iceberg type still fits,
// else the type of its Iceberg type.
func TypeOfField(f catalog.NestedField, rec map[int]Type) Type {
	if t, ok := rec[f.ID]; ok && Recordable(t, f.Type) {
		return t
	}
	return TypeOfIceberg(f.Type)
}

// PruneRecordedTypes keeps the entries of rec whose field is a top-level
// column of schema with a fitting Iceberg type.
func PruneRecordedTypes(rec map[int]Type, schema *catalog.Schema) map[int]Type {
	out := map[int]Type{}
	if schema == nil {
		return out
	}
	for _, f := range schema.Fields {
		if t, ok := rec[f.ID]; ok && Recordable(t, f.Type) {
			out[f.ID] = t
		}
	}
	return out
}

// IntervalPositions are the positions among ids (field ids of schema, a
// schema of table t) of the interval columns, stored as the struct of
// their parts (engine.IntervalPartsType): a scan of them is wrapped in
// engine.IntervalColumns to read them as intervals.
func IntervalPositions(t *catalog.Table, schema *catalog.Schema, ids []int) []int {
	rec := RecordedTypesOf(t)
	if len(rec) == 0 || schema == nil {
		return nil
	}
	var out []int
	for i, id := range ids {
		pt, ok := rec[id]
		if !ok || pt.OID != pgtypes.Interval && pt.OID != pgtypes.IntervalArray {
			continue
		}
		for _, f := range schema.Fields {
			if f.ID == id && Recordable(pt, f.Type) {
				out = append(out, i)
			}
		}
	}
	return out
}

// charArrayElem reports the element types of the arrays a table records
// at any number of dimensions, stored as lists of strings:
// character varying[(n)], character[(n)] and json.
func charArrayElem(oid uint32) bool {
	return oid == pgtypes.Varchar || oid == pgtypes.BPChar || oid == pgtypes.JSON
}
