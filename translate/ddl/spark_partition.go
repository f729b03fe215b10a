package ddl

import (
	"slices"
	"strconv"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// Partition evolution (ADD / DROP / REPLACE PARTITION FIELD) and the write
// order (WRITE ORDERED BY ...), Spark's clauses of ALTER TABLE.

// specEdit is the table's default partition spec being changed.
type specEdit struct {
	meta   *catalog.TableMetadata
	fields []catalog.PartitionField
}

func NewSpecEdit(m *catalog.TableMetadata) *specEdit {
	p := &specEdit{meta: m}
	if s := m.SpecByID(m.DefaultSpecID); s != nil {
		p.fields = slices.Clone(s.Fields)
	}
	return p
}

func (p *specEdit) Apply(kind string, c *TokCursor) error {
	switch kind {
	case "add-part":
		return p.AddTerm(c, c.until("as"))
	case "drop-part":
		term := c.Toks[c.I:]
		c.I = len(c.Toks)
		return p.dropTerm(c, term)
	case "replace-part":
		old := c.until("with")
		if !c.accept("with") {
			return c.syntax("WITH")
		}
		if err := p.dropTerm(c, old); err != nil {
			return err
		}
		return p.AddTerm(c, c.until("as"))
	}
	return pgerr.NotYet("this partition clause")
}

// term binds one partition term (col, days(ts), bucket(16, id)...) to the
// current schema: the field without an id, named by default.
func (p *specEdit) term(c *TokCursor, t []parse.DialectTok) (catalog.PartitionField, error) {
	items, err := parse.ParsePartitionItems(parse.JoinDottedNames(t))
	if err != nil || len(items) != 1 {
		return catalog.PartitionField{}, c.sub(t).syntax("a partition transform")
	}
	it := items[0]
	e := &SchemaEdit{schema: p.meta.CurrentSchema()}
	fs, i := e.lookup(it.Column)
	if fs == nil {
		return catalog.PartitionField{}, pgerr.New(pgerr.UndefinedColumn, "partition column \"%s\" does not exist", it.Column)
	}
	src := &(*fs)[i]
	tr, suffix, err := transformOf(it)
	if err != nil {
		return catalog.PartitionField{}, err
	}
	if err := transformApplies(tr, src); err != nil {
		return catalog.PartitionField{}, err
	}
	name := it.Column
	switch tr.Name {
	case "bucket", "truncate":
		name += "_" + suffix + "_" + strconv.Itoa(tr.Param)
	case "identity":
	default:
		name += "_" + suffix
	}
	return catalog.PartitionField{SourceID: src.ID, Name: name, Transform: tr}, nil
}

// addTerm adds term [AS name] (the rest of c after the term).
func (p *specEdit) AddTerm(c *TokCursor, t []parse.DialectTok) error {
	f, err := p.term(c, t)
	if err != nil {
		return err
	}
	if c.accept("as") {
		if c.done() || !parse.IsWordTok(c.Toks[c.I]) {
			return c.syntax("a partition field name")
		}
		f.Name = parse.IdentText(c.Toks[c.I].Text)
		c.I++
	}
	if !c.done() {
		return c.syntax("the end of the statement")
	}
	for _, have := range p.fields {
		if have.SourceID == f.SourceID && have.Transform == f.Transform {
			return pgerr.New(pgerr.InvalidTableDefinition, "the table is already partitioned by %s of that column (partition field \"%s\")", f.Transform, have.Name)
		}
		if have.Name == f.Name {
			return pgerr.New(pgerr.DuplicateColumn, "partition field \"%s\" already exists", f.Name)
		}
	}
	if cur := p.meta.CurrentSchema(); cur != nil && f.Transform.Name != "identity" {
		for _, sf := range cur.Fields {
			if sf.Name == f.Name && sf.ID != f.SourceID {
				return pgerr.New(pgerr.InvalidTableDefinition, "partition field name \"%s\" is a column of the table", f.Name).
					WithHint("Name the field with AS.")
			}
		}
	}
	p.fields = append(p.fields, f)
	return nil
}

// dropTerm removes the field a term names: a partition field's name, or
// a transform of a column.
func (p *specEdit) dropTerm(c *TokCursor, t []parse.DialectTok) error {
	idx := -1
	if len(t) == 1 && parse.IsWordTok(t[0]) {
		name := parse.IdentText(t[0].Text)
		idx = slices.IndexFunc(p.fields, func(f catalog.PartitionField) bool { return f.Name == name && f.Transform.Name != "void" })
	}
	if idx < 0 {
		f, err := p.term(c, t)
		if err != nil {
			if len(t) == 1 && pgerr.Code(err) == pgerr.UndefinedColumn {
				return pgerr.New(pgerr.InvalidTableDefinition, "partition field \"%s\" does not exist", parse.IdentText(t[0].Text))
			}
			return err
		}
		idx = slices.IndexFunc(p.fields, func(h catalog.PartitionField) bool {
			return h.SourceID == f.SourceID && h.Transform == f.Transform
		})
		if idx < 0 {
			return pgerr.New(pgerr.InvalidTableDefinition, "the table is not partitioned by %s", f.Transform).
				WithDetail("No partition field of the default spec has that source column and transform.")
		}
	}
	if p.meta.FormatVersion == 1 {
		// v1 specs keep their fields in place: a dropped one becomes void.
		f := &p.fields[idx]
		f.Name = f.Name + "_" + strconv.Itoa(f.FieldID)
		f.Transform = catalog.Transform{Name: "void"}
		return nil
	}
	p.fields = slices.Delete(p.fields, idx, idx+1)
	return nil
}

func (p *specEdit) Requirements() []catalog.Requirement {
	return []catalog.Requirement{
		catalog.AssertTableUUID{UUID: p.meta.TableUUID},
		catalog.AssertDefaultSpecID{SpecID: p.meta.DefaultSpecID},
		catalog.AssertLastAssignedPartitionID{LastAssignedPartitionID: p.meta.LastPartitionID},
	}
}

func (p *specEdit) Updates() []catalog.Update {
	return []catalog.Update{
		catalog.AddSpec{Spec: &catalog.PartitionSpec{Fields: p.fields}},
		catalog.SetDefaultSpec{SpecID: catalog.LastAdded},
	}
}

// SparkWriteOrder reads WRITE [DISTRIBUTED BY PARTITION] [LOCALLY] ORDERED
// BY term [ASC|DESC] [NULLS FIRST|LAST], ... and WRITE UNORDERED: the
// table's default sort order and write.distribution-mode.
func SparkWriteOrder(m *catalog.TableMetadata, c *TokCursor) ([]catalog.Requirement, []catalog.Update, error) {
	reqs := []catalog.Requirement{
		catalog.AssertTableUUID{UUID: m.TableUUID},
		catalog.AssertDefaultSortOrderID{SortOrderID: m.DefaultSortOrderID},
	}
	if c.accept("unordered") {
		if !c.done() {
			return nil, nil, c.syntax("the end of the statement")
		}
		return reqs, []catalog.Update{
			catalog.AddSortOrder{SortOrder: &catalog.SortOrder{}},
			catalog.SetDefaultSortOrder{SortOrderID: catalog.LastAdded},
			catalog.SetProperties{Updates: map[string]string{"write.distribution-mode": "none"}},
		}, nil
	}
	mode := "range"
	if c.accept("distributed", "by", "partition") {
		mode = "hash"
	}
	locally := c.accept("locally")
	if locally && mode == "range" {
		mode = "none"
	}
	order := &catalog.SortOrder{}
	if c.accept("ordered", "by") {
		p := &specEdit{meta: m}
		for _, item := range splitTop(c.Toks[c.I:]) {
			d := c.sub(item)
			t := d.until("asc", "desc", "nulls")
			pf, err := p.term(d, t)
			if err != nil {
				return nil, nil, err
			}
			sf := catalog.SortField{SourceID: pf.SourceID, Transform: pf.Transform, Direction: "asc", NullOrder: "nulls-first"}
			if d.accept("desc") {
				sf.Direction, sf.NullOrder = "desc", "nulls-last"
			} else {
				d.accept("asc")
			}
			switch {
			case d.accept("nulls", "first"):
				sf.NullOrder = "nulls-first"
			case d.accept("nulls", "last"):
				sf.NullOrder = "nulls-last"
			}
			if !d.done() {
				return nil, nil, d.syntax("ASC, DESC, NULLS FIRST or NULLS LAST")
			}
			order.Fields = append(order.Fields, sf)
		}
		c.I = len(c.Toks)
		if len(order.Fields) == 0 {
			return nil, nil, c.syntax("a sort term")
		}
	} else if locally || mode != "hash" {
		return nil, nil, c.syntax("ORDERED BY")
	}
	if !c.done() {
		return nil, nil, c.syntax("the end of the statement")
	}
	updates := []catalog.Update{catalog.SetProperties{Updates: map[string]string{"write.distribution-mode": mode}}}
	if len(order.Fields) > 0 {
		updates = append(updates, catalog.AddSortOrder{SortOrder: order}, catalog.SetDefaultSortOrder{SortOrderID: catalog.LastAdded})
	}
	return reqs, updates, nil
}
