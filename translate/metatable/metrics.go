package metatable

import (
	"strconv"

	"github.com/icegate/icegate/catalog"
)

// readableMetrics renders a file's column metrics by column name, with
// bounds decoded to values: Spark's readable_metrics, as jsonb.
type readableMetrics struct {
	leaves []metricLeaf
}

// metricLeaf is one primitive column of the schema, nested ones named by
// their dotted path.
type metricLeaf struct {
	id   int
	name string
	typ  *catalog.PrimitiveType
}

func newReadableMetrics(schema *catalog.Schema) *readableMetrics {
	r := &readableMetrics{}
	if schema == nil {
		return r
	}
	var walk func(prefix string, id int, name string, t catalog.Type)
	walk = func(prefix string, id int, name string, t catalog.Type) {
		full := name
		if prefix != "" {
			full = prefix + "." + name
		}
		switch t := t.(type) {
		case *catalog.PrimitiveType:
			r.leaves = append(r.leaves, metricLeaf{id: id, name: full, typ: t})
		case *catalog.StructType:
			for _, f := range t.Fields {
				walk(full, f.ID, f.Name, f.Type)
			}
		case *catalog.ListType:
			walk(full, t.ElementID, "element", t.Element)
		case *catalog.MapType:
			walk(full, t.KeyID, "key", t.Key)
			walk(full, t.ValueID, "value", t.Value)
		}
	}
	for _, f := range schema.Fields {
		walk("", f.ID, f.Name, f.Type)
	}
	return r
}

// of renders df's metrics.
func (r *readableMetrics) of(df *catalog.DataFile) any {
	var o mjObj
	for _, l := range r.leaves {
		var m mjObj
		m.Add("column_size", countJSON(df.ColumnSizes, l.id))
		m.Add("value_count", countJSON(df.ValueCounts, l.id))
		m.Add("null_value_count", countJSON(df.NullValueCounts, l.id))
		m.Add("nan_value_count", countJSON(df.NaNValueCounts, l.id))
		m.Add("lower_bound", boundJSON(df.LowerBounds, l))
		m.Add("upper_bound", boundJSON(df.UpperBounds, l))
		o.Add(l.name, m.String())
	}
	return o.String()
}

func countJSON(m map[int]int64, id int) string {
	if v, ok := m[id]; ok {
		return strconv.FormatInt(v, 10)
	}
	return "null"
}

func boundJSON(m map[int][]byte, l metricLeaf) string {
	b, ok := m[l.id]
	if !ok {
		return "null"
	}
	v, err := catalog.DecodeValue(l.typ, b)
	if err != nil {
		return "null"
	}
	return mjValue(v, l.typ)
}
