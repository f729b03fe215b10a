package translate

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/enumtype"
	"github.com/icegate/icegate/translate/parse"
)

// CREATE TYPE ... AS ENUM, ALTER TYPE (ADD VALUE, RENAME VALUE, RENAME TO)
// and DROP TYPE (package enumtype has what an enum type is).

// encodeEnumColumns is the value of bind.EnumColumnsProp for m ("" for none).
func encodeEnumColumns(m map[int]string) string {
	if len(m) == 0 {
		return ""
	}
	out := make(map[string]string, len(m))
	for id, v := range m {
		out[strconv.Itoa(id)] = v
	}
	js, _ := json.Marshal(out)
	return string(js)
}

// typeNameOf is the name of a type as a list of name nodes.
func typeNameOf(names []*pg.Node) parse.TableName {
	l := &pg.Node{Node: &pg.Node_List{List: &pg.List{Items: names}}}
	return tableNameOfList(l)
}

// resolveEnum finds the enum type tn names; nil without error when it
// does not exist and missingOK.
func (s *session) resolveEnum(ctx context.Context, tn parse.TableName, missingOK bool) (*catalog.Table, error) {
	t, err := s.lookupTable(ctx, tn)
	if err == nil && !enumtype.Is(t) {
		if missingOK {
			return nil, nil
		}
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an enum", tn.Written)
	}
	if pgerr.Code(err) == pgerr.UndefinedTable {
		if missingOK {
			return nil, nil
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", tn.Written)
	}
	return t, err
}

// enumOfColumn is the enum type a column type names, if it names one:
// the type's table and its qualified name as bind.EnumColumnsProp records it.
func (s *session) enumOfColumn(ctx context.Context, tn *pg.TypeName) (*catalog.Table, string) {
	if tn == nil || len(tn.ArrayBounds) > 0 || len(tn.Typmods) > 0 || len(tn.Names) == 0 || len(tn.Names) > 2 {
		return nil, ""
	}
	if len(tn.Names) == 2 && tn.Names[0].GetString_().GetSval() == "pg_catalog" {
		return nil, ""
	}
	t, err := s.lookupTable(ctx, typeNameOf(tn.Names))
	if err != nil || !enumtype.Is(t) {
		return nil, ""
	}
	return t, strings.Join(t.Ident.Namespace, ".") + "." + t.Ident.Name
}

// prepareCreateEnum prepares CREATE TYPE name AS ENUM (labels).
func (s *session) prepareCreateEnum(ce *pg.CreateEnumStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "CREATE TYPE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("CREATE TYPE")
		if err != nil {
			return nil, err
		}
		var labels []string
		for _, v := range ce.Vals {
			labels = append(labels, v.GetString_().GetSval())
		}
		if err := enumtype.New(labels); err != nil {
			return nil, err
		}
		tn := typeNameOf(ce.TypeName)
		id, def, err := s.tableIdent(ctx, tn)
		if err != nil {
			return nil, err
		}
		if _, err := mc.LoadTable(ctx, id); err == nil {
			return nil, pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", tn.Name)
		}
		_, notices, err := s.createTable(ctx, mc, &createTable{id: id, name: tn.Written, spec: enumtype.TableSpec(labels), defaultSchema: def})
		if pgerr.Code(err) == pgerr.DuplicateTable {
			err = pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", tn.Name)
		}
		return notices, err
	}}, nil
}

