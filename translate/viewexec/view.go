package viewexec

import (
	"context"
	"errors"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/caterr"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/icebergfrom"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Views: CREATE [OR REPLACE] [TEMP] VIEW and DROP VIEW. A persistent view
// is Iceberg view metadata in the catalog holding the query's source text
// and output schema; a temporary view lives in the session only. Both are
// found by lookupView, which the binder calls for a name that is no table.

// Temp is a view of one session (CREATE TEMP VIEW); the session keeps
// them by name (Env.TempViews).
type Temp struct {
	name      string
	sql       string
	defaultNS []string
	cols      []pgtypes.Column
}

// TempSchema is the schema name PostgreSQL gives temporary relations.
const TempSchema = "pg_temp"

// Run is a view statement's work at Execute: its notices, and whether it
// changed the catalog.
type Run = func(ctx context.Context) ([]pgerr.Notice, bool, error)

// Create prepares CREATE [OR REPLACE] [TEMP] VIEW name [(cols)]
// [WITH (...)] AS query.
func (s Exec) Create(ps parse.Stmt, vs *pg.ViewStmt) (Run, error) {
	if vs.WithCheckOption == pg.ViewCheckOption_LOCAL_CHECK_OPTION || vs.WithCheckOption == pg.ViewCheckOption_CASCADED_CHECK_OPTION {
		return nil, pgerr.Unsupported("WITH CHECK OPTION").WithHint("icegate views are read-only.")
	}
	for _, o := range vs.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		switch strings.ToLower(d.Defname) {
		case "security_barrier", "security_invoker":
			// icegate has no row security: nothing to do.
		case "check_option":
			return nil, pgerr.Unsupported("WITH CHECK OPTION").WithHint("icegate views are read-only.")
		default:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter \"%s\"", d.Defname)
		}
	}
	sel := vs.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.NotYet("CREATE VIEW of this statement")
	}
	text, recursive, err := viewQueryText(ps.Text)
	if err != nil {
		return nil, err
	}
	if recursive {
		return nil, pgerr.NotYet("CREATE RECURSIVE VIEW")
	}
	return func(ctx context.Context) ([]pgerr.Notice, bool, error) {
		return s.createView(ctx, ps, vs, sel, text)
	}, nil
}

// createView runs CREATE VIEW: it binds the query for its output columns,
// then stores the view on the session (TEMP) or in the catalog.
func (s Exec) createView(ctx context.Context, ps parse.Stmt, vs *pg.ViewStmt, sel *pg.SelectStmt, text string) ([]pgerr.Notice, bool, error) {
	tn := parse.TableNameOf(vs.View)
	inner := ps
	inner.Node = vs.Query
	b := bind.New(ctx, s.Env, inner, &bind.ParamSet{}, time.Now())
	plan, err := b.BindSelect(sel)
	if err != nil {
		return nil, false, err
	}
	cols, err := Columns(plan.Cols, vs.Aliases)
	if err != nil {
		return nil, false, err
	}
	temp := vs.View.Relpersistence == "t"
	var notices []pgerr.Notice
	if !temp && s.UsesTemp(vs.Query) {
		temp = true
		notices = append(notices, pgerr.Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
			Message: "view \"" + tn.Name + "\" will be a temporary view"})
	}
	if temp {
		return notices, false, s.CreateTemp(tn, vs.Replace, cols, text, s.DefaultNamespace(ctx, nil))
	}
	return notices, true, s.createCatalogView(ctx, tn, vs.Replace, cols, text)
}

// Columns names the query's columns by the view's column list.
func Columns(cols []pgtypes.Column, aliases []*pg.Node) ([]pgtypes.Column, error) {
	if len(aliases) > len(cols) {
		return nil, pgerr.New(pgerr.SyntaxError, "CREATE VIEW specifies more column names than columns")
	}
	out := append([]pgtypes.Column(nil), cols...)
	seen := map[string]bool{}
	for i := range out {
		out[i].TableOID, out[i].AttNum = 0, 0
		if i < len(aliases) {
			out[i].Name = aliases[i].GetString_().GetSval()
		}
		if seen[out[i].Name] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", out[i].Name)
		}
		seen[out[i].Name] = true
	}
	return out, nil
}

