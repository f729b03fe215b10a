package catalog

// scanFilter decides, for one table and a conjunction of predicates, which
// manifests and data files may hold matching rows.
type scanFilter struct {
	table *Table
	preds []Predicate
	// columns: per predicate field id, its type when metrics may prune on it
	// (a primitive field outside lists and maps), else nil.
	columns map[int]*PrimitiveType
	specs   map[int]*specFilter
}

// specFilter is the predicates projected onto one partition spec.
type specFilter struct {
	fields []projected
}

// projected is one predicate projected onto partition field pos, whose
// values have type typ.
type projected struct {
	pos  int
	typ  *PrimitiveType
	pred Predicate
}

func newScanFilter(t *Table, preds []Predicate) *scanFilter {
	f := &scanFilter{table: t, preds: preds, columns: map[int]*PrimitiveType{}, specs: map[int]*specFilter{}}
	for _, p := range preds {
		if _, ok := f.columns[p.FieldID]; !ok {
			f.columns[p.FieldID] = prunableType(t.Metadata, p.FieldID)
		}
	}
	return f
}

// prunableType finds field id in the current schema (else any schema) and
// returns its primitive type when it lies outside lists and maps.
func prunableType(m *TableMetadata, id int) *PrimitiveType {
	schemas := m.Schemas
	if cur := m.CurrentSchema(); cur != nil {
		schemas = append([]*Schema{cur}, schemas...)
	}
	for _, s := range schemas {
		if t, found := structFieldType(s.Fields, id); found {
			return t
		}
	}
	return nil
}

// structFieldType looks for id among fields and their struct children.
func structFieldType(fields []NestedField, id int) (*PrimitiveType, bool) {
	for i := range fields {
		if fields[i].ID == id {
			return Primitive(fields[i].Type), true
		}
		if st, ok := fields[i].Type.(*StructType); ok {
			if t, found := structFieldType(st.Fields, id); found {
				return t, true
			}
		}
	}
	return nil, false
}

// spec returns the predicates projected onto spec (cached by spec id).
func (f *scanFilter) spec(spec *PartitionSpec) *specFilter {
	if spec == nil {
		return &specFilter{}
	}
	if sf, ok := f.specs[spec.ID]; ok {
		return sf
	}
	sf := &specFilter{}
	for pos, pf := range spec.Fields {
		src := f.columns[pf.SourceID]
		if src == nil {
			continue
		}
		res, err := PartitionResultType(pf, f.schemaOf(pf.SourceID))
		if err != nil {
			continue
		}
		for _, p := range f.preds {
			if p.FieldID != pf.SourceID {
				continue
			}
			if q, ok := projectPredicate(p, src, pf.Transform); ok {
				sf.fields = append(sf.fields, projected{pos: pos, typ: res, pred: q})
			}
		}
	}
	f.specs[spec.ID] = sf
	return sf
}

// schemaOf returns a schema holding field id (the current one first).
func (f *scanFilter) schemaOf(id int) *Schema {
	m := f.table.Metadata
	if cur := m.CurrentSchema(); cur != nil && cur.FindField(id) != nil {
		return cur
	}
	for _, s := range m.Schemas {
		if s.FindField(id) != nil {
			return s
		}
	}
	return &Schema{}
}

// manifestMayMatch tests a manifest's partition summaries.
func (f *scanFilter) manifestMayMatch(mf *ManifestFile, spec *PartitionSpec) bool {
	if spec == nil || len(mf.Partitions) != len(spec.Fields) {
		return true
	}
	for _, pp := range f.spec(spec).fields {
		b := summaryBounds(&mf.Partitions[pp.pos], pp.typ)
		if !b.MayMatch(pp.pred.Op, pp.pred.Values) {
			return false
		}
	}
	return true
}

// summaryBounds reads a partition field summary as bounds.
func summaryBounds(s *FieldSummary, t *PrimitiveType) ColumnBounds {
	b := ColumnBounds{MayNull: s.ContainsNull, MayNaN: isFloatType(t) && (s.ContainsNaN == nil || *s.ContainsNaN)}
	if s.LowerBound == nil && s.UpperBound == nil && s.ContainsNull && s.ContainsNaN != nil && !*s.ContainsNaN {
		b.AllNull = true
	}
	b.Lo = decodeBound(t, s.LowerBound)
	b.Hi = decodeBound(t, s.UpperBound)
	return b
}

// fileMayMatch tests a data file's partition values and column metrics.
func (f *scanFilter) fileMayMatch(df *DataFile, spec *PartitionSpec) bool {
	switch {
	case df.RecordCount == 0:
		return false
	case df.RecordCount < 0:
		return true // unknown (some migrated files): metrics cannot be trusted
	}
	if spec != nil && len(df.Partition) == len(spec.Fields) {
		for _, pp := range f.spec(spec).fields {
			v := df.Partition[pp.pos]
			if !partitionValueFits(pp.typ, v) {
				continue
			}
			b := exactBounds(v)
			if !b.MayMatch(pp.pred.Op, pp.pred.Values) {
				return false
			}
		}
	}
	for _, p := range f.preds {
		t := f.columns[p.FieldID]
		if t == nil {
			continue
		}
		b := metricsBounds(df, p.FieldID, t)
		if !b.MayMatch(p.Op, p.Values) {
			return false
		}
	}
	return true
}

// partitionValueFits rejects partition values whose Go form does not
// match the field's current type the way comparisons assume (a date
// identity partition of a column since promoted to timestamp).
func partitionValueFits(t *PrimitiveType, v any) bool {
	if _, narrow := v.(int32); narrow {
		switch t.ID {
		case TTime, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
			return false
		}
	}
	return true
}

// metricsBounds reads a data file's metrics for field id of type t.
func metricsBounds(df *DataFile, id int, t *PrimitiveType) ColumnBounds {
	values, hasValues := df.ValueCounts[id]
	nulls, hasNulls := df.NullValueCounts[id]
	nans, hasNaNs := df.NaNValueCounts[id]
	b := ColumnBounds{
		MayNull: !hasNulls || nulls > 0,
		AllNull: hasValues && hasNulls && nulls == values,
		MayNaN:  isFloatType(t) && (!hasNaNs || nans > 0),
	}
	if lo, ok := df.LowerBounds[id]; ok {
		b.Lo = decodeBound(t, lo)
	}
	if hi, ok := df.UpperBounds[id]; ok {
		b.Hi = decodeBound(t, hi)
	}
	return b
}

// decodeBound decodes a single-value bound, or returns nil (unknown) when
// it is absent or does not decode as t; a NaN bound is unknown too.
func decodeBound(t *PrimitiveType, raw []byte) any {
	if raw == nil {
		return nil
	}
	switch t.ID {
	case TTime, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
		if len(raw) != 8 {
			return nil // written as a date before a promotion
		}
	}
	v, err := DecodeValue(t, raw)
	if err != nil || isNaN(v) {
		return nil
	}
	return v
}

func isFloatType(t *PrimitiveType) bool {
	return t != nil && (t.ID == TFloat || t.ID == TDouble)
}
