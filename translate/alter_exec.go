package translate

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
)

// ALTER TABLE changes only metadata: each statement is one CommitTable
// whose requirements make a concurrent change of the same schema or
// properties fail with 40001 instead of being lost.

// alterTarget resolves the table of an ALTER statement; nil without error
// when it is missing and IF EXISTS was given (with the notice).
func (s *session) alterTarget(ctx context.Context, rel *pg.RangeVar, missingOk bool) (*catalog.Table, []Notice, error) {
	tn := parse.TableNameOf(rel)
	t, err := s.ResolveTable(ctx, tn)
	if pgerr.Code(err) == pgerr.UndefinedTable && missingOk {
		return nil, []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion, Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
	}
	if err == nil {
		err = s.checkTableOwner(ctx, t, "table") // privilege.go
	}
	return t, nil, err
}

// prepareAlterTable prepares ALTER TABLE t <commands>.
func (s *session) prepareAlterTable(ps parse.Stmt, as *pg.AlterTableStmt) (Statement, error) {
	if as.Objtype != pg.ObjectType_OBJECT_TABLE {
		return nil, pgerr.NotYet("ALTER " + strings.TrimPrefix(as.Objtype.String(), "OBJECT_"))
	}
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) ([]Notice, error) {
		if addsColumnDefault(as) { // alter_fill.go
			return s.inBlock(ctx, func() ([]Notice, error) { return s.alterTable(ctx, ps, as) })
		}
		return s.alterTable(ctx, ps, as)
	}}, nil
}

// alterTable runs ALTER TABLE t <commands>.
func (s *session) alterTable(ctx context.Context, ps parse.Stmt, as *pg.AlterTableStmt) ([]Notice, error) {
	mc, err := s.mutableCatalog("ALTER TABLE")
	if err != nil {
		return nil, err
	}
	t, notices, err := s.alterTarget(ctx, as.Relation, as.MissingOk)
	if pgerr.Code(err) == pgerr.UndefinedTable && viewOwnerOnly(as) {
		return s.alterViewOwner(ctx, as, err) // alter_owner.go
	}
	if t == nil || err != nil {
		return notices, err
	}
	m := t.Metadata
	e := ddl.NewSchemaEdit(t)
	props := &propertyEdit{rec: ddl.NewRecordedEdit(m), fits: func(ctx context.Context, col string, n int) error {
		return s.checkValuesFit(ctx, t, col, n)
	}}
	for _, n := range as.Cmds {
		cmd := n.GetAlterTableCmd()
		if cmd == nil {
			return nil, pgerr.NotYet("this ALTER TABLE command")
		}
		ns, err := s.alterCommand(ctx, ps, m, e, props, cmd)
		if err != nil {
			return nil, err
		}
		notices = append(notices, ns...)
	}
	var reqs []catalog.Requirement
	var updates []catalog.Update
	if props.version > 0 {
		if props.version < m.FormatVersion {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot downgrade format-version from %d to %d", m.FormatVersion, props.version)
		}
		updates = append(updates, catalog.UpgradeFormatVersion{FormatVersion: props.version})
	}
	if e.Changed {
		reqs = append(reqs, e.Requirements()...)
		updates = append(updates, e.Updates()...)
	}
	updates = append(updates, props.rec.Updates(e)...) // icegate.pg-types
	if len(props.set) > 0 {
		updates = append(updates, catalog.SetProperties{Updates: props.set})
	}
	if len(props.remove) > 0 {
		updates = append(updates, catalog.RemoveProperties{Removals: props.remove})
	}
	if len(updates) == 0 {
		return notices, nil
	}
	if len(reqs) == 0 {
		reqs = []catalog.Requirement{catalog.AssertTableUUID{UUID: m.TableUUID}}
	}
	if _, err := mc.CommitTable(ctx, t.Ident, reqs, updates); err != nil {
		return nil, catalogError(err, kindTable, t.Ident.Name)
	}
	for _, n := range as.Cmds {
		if cmd := n.GetAlterTableCmd(); cmd.GetSubtype() == pg.AlterTableType_AT_DropColumn {
			s.columnPrivilegesMoved(ctx, t.Ident, cmd.Name, "") // privilege_column.go
		}
	}
	if owner, ok := props.set[ownerProperty]; ok {
		s.ownerPropertySet(ctx, t.Ident, owner) // roles_owned.go
	}
	if len(props.fill) > 0 && t.Metadata.CurrentSnapshot() != nil {
		if err := s.fillColumnDefaults(ctx, t.Ident, props.fill); err != nil {
			return nil, err
		}
	}
	return notices, nil
}