// CreateTemp stores a temporary view on the session.
func (s Exec) CreateTemp(tn parse.TableName, replace bool, cols []pgtypes.Column, text string, defaultNS []string) error {
	if tn.Catalog != "" || (tn.Schema != "" && tn.Schema != TempSchema) {
		return pgerr.New(pgerr.InvalidTableDefinition, "cannot create temporary relation in non-temporary schema")
	}
	views := s.TempViews()
	if prev, ok := views[tn.Name]; ok {
		if !replace {
			return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", tn.Name)
		}
		old := make([]viewColumn, len(prev.cols))
		for i, c := range prev.cols {
			old[i] = viewColumn{name: c.Name, typ: plan.Type{OID: c.TypeOID, Typmod: c.Typmod}}
		}
		if err := checkReplacedColumns(old, cols, func(i int) bool {
			return old[i].typ == plan.Type{OID: cols[i].TypeOID, Typmod: cols[i].Typmod}
		}); err != nil {
			return err
		}
	}
	views[tn.Name] = &Temp{name: tn.Name, sql: text, defaultNS: defaultNS, cols: cols}
	return nil
}

// createCatalogView creates or replaces a view in the catalog.
func (s Exec) createCatalogView(ctx context.Context, tn parse.TableName, replace bool, cols []pgtypes.Column, text string) error {
	mc, err := s.MutableCatalog("CREATE VIEW")
	if err != nil {
		return err
	}
	id, def, err := s.TableIdent(ctx, tn)
	if err != nil {
		return err
	}
	if def {
		if err := mc.CreateNamespace(ctx, id.Namespace, nil); err != nil && !errors.Is(err, catalog.ErrAlreadyExists) {
			return caterr.Convert(err, caterr.Schema, strings.Join(id.Namespace, "."))
		}
	}
	if _, err := s.Catalog().LoadTable(ctx, id); err == nil {
		if replace {
			return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", tn.Name)
		}
		return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", tn.Name)
	}
	schema := &catalog.Schema{}
	for i, c := range cols {
		t, err := viewColumnType(plan.Type{OID: c.TypeOID, Typmod: c.Typmod}, c.Name)
		doc := ""
		if err != nil {
			// The schema of a view is informative: a type no Iceberg table
			// can hold is kept as a string, with its PostgreSQL name.
			t = &catalog.PrimitiveType{ID: catalog.TString}
			doc = "PostgreSQL type " + plan.Type{OID: c.TypeOID, Typmod: c.Typmod}.String()
		}
		schema.Fields = append(schema.Fields, catalog.NestedField{ID: i + 1, Name: c.Name, Type: t, Doc: doc})
	}
	// The PostgreSQL types Iceberg lacks (varchar(n), char(n), smallint,
	// json, jsonb) are recorded by the ids the view's schema gets, as a
	// table's are (plan.PGTypesProperty). OR REPLACE keeps the types of the
	// columns there already, so the entries it merges stay true.
	fresh, _, _ := catalog.FreshSchema(schema)
	rec := map[int]plan.Type{}
	for i, c := range cols {
		if t := (plan.Type{OID: c.TypeOID, Typmod: c.Typmod}); plan.Recordable(t, fresh.Fields[i].Type) {
			rec[fresh.Fields[i].ID] = t
		}
	}
	var props map[string]string
	if v := plan.EncodeRecordedTypes(rec); v != "" {
		props = map[string]string{plan.PGTypesProperty: v}
	}
	if replace {
		if old, err := s.Catalog().LoadView(ctx, id); err == nil {
			if err := checkReplacedCatalogColumns(old.Schema(), schema); err != nil {
				return err
			}
		}
	}
	meta, err := catalog.NewViewMetadata(catalog.ViewSpec{
		Schema:           schema,
		SQL:              text,
		Dialect:          catalog.DialectPostgres,
		DefaultNamespace: s.DefaultNamespace(ctx, id.Namespace),
		DefaultCatalog:   s.Catalog().Name(),
		Summary:          map[string]string{"engine-name": "icegate"},
		Properties:       props,
	}, "", "", time.Now().UnixMilli())
	if err != nil {
		return caterr.Convert(err, caterr.Table, tn.Written)
	}
	if _, err := mc.CreateView(ctx, id, meta, replace); err != nil {
		if errors.Is(err, catalog.ErrNotFound) {
			return caterr.Convert(err, caterr.Schema, strings.Join(id.Namespace, "."))
		}
		return caterr.Convert(err, caterr.Table, tn.Name)
	}
	return nil
}

