package scan

import (
	"encoding/binary"
	"math"
	"math/big"
	"sync/atomic"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// ScanStats counts the work of a scan: row groups (Parquet) and stripes
// (ORC) considered and skipped, and the rows decoded from the groups read
// (before deletes).
//
// RowGroupsSkipped counts the groups skipped by statistics or by bloom
// filters, BloomSkipped those of them the bloom filters ruled out. Pages
// counts the pages of filtered columns whose column index was read in the
// groups not skipped, PagesSkipped those the column index ruled out (their
// rows are not decoded in any column).
type ScanStats struct {
	RowGroups, RowGroupsSkipped int
	BloomSkipped                int
	Pages, PagesSkipped         int
	Rows                        int64
	// RowsByCode counts the rows that exact conjuncts judged by their
	// column's dictionary code rather than by value (dictfilter.go), once
	// per column judged.
	RowsByCode int64
}

// Stats returns what the scan has done so far; after the last batch it is
// final.
func (s *Scan) Stats() ScanStats {
	if s.counters == nil {
		return ScanStats{}
	}
	return ScanStats{
		RowGroups:        int(s.counters.groups.Load()),
		RowGroupsSkipped: int(s.counters.skipped.Load()),
		BloomSkipped:     int(s.counters.bloomSkipped.Load()),
		Pages:            int(s.counters.pages.Load()),
		PagesSkipped:     int(s.counters.pagesSkipped.Load()),
		Rows:             s.counters.rows.Load(),
		RowsByCode:       s.counters.byCode.Load(),
	}
}

// scanCounters are shared by the workers of one scan.
type scanCounters struct {
	groups, skipped, bloomSkipped atomic.Int64
	pages, pagesSkipped, rows     atomic.Int64
	byCode                        atomic.Int64
}

// groupFilter holds the scan's predicates that row-group statistics can
// judge, by field id: those on primitive fields of the read schema that
// are top-level or inside structs (not lists or maps).
type groupFilter map[int]*prunedField

type prunedField struct {
	typ   *catalog.PrimitiveType
	preds []catalog.Predicate
}

func newGroupFilter(spec engine.ScanSpec) groupFilter {
	if spec.Schema == nil {
		return nil
	}
	var g groupFilter
	for _, p := range spec.Filters {
		t := structFieldType(spec.Schema.Fields, p.FieldID)
		if t == nil {
			continue
		}
		if g == nil {
			g = groupFilter{}
		}
		if g[p.FieldID] == nil {
			g[p.FieldID] = &prunedField{typ: t}
		}
		g[p.FieldID].preds = append(g[p.FieldID].preds, p)
	}
	return g
}

// structFieldType finds a primitive field by id among fields and their
// struct children.
func structFieldType(fields []catalog.NestedField, id int) *catalog.PrimitiveType {
	for i := range fields {
		if fields[i].ID == id {
			return catalog.Primitive(fields[i].Type)
		}
		if st, ok := fields[i].Type.(*catalog.StructType); ok {
			if t := structFieldType(st.Fields, id); t != nil {
				return t
			}
		}
	}
	return nil
}

// prunedColumn is one filtered column as a Parquet file stores it.
type prunedColumn struct {
	node  *pqNode
	typ   *catalog.PrimitiveType
	preds []catalog.Predicate
}

// parquetGroupFilter binds the filter to the columns of one file: the
// leaves, outside lists and maps, of the read fields the file holds.
func parquetGroupFilter(g groupFilter, fields []readField, top []*pqNode) []prunedColumn {
	var out []prunedColumn
	var walk func(n *pqNode)
	walk = func(n *pqNode) {
		if n.maxRep > 0 {
			return
		}
		switch n.shape {
		case pqPrimitive:
			if pf := g[n.id]; pf != nil && n.id != 0 && n.leaf >= 0 {
				out = append(out, prunedColumn{node: n, typ: pf.typ, preds: pf.preds})
			}
		case pqStruct:
			for _, c := range n.children {
				walk(c)
			}
		}
	}
	for _, rf := range fields {
		for _, n := range top {
			if n.id != 0 && n.id == rf.field.ID {
				walk(n)
				break
			}
		}
	}
	return out
}

// rowGroupMayMatch reports whether row group rg of a file whose footer is
// meta may hold a row matching every predicate.
func rowGroupMayMatch(meta *format.FileMetaData, rg int, cols []prunedColumn) bool {
	group := &meta.RowGroups[rg]
	for _, c := range cols {
		if c.node.leaf >= len(group.Columns) {
			continue
		}
		b, ok := chunkBounds(meta, &group.Columns[c.node.leaf].MetaData, c.node, c.typ)
		if !ok {
			continue
		}
		for _, p := range c.preds {
			if !b.MayMatch(p.Op, p.Values) {
				return false
			}
		}
	}
	return true
}

// chunkBounds reads a column chunk's statistics as bounds on Iceberg
// values of type t, converted the way the reader converts the values.
// Bounds whose order cannot be trusted are left unknown: legacy min/max of
// byte arrays (signed bytes), unsigned integers, INT96, decimals stored as
// variable-length byte arrays; decimals whose bounds come out inverted
// (written in unsigned byte order) are dropped by ColumnBounds.
func chunkBounds(meta *format.FileMetaData, md *format.ColumnMetaData, n *pqNode, t *catalog.PrimitiveType) (catalog.ColumnBounds, bool) {
	st := &md.Statistics
	b := catalog.ColumnBounds{MayNull: true, MayNaN: t.ID == catalog.TFloat || t.ID == catalog.TDouble}
	// A null count that was not written reads as 0, so only a positive
	// count equal to the number of values is trusted (all null).
	if st.NullCount > 0 && st.NullCount == md.NumValues {
		b.AllNull = true
		return b, true
	}
	e := n.elem
	if unsignedInt(e) || !columnOrderDefined(meta, n.leaf) {
		return b, true
	}
	lo, hi := st.MinValue, st.MaxValue
	if lo == nil || hi == nil {
		switch e.Type.V {
		case format.Boolean, format.Int32, format.Int64, format.Float, format.Double:
			lo, hi = st.Min, st.Max // legacy signed order: right for these
		default:
			return b, true
		}
	}
	if lo == nil || hi == nil {
		return b, true
	}
	b.Lo = statValue(e, t, lo)
	b.Hi = statValue(e, t, hi)
	if b.Lo == nil || b.Hi == nil {
		b.Lo, b.Hi = nil, nil
	}
	return b, true
}

// columnOrderDefined reports whether min_value/max_value of leaf follow the
// type's order (true when the footer states no column orders).
func columnOrderDefined(meta *format.FileMetaData, leaf int) bool {
	if len(meta.ColumnOrders) == 0 {
		return true
	}
	if leaf >= len(meta.ColumnOrders) {
		return false
	}
	_, ok := meta.ColumnOrders[leaf].Value.(*format.TypeDefinedOrder)
	return ok
}

func unsignedInt(e *format.SchemaElement) bool {
	if it, ok := e.LogicalType.Value.(*format.IntType); ok && !it.IsSigned {
		return true
	}
	if e.ConvertedType.Valid {
		switch e.ConvertedType.V {
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			return true
		}
	}
	return false
}

// statValue decodes one PLAIN-encoded statistic into the catalog value the
// reader would produce for it, or nil.
func statValue(e *format.SchemaElement, t *catalog.PrimitiveType, raw []byte) any {
	phys := e.Type.V
	i32 := func() (int32, bool) {
		if phys != format.Int32 || len(raw) != 4 {
			return 0, false
		}
		return int32(binary.LittleEndian.Uint32(raw)), true
	}
	i64 := func() (int64, bool) {
		if phys != format.Int64 || len(raw) != 8 {
			return 0, false
		}
		return int64(binary.LittleEndian.Uint64(raw)), true
	}
	switch t.ID {
	case catalog.TBoolean:
		if phys == format.Boolean && len(raw) >= 1 {
			return raw[0]&1 != 0
		}
	case catalog.TInt, catalog.TDate:
		if v, ok := i32(); ok {
			return v
		}
	case catalog.TLong:
		if v, ok := i64(); ok {
			return v
		}
		if v, ok := i32(); ok {
			return int64(v)
		}
	case catalog.TFloat:
		if phys == format.Float && len(raw) == 4 {
			return math.Float32frombits(binary.LittleEndian.Uint32(raw))
		}
	case catalog.TDouble:
		if phys == format.Double && len(raw) == 8 {
			return math.Float64frombits(binary.LittleEndian.Uint64(raw))
		}
		if phys == format.Float && len(raw) == 4 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(raw)))
		}
	case catalog.TTime:
		if v, ok := i32(); ok {
			return int64(v) * 1000 // TIME(MILLIS)
		}
		if v, ok := i64(); ok {
			return scaleTicks(v, timeUnit(e), 1e3)
		}
	case catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		want := int64(1e3)
		if t.ID == catalog.TTimestampNs || t.ID == catalog.TTimestamptzNs {
			want = 1
		}
		if v, ok := i64(); ok {
			return scaleTicks(v, timeUnit(e), want)
		}
	case catalog.TDecimal:
		if s, ok := fileDecimalScale(e); !ok || s != t.Scale {
			return nil
		}
		if v, ok := i32(); ok {
			return catalog.Decimal{Unscaled: big.NewInt(int64(v)), Scale: t.Scale}
		}
		if v, ok := i64(); ok {
			return catalog.Decimal{Unscaled: big.NewInt(v), Scale: t.Scale}
		}
		if phys == format.FixedLenByteArray && len(raw) > 0 {
			return catalog.Decimal{Unscaled: catalog.BigIntFromTwosComplement(raw), Scale: t.Scale}
		}
	case catalog.TString:
		if phys == format.ByteArray {
			return string(raw)
		}
	case catalog.TBinary, catalog.TFixed:
		if phys == format.ByteArray || phys == format.FixedLenByteArray {
			return append([]byte{}, raw...)
		}
	case catalog.TUUID:
		if phys == format.FixedLenByteArray && len(raw) == 16 {
			var u [16]byte
			copy(u[:], raw)
			return u
		}
	}
	return nil
}

// scaleTicks converts a time value from one unit (nanoseconds per tick) to
// another as the reader does (floor when coarsening).
func scaleTicks(v, from, to int64) int64 {
	if from >= to {
		return v * (from / to)
	}
	return floorDiv(v, to/from)
}