// propertyEdit collects SET (...) and RESET (...) of one ALTER TABLE.
type propertyEdit struct {
	set     map[string]string
	remove  []string
	version int // format-version to upgrade to (0: none)
	// fill are the columns ADD COLUMN gave a default the rows already
	// there must get by a rewrite (alter_fill.go).
	fill []string
	rec  *ddl.RecordedEdit
	// fits checks that the values of column col are at most n characters
	// long (ALTER COLUMN TYPE varchar(n)); nil: they cannot be read.
	fits func(ctx context.Context, col string, n int) error
}

// checkValuesFit is 22001 when a value of column col of table t (as the
// session reads it) is longer than n characters.
func (s *session) checkValuesFit(ctx context.Context, t *catalog.Table, col string, n int) error {
	var name []string
	for _, p := range append(slices.Clone(t.Ident.Namespace), t.Ident.Name) {
		name = append(name, syscat.QuoteIdent(p))
	}
	sql := "SELECT 1 FROM " + strings.Join(name, ".") + " WHERE char_length(" + syscat.QuoteIdent(col) + ") > " + strconv.Itoa(n) + " LIMIT 1"
	stmts, err := parse.ParseContext(ctx, sql, hints.ParseConfig)
	if err != nil {
		return err
	}
	p, err := bind.New(ctx, s, stmts[0], &bind.ParamSet{}, time.Now()).BindSelect(stmts[0].Node.GetSelectStmt())
	if err != nil {
		return err
	}
	op, err := lowerQuery(ctx, s, p)
	if err != nil {
		return err
	}
	rows := newOperatorRows(op, "SELECT")
	defer rows.Close()
	for {
		batch, err := rows.Next(ctx)
		if err != nil {
			return err
		}
		if batch == nil {
			return nil
		}
		if batch.NumRows() > 0 {
			return pgerr.New(pgerr.StringDataRightTruncation, "value too long for type character varying(%d)", n)
		}
	}
}

// usingIsColumn reports whether the USING expression of ALTER COLUMN col
// TYPE tn is the column itself, or the column cast to tn (as ORMs such as
// GORM write it): the change is then the one without USING, which keeps
// the values. Any other expression would rewrite them.
func usingIsColumn(using *pg.Node, col string, tn *pg.TypeName) bool {
	if tc := using.GetTypeCast(); tc != nil {
		a, errA := parse.DeparseExpr(&pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{Arg: pg.MakeAConstStrNode("", -1), TypeName: tc.TypeName, Location: -1}}})
		b, errB := parse.DeparseExpr(&pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{Arg: pg.MakeAConstStrNode("", -1), TypeName: tn, Location: -1}}})
		if errA != nil || errB != nil || a != b {
			return false
		}
		using = tc.Arg
	}
	f := using.GetColumnRef().GetFields()
	return len(f) == 1 && f[0].GetString_() != nil && f[0].GetString_().GetSval() == col
}