// DefaultNamespace is the namespace unqualified names in a view's query
// resolve in: the first schema of search_path that exists, else fallback.
func (s Exec) DefaultNamespace(ctx context.Context, fallback []string) []string {
	all, err := s.Catalog().ListNamespaces(ctx)
	if err != nil {
		return fallback
	}
	for _, sp := range s.SearchPath() {
		if ns := bind.MatchNamespace(all, sp); ns != nil {
			return ns
		}
	}
	if len(all) == 1 {
		return all[0]
	}
	return fallback
}

type viewColumn struct {
	name string
	typ  plan.Type
}

// checkReplacedColumns applies PostgreSQL's rule for CREATE OR REPLACE
// VIEW: the new query keeps the old columns, in order, with their names and
// types (same(i) compares the types of column i); it may add columns at
// the end.
func checkReplacedColumns(old []viewColumn, cols []pgtypes.Column, same func(i int) bool) error {
	if len(cols) < len(old) {
		return pgerr.New(pgerr.InvalidTableDefinition, "cannot drop columns from view")
	}
	for i, o := range old {
		if cols[i].Name != o.name {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot change name of view column \"%s\" to \"%s\"", o.name, cols[i].Name).
				WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
		}
		if !same(i) {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot change data type of view column \"%s\" from %s to %s",
				o.name, o.typ, plan.Type{OID: cols[i].TypeOID, Typmod: cols[i].Typmod})
		}
	}
	return nil
}

// checkReplacedCatalogColumns is checkReplacedColumns for a view in the
// catalog, whose column types are Iceberg types.
func checkReplacedCatalogColumns(old, next *catalog.Schema) error {
	if old == nil {
		return nil
	}
	oldCols := make([]viewColumn, len(old.Fields))
	for i, f := range old.Fields {
		oldCols[i] = viewColumn{name: f.Name, typ: plan.TypeOfIceberg(f.Type)}
	}
	cols := make([]pgtypes.Column, len(next.Fields))
	for i, f := range next.Fields {
		t := plan.TypeOfIceberg(f.Type)
		cols[i] = pgtypes.Column{Name: f.Name, TypeOID: t.OID, Typmod: t.Typmod}
	}
	return checkReplacedColumns(oldCols, cols, func(i int) bool {
		return old.Fields[i].Type.String() == next.Fields[i].Type.String() && old.Fields[i].Doc == next.Fields[i].Doc
	})
}

