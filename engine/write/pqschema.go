package write

import (
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// nodeKind is the shape of a schema node when shredding Arrow rows into
// Parquet columns.
type nodeKind int

const (
	kindPrimitive nodeKind = iota
	kindStruct
	kindList
	kindMap
)

// schemaNode is one field of the table schema with what the shredder needs:
// its Parquet levels and, for a primitive, the leaf column it fills.
type schemaNode struct {
	kind     nodeKind
	id       int
	name     string // dotted column name ("a.b", "l.element", "m.key")
	optional bool
	prim     *catalog.PrimitiveType
	leaf     *leafColumn   // kindPrimitive
	children []*schemaNode // struct fields; list: element; map: key, value
	repLevel int           // list/map: the repetition level of its entries
	leaves   []*leafColumn // every leaf under this node, in column order
}

// leafColumn is one Parquet column (a primitive Iceberg field).
type leafColumn struct {
	id       int
	name     string
	prim     *catalog.PrimitiveType
	col      int // index among the file's columns
	maxDef   int
	maxRep   int
	repeated bool // inside a list or map: no bounds are kept
	topLevel int  // index of the top-level field it belongs to
	fixedLen int  // decimal stored as FIXED_LEN_BYTE_ARRAY: its length

	vals    []parquet.Value // scratch: the values of the chunk being written
	scratch []byte          // scratch: bytes the values point into
}

// tableLayout is the Parquet schema of a table schema and the shredding
// tree for its top-level fields.
type tableLayout struct {
	schema *parquet.Schema
	fields []*schemaNode
	leaves []*leafColumn
	// source is the Iceberg schema the layout maps.
	source *catalog.Schema
	// enc: the encoding of field ids whose encoding is not their type's
	// default (dictionary for the types dictionaryEncoded lists, else
	// PLAIN).
	enc map[int]columnEncoding
	// pinned: field ids whose encoding is fixed (a table property, or
	// values known to be distinct), not chosen from a file's values.
	pinned map[int]bool
}

// newTableLayout maps an Iceberg schema to a Parquet schema with field ids
// and the logical types of the spec's Parquet appendix, dictionary
// encoding the columns primitiveNode says.
// The fields whose ids plain lists stay PLAIN.
func newTableLayout(s *catalog.Schema, plain ...int) (*tableLayout, error) {
	enc, pinned := map[int]columnEncoding{}, map[int]bool{}
	for _, id := range plain {
		enc[id], pinned[id] = encPlain, true
	}
	return newLayout(s, enc, pinned)
}

// newLayout is newTableLayout with the encoding of the fields in enc set
// and the fields in pinned kept out of the choice per file.
func newLayout(s *catalog.Schema, enc map[int]columnEncoding, pinned map[int]bool) (*tableLayout, error) {
	l := &tableLayout{source: s, enc: enc, pinned: pinned}
	root := &orderedGroup{}
	for i, f := range s.Fields {
		n, pn, err := l.field(f, f.Name, 0, 0, false, i)
		if err != nil {
			return nil, err
		}
		l.fields = append(l.fields, n)
		root.fields = append(root.fields, namedField{Node: pn, name: f.Name})
	}
	l.schema = parquet.NewSchema("table", root)
	return l, nil
}

// field builds the node of field f at definition level def and repetition
// level rep of its parent.
func (l *tableLayout) field(f catalog.NestedField, name string, def, rep int, repeated bool, top int) (*schemaNode, parquet.Node, error) {
	n := &schemaNode{id: f.ID, name: name, optional: !f.Required}
	if n.optional {
		def++
	}
	var pn parquet.Node
	switch t := f.Type.(type) {
	case *catalog.PrimitiveType:
		leafNode, fixedLen, err := primitiveNode(t, name, l.encodingOf(f.ID))
		if err != nil {
			return nil, nil, err
		}
		n.kind, n.prim = kindPrimitive, t
		n.leaf = &leafColumn{id: f.ID, name: name, prim: t, col: len(l.leaves), maxDef: def, maxRep: rep,
			repeated: repeated, topLevel: top, fixedLen: fixedLen}
		l.leaves = append(l.leaves, n.leaf)
		n.leaves = []*leafColumn{n.leaf}
		pn = leafNode
	case *catalog.StructType:
		n.kind = kindStruct
		g := &orderedGroup{}
		for _, c := range t.Fields {
			cn, cpn, err := l.field(c, name+"."+c.Name, def, rep, repeated, top)
			if err != nil {
				return nil, nil, err
			}
			n.children = append(n.children, cn)
			n.leaves = append(n.leaves, cn.leaves...)
			g.fields = append(g.fields, namedField{Node: cpn, name: c.Name})
		}
		pn = g
	case *catalog.ListType:
		n.kind, n.repLevel = kindList, rep+1
		elem := catalog.NestedField{ID: t.ElementID, Name: "element", Required: t.ElementRequired, Type: t.Element}
		en, epn, err := l.field(elem, name+".element", def+1, rep+1, true, top)
		if err != nil {
			return nil, nil, err
		}
		n.children = []*schemaNode{en}
		n.leaves = en.leaves
		pn = parquet.List(epn)
	case *catalog.MapType:
		n.kind, n.repLevel = kindMap, rep+1
		key := catalog.NestedField{ID: t.KeyID, Name: "key", Required: true, Type: t.Key}
		val := catalog.NestedField{ID: t.ValueID, Name: "value", Required: t.ValueRequired, Type: t.Value}
		kn, kpn, err := l.field(key, name+".key", def+1, rep+1, true, top)
		if err != nil {
			return nil, nil, err
		}
		vn, vpn, err := l.field(val, name+".value", def+1, rep+1, true, top)
		if err != nil {
			return nil, nil, err
		}
		n.children = []*schemaNode{kn, vn}
		n.leaves = append(append(n.leaves, kn.leaves...), vn.leaves...)
		pn = parquet.Map(kpn, vpn)
	default:
		return nil, nil, pgerr.Unsupported("writing a column of type %s", f.Type)
	}
	if n.optional {
		pn = parquet.Optional(pn)
	} else {
		pn = parquet.Required(pn)
	}
	return n, parquet.FieldID(pn, f.ID), nil
}

// primitiveNode is the Parquet leaf of an Iceberg primitive type. For a
// decimal too wide for INT64 it also returns the FIXED_LEN_BYTE_ARRAY
// length. Strings and fixed-width numbers, dates and times are dictionary
// encoded, as Iceberg's writers do by default (the writer falls back to
// PLAIN once a column chunk's dictionary passes write.parquet.dict-size-bytes)
// unless enc says PLAIN or DELTA_BINARY_PACKED.
func primitiveNode(t *catalog.PrimitiveType, name string, enc columnEncoding) (parquet.Node, int, error) {
	n, fixedLen, err := plainNode(t, name)
	if err != nil {
		return nil, 0, err
	}
	switch {
	case enc == encDictionary && dictionaryEncoded(t):
		n = parquet.Encoded(n, &parquet.RLEDictionary)
	case enc == encDelta && canDelta(t):
		n = parquet.Encoded(n, &parquet.DeltaBinaryPacked)
	case t.ID == catalog.TString:
		// parquet-go's string leaf defaults to DELTA_LENGTH_BYTE_ARRAY
		n = parquet.Encoded(n, &parquet.Plain)
	}
	return n, fixedLen, nil
}

// encodingOf is the encoding of field id: dictionary unless enc says
// otherwise (primitiveNode writes types that cannot be dictionary encoded
// PLAIN).
func (l *tableLayout) encodingOf(id int) columnEncoding {
	if e, ok := l.enc[id]; ok {
		return e
	}
	return encDictionary
}

// dictionaryEncoded reports whether columns of type t are written
// RLE_DICTIONARY. Low-cardinality columns (quantities, discounts, dates,
// small keys) then take a fraction of their PLAIN bytes, which every
// reader decompresses and scans faster; a column whose dictionary
// outgrows the limit costs one dictionary page per chunk before PLAIN
// pages follow. Booleans (bit-packed already), binaries, fixed and UUIDs
// (seldom repeated) and decimals wider than INT64 stay PLAIN.
func dictionaryEncoded(t *catalog.PrimitiveType) bool {
	switch t.ID {
	case catalog.TString, catalog.TInt, catalog.TLong, catalog.TFloat, catalog.TDouble,
		catalog.TDate, catalog.TTime, catalog.TTimestamp, catalog.TTimestamptz,
		catalog.TTimestampNs, catalog.TTimestamptzNs:
		return true
	case catalog.TDecimal:
		return t.Precision <= 18
	}
	return false
}

// plainNode is the Parquet leaf of an Iceberg primitive type, with the
// column's default (PLAIN) encoding.
func plainNode(t *catalog.PrimitiveType, name string) (parquet.Node, int, error) {
	switch t.ID {
	case catalog.TBoolean:
		return parquet.Leaf(parquet.BooleanType), 0, nil
	case catalog.TInt:
		return parquet.Leaf(parquet.Int32Type), 0, nil
	case catalog.TLong:
		return parquet.Leaf(parquet.Int64Type), 0, nil
	case catalog.TFloat:
		return parquet.Leaf(parquet.FloatType), 0, nil
	case catalog.TDouble:
		return parquet.Leaf(parquet.DoubleType), 0, nil
	case catalog.TDecimal:
		switch {
		case t.Precision <= 9:
			return parquet.Decimal(t.Scale, t.Precision, parquet.Int32Type), 0, nil
		case t.Precision <= 18:
			return parquet.Decimal(t.Scale, t.Precision, parquet.Int64Type), 0, nil
		case t.Precision <= 38:
			n := decimalFixedLength(t.Precision)
			dec := parquet.Decimal(t.Scale, t.Precision, parquet.FixedLenByteArrayType(n))
			return parquet.Leaf(signedDecimal{dec.Type()}), n, nil
		}
	case catalog.TDate:
		return parquet.Date(), 0, nil
	case catalog.TTime:
		return parquet.TimeAdjusted(parquet.Microsecond, false), 0, nil
	case catalog.TTimestamp:
		return parquet.TimestampAdjusted(parquet.Microsecond, false), 0, nil
	case catalog.TTimestamptz:
		return parquet.TimestampAdjusted(parquet.Microsecond, true), 0, nil
	case catalog.TTimestampNs:
		return parquet.TimestampAdjusted(parquet.Nanosecond, false), 0, nil
	case catalog.TTimestamptzNs:
		return parquet.TimestampAdjusted(parquet.Nanosecond, true), 0, nil
	case catalog.TString:
		return parquet.String(), 0, nil
	case catalog.TUUID:
		return parquet.UUID(), 0, nil
	case catalog.TFixed:
		return parquet.Leaf(parquet.FixedLenByteArrayType(t.Length)), 0, nil
	case catalog.TBinary:
		return parquet.Leaf(parquet.ByteArrayType), 0, nil
	}
	return nil, 0, pgerr.Unsupported("writing column %q of type %s", name, t)
}

// decimalFixedLength is the smallest number of bytes whose two's
// complement holds every unscaled value of the precision.
func decimalFixedLength(precision int) int {
	for n := 1; ; n++ {
		// the largest value n bytes hold has 8n-1 bits: about (8n-1)*log10(2) digits
		if float64(8*n-1)*0.30102999566398120 >= float64(precision) {
			return n
		}
	}
}

// orderedGroup is a Parquet group whose fields keep the order of the
// Iceberg schema (parquet.Group orders them by name).
type orderedGroup struct {
	fields []parquet.Field
}

var _ parquet.Node = (*orderedGroup)(nil)

func (g *orderedGroup) ID() int                     { return 0 }
func (g *orderedGroup) String() string              { return "group" }
func (g *orderedGroup) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g *orderedGroup) Optional() bool              { return false }
func (g *orderedGroup) Repeated() bool              { return false }
func (g *orderedGroup) Required() bool              { return true }
func (g *orderedGroup) Leaf() bool                  { return false }
func (g *orderedGroup) Fields() []parquet.Field     { return g.fields }
func (g *orderedGroup) Encoding() encoding.Encoding { return nil }
func (g *orderedGroup) Compression() compress.Codec { return nil }
func (g *orderedGroup) GoType() reflect.Type        { return reflect.TypeFor[map[string]any]() }

// namedField names a node inside an orderedGroup.
type namedField struct {
	parquet.Node
	name string
}

func (f namedField) Name() string                           { return f.name }
func (f namedField) Value(base reflect.Value) reflect.Value { return reflect.Value{} }