// prepareAlterEnum prepares ALTER TYPE name ADD VALUE and RENAME VALUE.
func (s *session) prepareAlterEnum(ae *pg.AlterEnumStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER TYPE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER TYPE")
		if err != nil {
			return nil, err
		}
		tn := typeNameOf(ae.TypeName)
		t, err := s.resolveEnum(ctx, tn, false)
		if err != nil {
			return nil, err
		}
		for attempt := 0; ; attempt++ {
			cur, err := mc.LoadTable(ctx, t.Ident)
			if err != nil {
				return nil, catalogError(err, kindTable, tn.Written)
			}
			raw := cur.Metadata.Properties[enumtype.LabelsProp]
			labels, err := enumtype.Decode(raw)
			if err != nil {
				return nil, pgerr.Wrap(err, pgerr.DataCorrupted, "type \"%s\": %v", tn.Name, err)
			}
			var out []string
			if ae.OldVal != "" {
				out, err = enumtype.RenameValue(labels, ae.OldVal, ae.NewVal)
			} else {
				var changed bool
				out, changed, err = enumtype.AddValue(tn.Name, labels, ae.NewVal, ae.SkipIfNewValExists, ae.NewValNeighbor, !ae.NewValIsAfter)
				if err == nil && !changed {
					return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
						Message: "enum label \"" + ae.NewVal + "\" already exists, skipping"}}, nil
				}
			}
			if err != nil {
				return nil, err
			}
			_, err = mc.CommitTable(ctx, t.Ident,
				[]catalog.Requirement{catalog.AssertTableUUID{UUID: cur.Metadata.TableUUID}, catalog.AssertProperty{Key: enumtype.LabelsProp, Value: raw}},
				[]catalog.Update{catalog.SetProperties{Updates: map[string]string{enumtype.LabelsProp: enumtype.Encode(out)}}})
			if err == nil {
				return nil, nil
			}
			if !errors.Is(err, catalog.ErrCommitConflict) || attempt >= 100 {
				return nil, catalogError(err, kindTable, tn.Written)
			}
		}
	}}, nil
}

// prepareDropType prepares DROP TYPE [IF EXISTS] name, ... [CASCADE |
// RESTRICT] of enum types. A type a column uses is not dropped (2BP01),
// with CASCADE too: icegate does not drop columns for it.
func (s *session) prepareDropType(ds *pg.DropStmt) (Statement, error) {
	cascade := ds.Behavior == pg.DropBehavior_DROP_CASCADE
	return &ddlStatement{sess: s, tag: "DROP TYPE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("DROP TYPE")
		if err != nil {
			return nil, err
		}
		var notices []Notice
		for _, obj := range ds.Objects {
			tn := typeNameOf(obj.GetTypeName().GetNames())
			t, err := s.resolveEnum(ctx, tn, false)
			if pgerr.Code(err) == pgerr.UndefinedObject && ds.MissingOk {
				notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
					Message: "type \"" + tn.Written + "\" does not exist, skipping"})
				continue
			}
			if err != nil {
				return nil, err
			}
			if err := s.enumDependents(ctx, mc, t, cascade); err != nil {
				return nil, err
			}
			if err := mc.DropTable(ctx, t.Ident, s.tx == nil); err != nil {
				return nil, catalogError(err, kindTable, tn.Written)
			}
		}
		return notices, nil
	}}, nil
}

// enumDependents refuses to drop enum type t while a column of a table of
// the warehouse is of the type.
func (s *session) enumDependents(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, cascade bool) error {
	qual := strings.Join(t.Ident.Namespace, ".") + "." + t.Ident.Name
	nss, err := mc.ListNamespaces(ctx)
	if err != nil {
		return pgerr.Wrap(err, pgerr.IOError, "list schemas: %v", err)
	}
	for _, ns := range nss {
		ids, err := mc.ListTables(ctx, ns)
		if err != nil {
			continue
		}
		for _, id := range ids {
			tt, err := mc.LoadTable(ctx, id)
			if err != nil || tt.Metadata == nil || tt.Metadata.Properties[bind.EnumColumnsProp] == "" {
				continue
			}
			cols := bind.EnumColumns(tt.Metadata.Properties)
			for _, f := range tt.Metadata.CurrentSchema().Fields {
				if cols[f.ID] != qual {
					continue
				}
				e := pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop type %s because other objects depend on it", t.Ident.Name).
					WithDetail("column %s of table %s depends on type %s", f.Name, id.Name, t.Ident.Name)
				if cascade {
					return e.WithHint("icegate does not drop columns for DROP TYPE ... CASCADE: drop or change the column first.")
				}
				return e.WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
		}
	}
	return nil
}

// prepareRenameType prepares ALTER TYPE name RENAME TO new of an enum
// type; the columns of the type follow it.
func (s *session) prepareRenameType(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER TYPE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER TYPE")
		if err != nil {
			return nil, err
		}
		tn := typeNameOf(rs.Object.GetList().GetItems())
		t, err := s.resolveEnum(ctx, tn, false)
		if err != nil {
			return nil, err
		}
		to := catalog.Identifier{Namespace: t.Ident.Namespace, Name: rs.Newname}
		if _, err := mc.LoadTable(ctx, to); err == nil {
			return nil, pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", rs.Newname)
		}
		if err := mc.RenameTable(ctx, t.Ident, to); err != nil {
			return nil, catalogError(err, kindTable, rs.Newname)
		}
		from := strings.Join(t.Ident.Namespace, ".") + "." + t.Ident.Name
		return nil, s.retargetEnumColumns(ctx, mc, from, strings.Join(to.Namespace, ".")+"."+to.Name)
	}}, nil
}