// alterCommand applies one command of ALTER TABLE to the edits.
func (s *session) alterCommand(ctx context.Context, ps parse.Stmt, m *catalog.TableMetadata, e *ddl.SchemaEdit, props *propertyEdit, cmd *pg.AlterTableCmd) ([]Notice, error) {
	switch cmd.Subtype {
	case pg.AlterTableType_AT_AddColumn:
		ns, err := s.addColumn(ctx, ps, m, e, props, cmd)
		if cd := cmd.GetDef().GetColumnDef(); err == nil && cd != nil {
			err = props.rec.Added(e, cd.Colname, cd.TypeName)
		}
		return ns, err
	case pg.AlterTableType_AT_DropColumn:
		if cmd.Behavior == pg.DropBehavior_DROP_CASCADE {
			return nil, pgerr.NotYet("DROP COLUMN ... CASCADE")
		}
		ok, err := e.Drop(cmd.Name, cmd.MissingOk)
		if err == nil && !ok {
			return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion, Message: "column \"" + cmd.Name + "\" of relation \"" + e.Table + "\" does not exist, skipping"}}, nil
		}
		return nil, err
	case pg.AlterTableType_AT_AlterColumnType:
		cd := cmd.GetDef().GetColumnDef()
		if cd == nil || cd.TypeName == nil {
			return nil, pgerr.NotYet("this ALTER COLUMN form")
		}
		if cd.RawDefault != nil && !usingIsColumn(cd.RawDefault, cmd.Name, cd.TypeName) {
			return nil, pgerr.NotYet("ALTER COLUMN TYPE ... USING")
		}
		to, err := ddl.IcebergTypeOf(cd.TypeName, ps.Extras, &ddl.IDCounter{N: e.IDs.N})
		if err != nil {
			return nil, err
		}
		if err := e.Retype(cmd.Name, to); err != nil {
			return nil, err
		}
		var fits func(int) error
		switch {
		case props.fits != nil && ddl.FieldExisted(m, cmd.Name):
			fits = func(n int) error { return props.fits(ctx, cmd.Name, n) }
		case tableHasNoFiles(m):
			fits = func(int) error { return nil } // no rows to check
		default:
			fits = func(int) error { return rowsReadable(m, cmd.Name, "ALTER COLUMN TYPE") }
		}
		return nil, props.rec.Retype(e, cmd.Name, cd.TypeName, to, fits)
	case pg.AlterTableType_AT_DropNotNull:
		return nil, e.DropNotNull(cmd.Name)
	case pg.AlterTableType_AT_ColumnDefault:
		return s.alterColumnDefault(ctx, ps, m, e, props, cmd) // defaults_table.go
	case pg.AlterTableType_AT_SetNotNull:
		return nil, s.setNotNull(ctx, m, e, cmd.Name)
	case pg.AlterTableType_AT_AddConstraint:
		return ddl.AddConstraint(e, cmd)
	case pg.AlterTableType_AT_DropConstraint:
		return ddl.DropConstraint(e, cmd)
	case pg.AlterTableType_AT_ValidateConstraint:
		return ddl.ValidateConstraint(e, cmd), nil
	case pg.AlterTableType_AT_ChangeOwner:
		return nil, s.setOwner(ctx, props, cmd) // alter_owner.go
	case pg.AlterTableType_AT_SetRelOptions, pg.AlterTableType_AT_ResetRelOptions:
		for _, o := range cmd.GetDef().GetList().GetItems() {
			d := o.GetDefElem()
			if d == nil {
				continue
			}
			k := d.Defname
			if d.Defnamespace != "" {
				k = d.Defnamespace + "." + k
			}
			if err := ddl.CheckReservedProperty(k, cmd.Subtype == pg.AlterTableType_AT_ResetRelOptions); err != nil && k != "format-version" {
				return nil, err
			}
			if cmd.Subtype == pg.AlterTableType_AT_ResetRelOptions {
				if k == "format-version" {
					return nil, pgerr.New(pgerr.InvalidParameterValue, "format-version cannot be reset")
				}
				props.remove = append(props.remove, k)
				continue
			}
			v := ddl.DefElemString(d)
			if k == "format-version" {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 3 {
					return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid format-version \"%s\": 1, 2 or 3", v)
				}
				props.version = n
				continue
			}
			if props.set == nil {
				props.set = map[string]string{}
			}
			props.set[k] = v
		}
		return nil, nil
	}
	return nil, pgerr.NotYet("ALTER TABLE " + strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(cmd.Subtype.String(), "AT_"), "_", " ")))
}