// UsesTemp reports whether a query names a temporary view of the
// session (a view over it must be temporary too). Names of the query's
// WITH items are not views.
func (s Exec) UsesTemp(q *pg.Node) bool {
	if len(s.TempViews()) == 0 {
		return false
	}
	ctes := map[string]bool{}
	bind.WalkAST(q.ProtoReflect(), func(m protoreflect.Message) bool {
		if c, ok := m.Interface().(*pg.CommonTableExpr); ok {
			ctes[c.Ctename] = true
		}
		return true
	})
	found := false
	bind.WalkAST(q.ProtoReflect(), func(m protoreflect.Message) bool {
		if rv, ok := m.Interface().(*pg.RangeVar); ok && rv.Catalogname == "" &&
			(rv.Schemaname == "" && !ctes[rv.Relname] || rv.Schemaname == TempSchema) {
			if _, ok := s.TempViews()[rv.Relname]; ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// viewQueryText returns the source text of CREATE VIEW's query: what
// follows the first AS outside parentheses, up to the last token that is
// not a comment. recursive is true for CREATE RECURSIVE VIEW.
func viewQueryText(stmt string) (text string, recursive bool, err error) {
	res, err := pg.Scan(stmt)
	if err != nil {
		return "", false, pgerr.Wrap(err, pgerr.SyntaxError, "%s", err.Error())
	}
	depth, start, end := 0, -1, -1
	for _, tok := range res.Tokens {
		switch {
		case tok.Token == pg.Token_SQL_COMMENT || tok.Token == pg.Token_C_COMMENT:
			continue
		case start >= 0:
			if tok.Token != pg.Token_ASCII_59 {
				end = int(tok.End)
			}
		case tok.Token == pg.Token_ASCII_40:
			depth++
		case tok.Token == pg.Token_ASCII_41:
			depth--
		case tok.Token == pg.Token_RECURSIVE && depth == 0:
			recursive = true
		case tok.Token == pg.Token_AS && depth == 0:
			start = int(tok.End)
		}
	}
	if start < 0 || end < start || end > len(stmt) {
		return "", recursive, pgerr.New(pgerr.SyntaxError, "CREATE VIEW without AS query")
	}
	return strings.TrimSpace(stmt[start:end]), recursive, nil
}

// Drop prepares DROP VIEW [IF EXISTS] name [, ...] [CASCADE |
// RESTRICT]. Every name is resolved before any view is dropped. icegate
// does not record which views depend on a view, so CASCADE drops no more
// and RESTRICT refuses nothing.
func (s Exec) Drop(ds *pg.DropStmt) Run {
	return func(ctx context.Context) ([]pgerr.Notice, bool, error) {
		var notices []pgerr.Notice
		var drop []*bind.ViewDef
		for _, obj := range ds.Objects {
			tn := parse.TableNameOfList(obj)
			v, err := s.ResolveView(ctx, tn)
			if err != nil {
				return nil, false, err
			}
			if v != nil {
				drop = append(drop, v)
				continue
			}
			if _, err := s.ResolveTable(ctx, tn); err == nil {
				return nil, false, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", tn.Name).
					WithHint("Use DROP TABLE to remove a table.")
			} else if pgerr.Code(err) != pgerr.UndefinedTable {
				return nil, false, err
			}
			if !ds.MissingOk {
				return nil, false, pgerr.New(pgerr.UndefinedTable, "view \"%s\" does not exist", tn.Written)
			}
			notices = append(notices, pgerr.Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "view \"" + tn.Written + "\" does not exist, skipping"})
		}
		wrote := false
		for _, v := range drop {
			if v.Temp {
				delete(s.TempViews(), v.Ident.Name)
				continue
			}
			mc, err := s.MutableCatalog("DROP VIEW")
			if err != nil {
				return nil, false, err
			}
			if err := mc.DropView(ctx, v.Ident); err != nil {
				return nil, false, dropViewError(err, v.Ident.Name)
			}
			wrote = true
		}
		return notices, wrote, nil
	}
}

func dropViewError(err error, name string) error {
	if errors.Is(err, catalog.ErrNotFound) {
		return pgerr.Wrap(err, pgerr.UndefinedTable, "view \"%s\" does not exist", name)
	}
	return caterr.Convert(err, caterr.Table, name)
}

// LookupView finds the view a 1-3 part name refers to, the way
// resolveTable finds tables: an unqualified name is a temporary view of the
// session first, then a view in the schemas of search_path (or in the only
// namespace); pg_temp.name is a temporary view only. It returns the query
// to bind in the view's place (see viewDef.query) and the namespace its
// unqualified names resolve in; found is false when there is no such view.
// The query of a view made by another engine may be in that engine's
// dialect (the postgres one when the view has it).
func (s Exec) LookupView(ctx context.Context, tn parse.TableName) (sql string, defaultNS []string, found bool, err error) {
	v, err := s.ResolveView(ctx, tn)
	if err != nil || v == nil {
		return "", nil, false, err
	}
	return v.Query(), v.DefaultNS, true, nil
}

// ResolveView is lookupView returning the whole definition; nil when there
// is no such view.
func (s Exec) ResolveView(ctx context.Context, tn parse.TableName) (*bind.ViewDef, error) {
	if tn.Catalog != "" && tn.Catalog != s.Catalog().Name() {
		return nil, icebergfrom.OtherDatabase(tn)
	}
	if tn.Catalog == "" && (tn.Schema == "" || tn.Schema == TempSchema) {
		if t, ok := s.TempViews()[tn.Name]; ok {
			v := &bind.ViewDef{Ident: catalog.Identifier{Name: t.name}, Temp: true, SQL: t.sql,
				Dialect: catalog.DialectPostgres, DefaultNS: append([]string(nil), t.defaultNS...)}
			for _, c := range t.cols {
				v.Columns = append(v.Columns, c.Name)
			}
			return v, nil
		}
		if tn.Schema == TempSchema {
			return nil, nil
		}
	}
	if tn.Schema != "" {
		if v, err := s.loadView(ctx, []string{tn.Schema}, tn.Name); v != nil || err != nil {
			return v, err
		}
		ns, err := s.FindNamespace(ctx, tn.Schema)
		if err != nil || len(ns) <= 1 {
			return nil, err
		}
		return s.loadView(ctx, ns, tn.Name)
	}
	var found *bind.ViewDef
	err := s.SearchPathWalk(ctx, func(ns []string) (bool, error) {
		v, err := s.loadView(ctx, ns, tn.Name)
		found = v
		return v != nil, err
	})
	return found, err
}

// loadView loads the view namespace.name; nil without error when there is
// none. A name matches exactly, else a unique case-insensitive match.
func (s Exec) loadView(ctx context.Context, ns []string, name string) (*bind.ViewDef, error) {
	v, err := s.Catalog().LoadView(ctx, catalog.Identifier{Namespace: ns, Name: name})
	if err != nil {
		if !errors.Is(err, catalog.ErrNotFound) {
			return nil, pgerr.Wrap(err, pgerr.IOError, "load view %s.%s: %v", strings.Join(ns, "."), name, err)
		}
		ids, lerr := s.Catalog().ListViews(ctx, ns)
		if lerr != nil {
			return nil, nil
		}
		var match *catalog.Identifier
		for i := range ids {
			if strings.EqualFold(ids[i].Name, name) || bind.TruncatedMatch(ids[i].Name, name) {
				if match != nil {
					return nil, nil
				}
				match = &ids[i]
			}
		}
		if match == nil || match.Name == name {
			return nil, nil
		}
		if v, err = s.Catalog().LoadView(ctx, *match); err != nil {
			return nil, pgerr.Wrap(err, pgerr.IOError, "load view %s: %v", match.Name, err)
		}
	}
	sql, dialect, ok := v.SQL()
	if !ok {
		return nil, pgerr.Unsupported("view \"%s\" without a SQL representation", v.Ident.Name)
	}
	def := &bind.ViewDef{Ident: v.Ident, SQL: sql, Dialect: dialect, DefaultNS: v.DefaultNamespace()}
	if schema := v.Schema(); schema != nil {
		for _, f := range schema.Fields {
			def.Columns = append(def.Columns, f.Name)
		}
	}
	return def, nil
}

// Helpers for the table statements that meet views.

// NotTable returns PostgreSQL's error for DROP TABLE naming a view
// (42809 "\"v\" is not a table", with the hint to use DROP VIEW), or nil
// when tn names no view. DROP TABLE calls it when the table is not found.
func (s Exec) NotTable(ctx context.Context, tn parse.TableName) error {
	v, err := s.ResolveView(ctx, tn)
	if err != nil || v == nil {
		return err
	}
	return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", tn.Name).
		WithHint("Use DROP VIEW to remove a view.")
}

// DropIn drops every view of namespace ns (DROP SCHEMA ... CASCADE)
// and returns how many it dropped.
func (s Exec) DropIn(ctx context.Context, mc catalog.MutableCatalog, ns []string) (int, error) {
	ids, err := mc.ListViews(ctx, ns)
	if err != nil {
		return 0, caterr.Convert(err, caterr.Schema, strings.Join(ns, "."))
	}
	n := 0
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if err := mc.DropView(ctx, id); err != nil {
			if errors.Is(err, catalog.ErrNotFound) {
				continue
			}
			return n, dropViewError(err, id.Name)
		}
		n++
	}
	return n, nil
}

// viewColumnType is the Iceberg type of a view's column of PostgreSQL type
// t: an array is a list of its element's type (integer[] list<int>,
// varchar(3)[] list<string> with its type recorded), so that the catalog
// shows it as an array.
func viewColumnType(t plan.Type, name string) (catalog.Type, error) {
	// Field ids of an interval's parts: catalog.FreshSchema numbers them
	// afresh.
	n := 0
	next := func() int { n++; return n }
	elem := pgtypes.ElemOf(t.OID)
	if elem == 0 || t.OID == pgtypes.Int2Vector || t.OID == pgtypes.OIDVector {
		return ddl.IcebergTypeOfPG(t, name, next)
	}
	et, err := ddl.IcebergTypeOfPG(plan.Type{OID: elem, Typmod: -1}, name, next)
	if err != nil {
		return nil, err
	}
	return &catalog.ListType{Element: et}, nil
}