// retargetEnumColumns makes the columns of enum type from columns of
// type to, after a rename.
func (s *session) retargetEnumColumns(ctx context.Context, mc catalog.MutableCatalog, from, to string) error {
	nss, err := mc.ListNamespaces(ctx)
	if err != nil {
		return pgerr.Wrap(err, pgerr.IOError, "list schemas: %v", err)
	}
	for _, ns := range nss {
		ids, err := mc.ListTables(ctx, ns)
		if err != nil {
			continue
		}
		for _, id := range ids {
			tt, err := mc.LoadTable(ctx, id)
			if err != nil || tt.Metadata == nil || tt.Metadata.Properties[bind.EnumColumnsProp] == "" {
				continue
			}
			cols := bind.EnumColumns(tt.Metadata.Properties)
			changed := false
			for k, v := range cols {
				if v == from {
					cols[k], changed = to, true
				}
			}
			if !changed {
				continue
			}
			_, err = mc.CommitTable(ctx, id, []catalog.Requirement{catalog.AssertTableUUID{UUID: tt.Metadata.TableUUID}},
				[]catalog.Update{catalog.SetProperties{Updates: map[string]string{bind.EnumColumnsProp: encodeEnumColumns(cols)}}})
			if err != nil {
				return catalogError(err, kindTable, id.Name)
			}
		}
	}
	return nil
}

// freshEnumColumns returns the entries of m under the field ids of a
// fresh schema (ids maps old to new, catalog.FreshSchema).
func freshEnumColumns(m map[int]string, ids map[int]int) map[int]string {
	out := make(map[int]string, len(m))
	for id, v := range m {
		if n, ok := ids[id]; ok {
			out[n] = v
		}
	}
	return out
}

// enumLabels reads the labels of enum type qual ("schema.name") as the
// JSON array its table keeps, and the type's name.
func (s *session) enumLabels(ctx context.Context, qual string) (labels, name string, err error) {
	i := strings.LastIndexByte(qual, '.')
	tn := parse.TableName{Schema: qual[:max(i, 0)], Name: qual[i+1:], Written: qual}
	t, err := s.lookupTable(ctx, tn)
	if err != nil || !enumtype.Is(t) {
		return "", "", pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", qual)
	}
	return t.Metadata.Properties[enumtype.LabelsProp], tn.Name, nil
}

// enumAttributes types the pg_attribute rows of a table's columns of enum
// types (enums, by field id) by the types' OIDs.
func enumAttributes(cols []syscat.Attribute, schema *catalog.Schema, enums map[int]string) {
	for i, f := range schema.Fields {
		q := enums[f.ID]
		if q == "" || i >= len(cols) || catalog.Primitive(f.Type) == nil || catalog.Primitive(f.Type).ID != catalog.TString {
			continue
		}
		j := strings.LastIndexByte(q, '.')
		cols[i].Type, cols[i].Typmod = syscat.EnumOID(q[:max(j, 0)], q[j+1:]), -1
	}
}

// enumNamed reports whether id names an enum type.
func enumNamed(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier) bool {
	t, err := mc.LoadTable(ctx, id)
	return err == nil && enumtype.Is(t)
}