// addColumn applies ADD COLUMN [IF NOT EXISTS] c type [NULL] [DEFAULT const].
func (s *session) addColumn(ctx context.Context, ps parse.Stmt, m *catalog.TableMetadata, e *ddl.SchemaEdit, props *propertyEdit, cmd *pg.AlterTableCmd) ([]Notice, error) {
	cd := cmd.GetDef().GetColumnDef()
	if cd == nil {
		return nil, pgerr.NotYet("this ADD form")
	}
	f := catalog.NestedField{ID: e.IDs.Next()}
	var err error
	f.Type, err = ddl.IcebergTypeOf(cd.TypeName, ps.Extras, e.IDs)
	enumName := ""
	if pgerr.Code(err) == pgerr.UndefinedObject { // no built-in type: an enum type's? (enum_ddl.go)
		_, enumName = s.enumOfColumn(ctx, cd.TypeName)
	}
	if enumName != "" {
		f.Type, err = &catalog.PrimitiveType{ID: catalog.TString}, nil
		if props.set == nil {
			props.set = map[string]string{}
		}
		enums := bind.EnumColumns(m.Properties)
		if v, ok := props.set[bind.EnumColumnsProp]; ok {
			enums = bind.EnumColumns(map[string]string{bind.EnumColumnsProp: v})
		}
		if enums == nil {
			enums = map[int]string{}
		}
		enums[f.ID] = enumName
		props.set[bind.EnumColumnsProp] = encodeEnumColumns(enums)
	}
	if err != nil {
		return nil, err
	}
	f.Name = cd.Colname
	var notices []Notice // the constraints not kept
	notNull, exprDefault := false, false
	for _, c := range cd.Constraints {
		con := c.GetConstraint()
		switch con.GetContype() {
		case pg.ConstrType_CONSTR_NULL:
		case pg.ConstrType_CONSTR_NOTNULL:
			notNull = true
		case pg.ConstrType_CONSTR_DEFAULT:
			if expressionDefault(con.RawExpr, f.Type) { // defaults_table.go (intervals too: not primitive)
				if err := s.addColumnDefaultExpr(ctx, ps, f, con.RawExpr, props); err != nil {
					return nil, err
				}
				exprDefault = true
				props.fill = append(props.fill, cd.Colname)
				continue
			}
			v, err := s.columnDefault(ctx, ps, f, con.RawExpr)
			if err != nil {
				return nil, err
			}
			// The write default always; the initial default (the value of
			// the rows already there) exists from format version 3; on v2
			// a rewrite gives the rows already there the value
			// (alter_fill.go), as PostgreSQL's ADD COLUMN ... DEFAULT does.
			f.WriteDefault = v
			if m.FormatVersion >= 3 {
				f.InitialDefault = v
			} else if v != nil {
				props.fill = append(props.fill, cd.Colname)
			}
		default:
			if n, ok := ddl.ConstraintNotKept(con); ok {
				notices = append(notices, n)
				continue
			}
			if ddl.ConstraintAttribute(con) {
				continue
			}
			return nil, pgerr.NotYetPlural("column constraints other than NULL, DEFAULT, UNIQUE, REFERENCES and CHECK in ADD COLUMN")
		}
	}
	if notNull {
		if err := requireNewColumn(m, &f, e.Table, exprDefault); err != nil {
			return nil, err
		}
	}
	if ps.Extras != nil {
		f.Doc = ps.Extras.Comments[cd.Colname]
	}
	added, err := e.Add(cd.Colname, f, cmd.MissingOk)
	if err != nil {
		return nil, err
	}
	if added {
		return notices, nil
	}
	return []Notice{{Severity: "NOTICE", Code: pgerr.DuplicateColumn, Message: "column \"" + cd.Colname + "\" already exists, skipping"}}, nil
}

// setNotNull applies ALTER COLUMN c SET NOT NULL: a required column stays
// so; an optional one becomes required when no row of the table is NULL
// in it (a row written before the column existed is), else 23502, as in
// PostgreSQL.
func (s *session) setNotNull(ctx context.Context, m *catalog.TableMetadata, e *ddl.SchemaEdit, name string) error {
	optional, err := e.Optional(name)
	if err != nil || !optional {
		return err
	}
	if tableHasNoFiles(m) {
		return e.RequireChecked(name) // no rows
	}
	if err := rowsReadable(m, name, "SET NOT NULL"); err != nil {
		return err
	}
	null, err := s.evalBool(ctx, "SELECT EXISTS (SELECT 1 FROM "+qualifiedName(e.Ident)+" WHERE "+syscat.QuoteIdent(name)+" IS NULL)")
	if err != nil {
		return err
	}
	if null {
		return pgerr.New(pgerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", name, e.Table)
	}
	return e.RequireChecked(name)
}

// rowsReadable checks that the rows of column name can be read before the
// statement commits: the column is in the table as committed, not added by
// the same ALTER TABLE (0A000, run it as a statement of its own).
func rowsReadable(m *catalog.TableMetadata, name, what string) error {
	for _, f := range m.CurrentSchema().Fields {
		if f.Name == name {
			return nil
		}
	}
	return pgerr.Unsupported("%s of column \"%s\" added by the same ALTER TABLE", what, name).
		WithHint("Run ALTER TABLE ... ADD COLUMN %s first, then this change as a statement of its own.", name)
}

// qualifiedName is id as SQL: its schema (a nested namespace's levels
// joined by dots, one identifier, as the system catalog names it) and its
// name, quoted as needed.
func qualifiedName(id catalog.Identifier) string {
	return syscat.QuoteIdent(strings.Join(id.Namespace, ".")) + "." + syscat.QuoteIdent(id.Name)
}

// requireNewColumn makes the new column f NOT NULL. PostgreSQL gives the
// rows already there the default, or refuses without one when there are
// rows (23502). A table without data files has no rows: the column is
// required. Otherwise the rows must read a constant default, Iceberg's
// initial-default, which exists from format version 3.
func requireNewColumn(m *catalog.TableMetadata, f *catalog.NestedField, table string, exprDefault bool) error {
	f.Required = true
	if tableHasNoFiles(m) {
		return nil
	}
	if f.WriteDefault == nil && !exprDefault {
		return pgerr.New(pgerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", f.Name, table)
	}
	if f.InitialDefault != nil {
		return nil
	}
	if exprDefault {
		return pgerr.Unsupported("ADD COLUMN ... NOT NULL DEFAULT with an expression on a table with rows").
			WithHint("The rows already there can only read a constant default: add the column with a constant, or without NOT NULL.")
	}
	return pgerr.Unsupported("ADD COLUMN ... NOT NULL on a table of format version %d with rows", m.FormatVersion).
		WithHint("The rows already there read a new column's default from format version 3 on: ALTER TABLE %s SET (\"format-version\" = '3'), or add the column without NOT NULL.", table)
}

// tableHasNoFiles reports a table whose current snapshot lists no data
// files (or that has none): it has no rows.
func tableHasNoFiles(m *catalog.TableMetadata) bool {
	snap := m.CurrentSnapshot()
	return snap == nil || snap.Summary["total-data-files"] == "0"
}

// prepareRenameColumn prepares ALTER TABLE t RENAME COLUMN a TO b.
func (s *session) prepareRenameColumn(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER TABLE")
		if err != nil {
			return nil, err
		}
		t, notices, err := s.alterTarget(ctx, rs.Relation, rs.MissingOk)
		if t == nil || err != nil {
			return notices, err
		}
		e := ddl.NewSchemaEdit(t)
		if err := e.Rename(rs.Subname, rs.Newname); err != nil {
			return nil, err
		}
		if err := commitSchema(ctx, mc, t, e); err != nil {
			return nil, err
		}
		s.columnPrivilegesMoved(ctx, t.Ident, rs.Subname, rs.Newname) // privilege_column.go
		return nil, nil
	}}, nil
}

