package indexexec

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/caterr"
	"github.com/icegate/icegate/translate/parse"
)

// Indexes CREATE INDEX keeps. Iceberg tables have no indexes: reads skip
// files by partition and column statistics. An index over plain columns
// is still kept in the table's properties, so that the system catalog
// lists it (pg_class, pg_index, pg_indexes, psql's \d) and DROP INDEX
// drops it, as migration tools and ORMs that compare their models with
// the database expect (Knex's migrate.rollback, TypeORM's synchronize):
//
//	icegate.index.<name> = {"columns": [field ids], "unique": true, "method": "btree"}
//
// Field ids keep it right across column renames; an index whose column
// is gone is not listed. Nothing reads through it, and a unique one is
// not enforced (as the primary key is not). Indexes over expressions,
// partial ones and INCLUDE columns are not kept (a WARNING says so).
const indexPropPrefix = "icegate.index."

// keptIndex is one kept index's property value.
type keptIndex struct {
	Columns    []int  `json:"columns"`
	Unique     bool   `json:"unique,omitempty"`
	Method     string `json:"method,omitempty"`
	Desc       []bool `json:"desc,omitempty"`
	NullsFirst []bool `json:"nulls-first,omitempty"`
}

// Kept are the indexes kept in a table's properties, as the system
// catalog lists them (attnums by the position of their field in schema),
// by name.
func Kept(props map[string]string, schema *catalog.Schema) []syscat.Index {
	if schema == nil {
		return nil
	}
	pos := map[int]int16{}
	for i, f := range schema.Fields {
		pos[f.ID] = int16(i + 1)
	}
	var out []syscat.Index
	for k, v := range props {
		name, ok := strings.CutPrefix(k, indexPropPrefix)
		if !ok || name == "" {
			continue
		}
		var ki keptIndex
		if json.Unmarshal([]byte(v), &ki) != nil || len(ki.Columns) == 0 {
			continue
		}
		ix := syscat.Index{Name: name, Unique: ki.Unique, Method: ki.Method, Desc: ki.Desc, NullsFirst: ki.NullsFirst}
		for _, id := range ki.Columns {
			n, ok := pos[id]
			if !ok {
				ix.Columns = nil
				break
			}
			ix.Columns = append(ix.Columns, n)
		}
		if len(ix.Columns) > 0 {
			out = append(out, ix)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// keepableIndex reports whether CREATE INDEX st is one icegate keeps: over
// plain columns, not partial, without INCLUDE.
func keepableIndex(st *pg.IndexStmt) bool {
	if st.WhereClause != nil || len(st.IndexIncludingParams) > 0 || len(st.IndexParams) == 0 {
		return false
	}
	for _, p := range st.IndexParams {
		if e := p.GetIndexElem(); e == nil || e.Name == "" {
			return false
		}
	}
	return true
}

// keepIndex keeps CREATE INDEX st on table t.
func (s Exec) keepIndex(ctx context.Context, st *pg.IndexStmt, t *catalog.Table) ([]pgerr.Notice, error) {
	mc, err := s.MutableCatalog("CREATE INDEX")
	if err != nil {
		return nil, err
	}
	schema := t.Metadata.CurrentSchema()
	ki := keptIndex{Unique: st.Unique, Method: strings.ToLower(st.AccessMethod)}
	if ki.Method == "" {
		ki.Method = "btree"
	}
	var cols []string
	for _, p := range st.IndexParams {
		e := p.GetIndexElem()
		var f *catalog.NestedField
		for i := range schema.Fields {
			if schema.Fields[i].Name == e.Name {
				f = &schema.Fields[i]
			}
		}
		if f == nil {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", e.Name)
		}
		desc := e.Ordering == pg.SortByDir_SORTBY_DESC
		nullsFirst := e.NullsOrdering == pg.SortByNulls_SORTBY_NULLS_FIRST || desc && e.NullsOrdering != pg.SortByNulls_SORTBY_NULLS_LAST
		ki.Columns = append(ki.Columns, f.ID)
		ki.Desc = append(ki.Desc, desc)
		ki.NullsFirst = append(ki.NullsFirst, nullsFirst)
		cols = append(cols, e.Name)
	}
	if !slicesAny(ki.Desc) && !slicesAny(ki.NullsFirst) {
		ki.Desc, ki.NullsFirst = nil, nil
	}
	snap, err := s.SysSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	ns := strings.Join(t.Ident.Namespace, ".")
	taken := func(name string) bool {
		r, _ := snap.IndexByName(ns, name)
		return r != nil || snap.Relation(ns, name) != nil
	}
	name := st.Idxname
	if name == "" {
		name = chooseIndexName(t.Ident.Name, cols, taken)
	} else if taken(name) {
		if st.IfNotExists {
			return []pgerr.Notice{{Severity: "NOTICE", Code: pgerr.DuplicateTable, Message: "relation \"" + name + "\" already exists, skipping"}}, nil
		}
		return nil, pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
	}
	v, err := json.Marshal(ki)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.InternalError, "encode index %s: %v", name, err)
	}
	_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: t.Metadata.TableUUID}},
		[]catalog.Update{catalog.SetProperties{Updates: map[string]string{indexPropPrefix + name: string(v)}}})
	if err != nil {
		return nil, caterr.Convert(err, caterr.Table, t.Ident.Name)
	}
	if st.Unique {
		return []pgerr.Notice{{Severity: "WARNING", Code: pgerr.Warning, Message: "unique index \"" + name + "\" is not enforced",
			Detail: "icegate keeps the index's definition; nothing checks that its values are unique."}}, nil
	}
	return nil, nil
}