// prepareComment prepares COMMENT ON COLUMN t.c IS '...' and COMMENT ON
// TABLE t IS '...' (the table property "comment").
func (s *session) prepareComment(cs *pg.CommentStmt) (Statement, error) {
	var parts []string
	for _, it := range cs.Object.GetList().GetItems() {
		parts = append(parts, it.GetString_().GetSval())
	}
	switch {
	case cs.Objtype == pg.ObjectType_OBJECT_COLUMN && len(parts) >= 2:
	case cs.Objtype == pg.ObjectType_OBJECT_TABLE && len(parts) >= 1:
		parts = append(parts, "")
	default:
		return nil, pgerr.NotYet("COMMENT ON " + strings.TrimPrefix(cs.Objtype.String(), "OBJECT_"))
	}
	col := parts[len(parts)-1]
	rel := &pg.RangeVar{Relname: parts[len(parts)-2]}
	if len(parts) >= 3 {
		rel.Schemaname = parts[len(parts)-3]
	}
	if len(parts) >= 4 {
		rel.Catalogname = parts[len(parts)-4]
	}
	return &ddlStatement{sess: s, tag: "COMMENT", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("COMMENT")
		if err != nil {
			return nil, err
		}
		t, _, err := s.alterTarget(ctx, rel, false)
		if err != nil {
			return nil, err
		}
		if cs.Objtype == pg.ObjectType_OBJECT_TABLE {
			var u catalog.Update = catalog.SetProperties{Updates: map[string]string{"comment": cs.Comment}}
			if cs.Comment == "" {
				u = catalog.RemoveProperties{Removals: []string{"comment"}}
			}
			_, err := mc.CommitTable(ctx, t.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: t.Metadata.TableUUID}}, []catalog.Update{u})
			return nil, catalogError(err, kindTable, t.Ident.Name)
		}
		e := ddl.NewSchemaEdit(t)
		if err := e.SetDoc(col, cs.Comment); err != nil {
			return nil, err
		}
		return nil, commitSchema(ctx, mc, t, e)
	}}, nil
}

// commitSchema commits a schema edit of t (nothing when it changed nothing).
func commitSchema(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, e *ddl.SchemaEdit) error {
	if !e.Changed {
		return nil
	}
	if _, err := mc.CommitTable(ctx, t.Ident, e.Requirements(), e.Updates()); err != nil {
		return catalogError(err, kindTable, t.Ident.Name)
	}
	return nil
}