func slicesAny(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// chooseIndexName is PostgreSQL's name for an unnamed index:
// <table>_<col>_<col>_idx, cut to 63 bytes, numbered when taken.
func chooseIndexName(table string, cols []string, taken func(string) bool) string {
	base := table + "_" + strings.Join(cols, "_")
	for n := 0; ; n++ {
		suffix := "_idx"
		if n > 0 {
			suffix += strconv.Itoa(n)
		}
		b := base
		if len(b)+len(suffix) > 63 {
			b = b[:63-len(suffix)]
		}
		if name := b + suffix; !taken(name) {
			return name
		}
	}
}

// findIndex finds the index DROP INDEX names: in its schema, or the first
// schema of the search path that has it.
func (s Exec) findIndex(ctx context.Context, parts []string) (*syscat.Relation, *syscat.Index, error) {
	snap, err := s.SysSnapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	name := parts[len(parts)-1]
	if len(parts) > 1 {
		r, ix := snap.IndexByName(parts[len(parts)-2], name)
		return r, ix, nil
	}
	var r *syscat.Relation
	var ix *syscat.Index
	err = s.SearchPathWalk(ctx, func(ns []string) (bool, error) {
		r, ix = snap.IndexByName(strings.Join(ns, "."), name)
		return r != nil, nil
	})
	return r, ix, err
}

// dropKeptIndex drops the kept index ix of table r.
func (s Exec) dropKeptIndex(ctx context.Context, r *syscat.Relation, ix *syscat.Index) error {
	if ix.Primary {
		return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop index %s because constraint %s on table %s requires it",
			ix.Name, ix.Name, r.Name).WithHint("You can drop constraint %s on table %s instead.", ix.Name, r.Name)
	}
	mc, err := s.MutableCatalog("DROP INDEX")
	if err != nil {
		return err
	}
	t, err := s.ResolveTable(ctx, parse.TableName{Schema: r.Namespace, Name: r.Name, Written: r.Namespace + "." + r.Name})
	if err != nil {
		return err
	}
	_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: t.Metadata.TableUUID}},
		[]catalog.Update{catalog.RemoveProperties{Removals: []string{indexPropPrefix + ix.Name}}})
	if err != nil {
		return caterr.Convert(err, caterr.Table, t.Ident.Name)
	}
	return nil
}

// renameKeptIndex renames the kept index ix of table r to name (ALTER
// INDEX ... RENAME TO); a relation of that name in the schema is 42P07.
func (s Exec) renameKeptIndex(ctx context.Context, r *syscat.Relation, ix *syscat.Index, name string) error {
	snap, err := s.SysSnapshot(ctx)
	if err != nil {
		return err
	}
	if other, _ := snap.IndexByName(r.Namespace, name); other != nil || snap.Relation(r.Namespace, name) != nil {
		return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
	}
	mc, err := s.MutableCatalog("ALTER INDEX")
	if err != nil {
		return err
	}
	t, err := s.ResolveTable(ctx, parse.TableName{Schema: r.Namespace, Name: r.Name, Written: r.Namespace + "." + r.Name})
	if err != nil {
		return err
	}
	v, ok := t.Metadata.Properties[indexPropPrefix+ix.Name]
	if !ok {
		return pgerr.New(pgerr.UndefinedObject, "index \"%s\" does not exist", ix.Name)
	}
	_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: t.Metadata.TableUUID}},
		[]catalog.Update{
			catalog.RemoveProperties{Removals: []string{indexPropPrefix + ix.Name}},
			catalog.SetProperties{Updates: map[string]string{indexPropPrefix + name: v}},
		})
	if err != nil {
		return caterr.Convert(err, caterr.Table, t.Ident.Name)
	}
	return nil
}
