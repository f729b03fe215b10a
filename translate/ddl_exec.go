package translate

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/enumtype"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/seqexec"
	"github.com/icegate/icegate/translate/sequence"
	"github.com/icegate/icegate/translate/viewexec"
)

// ddlStatement is a statement that changes the catalog and returns no rows.
// It binds and runs at Execute, so that it sees what the statements before
// it in the same query string did.
type ddlStatement struct {
	sess *session
	tag  string
	run  func(ctx context.Context) ([]Notice, error)
	// atOnce marks a statement that commits when it runs even inside a
	// transaction block (CREATE SCHEMA, DROP TABLE ... PURGE). The others
	// are staged in a block (tx_ddl.go), and in a query string of several
	// statements they open its implicit transaction (tx_implicit.go), so
	// that a later statement's failure takes them back, as in PostgreSQL.
	atOnce bool
}

func (d *ddlStatement) ParamTypes() []uint32      { return nil }
func (d *ddlStatement) Columns() []pgtypes.Column { return nil }
func (d *ddlStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if !d.atOnce {
		d.sess.openImplicitBlock()
	}
	if d.sess.tx != nil {
		d.sess.tx.committed = false
	}
	notices, err := d.run(ctx)
	if err != nil {
		return nil, err
	}
	return &emptyRows{tag: d.tag, notices: append(notices, d.sess.committedWrite()...)}, nil
}

// prepareCreateTable prepares CREATE TABLE.
func (s *session) prepareCreateTable(ps parse.Stmt, cs *pg.CreateStmt, x *parse.DDLExtras) (Statement, error) {
	return &ddlStatement{sess: s, tag: "CREATE TABLE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("CREATE TABLE")
		if err != nil {
			return nil, err
		}
		ct, err := s.bindCreateTable(ctx, ps, cs, x)
		if err != nil {
			return nil, err
		}
		if x != nil && x.Replace != "" { // replace_exec.go
			if done, _, err := s.replaceOrCreate(ctx, mc, ct, x.Replace, nil); done || err != nil {
				return nil, err
			}
		}
		t, notices, err := s.createTable(ctx, mc, ct)
		if err == nil && t != nil {
			err = ct.defs.seqs.Create(ctx, seqexec.With(s), mc, t)
		}
		return append(ct.notices, notices...), err
	}}, nil
}

// createTable creates the table of ct; nil without error when it exists
// and IF NOT EXISTS was given (with PostgreSQL's notice).
func (s *session) createTable(ctx context.Context, mc catalog.MutableCatalog, ct *createTable) (*catalog.Table, []Notice, error) {
	if ct.spec.Location != "" {
		// The filesystem catalog decides where tables live; only the
		// default location is accepted.
		ct.spec.Location = strings.TrimSuffix(ct.spec.Location, "/")
	}
	if ct.defaultSchema {
		// The default schema comes into being with its first table; that
		// is not a schema change of the user's (no notice in a block).
		if err := underWriteCatalog(mc).CreateNamespace(ctx, ct.id.Namespace, nil); err != nil && !errors.Is(err, catalog.ErrAlreadyExists) {
			return nil, nil, catalogError(err, kindSchema, strings.Join(ct.id.Namespace, "."))
		}
	}
	t, err := mc.CreateTable(ctx, ct.id, ct.spec)
	switch {
	case err == nil:
		return t, nil, nil
	case errors.Is(err, catalog.ErrAlreadyExists) && ct.spec.Properties[enumtype.LabelsProp] == "" && enumNamed(ctx, mc, ct.id):
		// The name is an enum type's (enum_ddl.go): a table's row type
		// would take it, as PostgreSQL says.
		return nil, nil, pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", ct.id.Name).
			WithHint("A relation has an associated type of the same name, so you must use a name that doesn't conflict with any existing type.")
	case errors.Is(err, catalog.ErrAlreadyExists) && ct.ifNotExists:
		return nil, []Notice{{Severity: "NOTICE", Code: pgerr.DuplicateTable,
			Message: "relation \"" + ct.id.Name + "\" already exists, skipping"}}, nil
	case errors.Is(err, catalog.ErrNotFound):
		return nil, nil, catalogError(err, kindSchema, strings.Join(ct.id.Namespace, "."))
	case errors.Is(err, catalog.ErrUnsupported) && ct.spec.Location != "":
		return nil, nil, locationError(err, ct) // location.go
	}
	return nil, nil, catalogError(err, kindTable, ct.name)
}

// prepareCreateSchema prepares CREATE SCHEMA [IF NOT EXISTS] name.
func (s *session) prepareCreateSchema(cs *pg.CreateSchemaStmt, x *parse.DDLExtras) (Statement, error) {
	if err := s.checkNamespaceCatalog(x); err != nil {
		return nil, err
	}
	if len(cs.SchemaElts) > 0 {
		return nil, pgerr.NotYetPlural("schema elements in CREATE SCHEMA")
	}
	name := cs.Schemaname
	if name == "" {
		return nil, pgerr.NotYet("CREATE SCHEMA AUTHORIZATION without a name")
	}
	return &ddlStatement{sess: s, tag: "CREATE SCHEMA", atOnce: true, run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("CREATE SCHEMA")
		if err != nil {
			return nil, err
		}
		err = mc.CreateNamespace(ctx, []string{name}, nil)
		if errors.Is(err, catalog.ErrAlreadyExists) && cs.IfNotExists {
			return []Notice{{Severity: "NOTICE", Code: pgerr.DuplicateSchema,
				Message: "schema \"" + name + "\" already exists, skipping"}}, nil
		}
		return nil, catalogError(err, kindSchema, name)
	}}, nil
}

// checkNamespaceCatalog checks the catalog Spark wrote in front of a
// namespace (CREATE NAMESPACE local.db): it must be this session's
// database; another one is a cross-database reference.
func (s *session) checkNamespaceCatalog(x *parse.DDLExtras) error {
	if x == nil || x.CatalogQualified == "" || x.Catalog == s.database || x.Catalog == s.cat.Name() {
		return nil
	}
	return pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", x.CatalogQualified)
}

// prepareDrop prepares DROP TABLE and DROP SCHEMA.
func (s *session) prepareDrop(ds *pg.DropStmt, x *parse.DDLExtras) (Statement, error) {
	if ds.RemoveType == pg.ObjectType_OBJECT_SCHEMA {
		if err := s.checkNamespaceCatalog(x); err != nil {
			return nil, err
		}
	}
	cascade := ds.Behavior == pg.DropBehavior_DROP_CASCADE
	switch ds.RemoveType {
	case pg.ObjectType_OBJECT_TABLE:
		purge := x != nil && x.Purge
		return &ddlStatement{sess: s, tag: "DROP TABLE", atOnce: purge, run: func(ctx context.Context) ([]Notice, error) {
			mc, err := s.mutableCatalog("DROP TABLE")
			if err != nil {
				return nil, err
			}
			var notices []Notice
			for _, obj := range ds.Objects {
				tn := tableNameOfList(obj)
				t, err := s.ResolveTable(ctx, tn)
				if pgerr.Code(err) == pgerr.UndefinedTable {
					if verr := viewexec.With(s).NotTable(ctx, tn); verr != nil {
						return nil, verr
					}
				}
				if pgerr.Code(err) == pgerr.UndefinedTable && ds.MissingOk {
					notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
						Message: "table \"" + tn.Name + "\" does not exist, skipping"})
					continue
				}
				if err != nil {
					return nil, err
				}
				if sequence.Is(t) {
					return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", tn.Name).WithHint("Use DROP SEQUENCE to remove a sequence.")
				}
				if enumtype.Is(t) {
					return nil, pgerr.New(pgerr.UndefinedTable, "table \"%s\" does not exist", tn.Name)
				}
				if err := mc.DropTable(ctx, t.Ident, purge); err != nil {
					return nil, catalogError(err, kindTable, tn.Written)
				}
				if err := seqexec.With(s).DropOwned(ctx, mc, t); err != nil {
					return nil, err
				}
			}
			return notices, nil
		}}, nil
	case pg.ObjectType_OBJECT_SCHEMA:
		return &ddlStatement{sess: s, tag: "DROP SCHEMA", atOnce: true, run: func(ctx context.Context) ([]Notice, error) {
			mc, err := s.mutableCatalog("DROP SCHEMA")
			if err != nil {
				return nil, err
			}
			var notices []Notice
			for _, obj := range ds.Objects {
				name := obj.GetString_().GetSval()
				ns, err := s.findNamespace(ctx, name)
				if err != nil {
					return nil, err
				}
				if ns == nil {
					if ds.MissingOk {
						notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
							Message: "schema \"" + name + "\" does not exist, skipping"})
						continue
					}
					return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
				}
				if cascade {
					n, err := s.dropTablesIn(ctx, mc, ns)
					if err != nil {
						return nil, err
					}
					nv, err := viewexec.With(s).DropIn(ctx, mc, ns)
					if err != nil {
						return nil, err
					}
					n += nv
					if n > 0 {
						notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
							Message: "drop cascades to " + plural(n, "other object")})
					}
				}
				if err := mc.DropNamespace(ctx, ns); err != nil {
					return nil, catalogError(err, kindSchema, name)
				}
			}
			return notices, nil
		}}, nil
	case pg.ObjectType_OBJECT_INDEX:
		return s.prepareDropIndex(ds) // session_indexenv.go
	}
	return nil, pgerr.NotYet("DROP " + strings.TrimPrefix(ds.RemoveType.String(), "OBJECT_"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// dropTablesIn drops every table of namespace ns (DROP SCHEMA ... CASCADE)
// and returns how many it dropped.
func (s *session) dropTablesIn(ctx context.Context, mc catalog.MutableCatalog, ns []string) (int, error) {
	ids, err := mc.ListTables(ctx, ns)
	if err != nil {
		return 0, catalogError(err, kindSchema, strings.Join(ns, "."))
	}
	n := len(ids)
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if seqexec.Owned(ctx, mc, id) { // package seqexec: dropped with its table, not counted
			n--
		}
		if err := mc.DropTable(ctx, id, false); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return 0, catalogError(err, kindTable, id.Name)
		}
		slog.Debug("dropped table by DROP SCHEMA CASCADE", "table", id.Name)
	}
	return n, nil
}

// tableNameOfList reads a table name given as a list of strings (DROP):
// parse.TableNameOfList.
func tableNameOfList(n *pg.Node) parse.TableName { return parse.TableNameOfList(n) }

// prepareRename prepares ALTER TABLE t RENAME TO u.
func (s *session) prepareRename(rs *pg.RenameStmt, x *parse.DDLExtras) (Statement, error) {
	switch rs.RenameType {
	case pg.ObjectType_OBJECT_TABCONSTRAINT:
		return s.prepareRenameConstraint(rs) // session_indexenv.go
	case pg.ObjectType_OBJECT_INDEX:
		return s.prepareRenameIndex(rs)
	case pg.ObjectType_OBJECT_SEQUENCE:
		return s.prepareRenameSequence(rs) // session_seqenv.go
	}
	if rs.RenameType != pg.ObjectType_OBJECT_TABLE {
		return nil, pgerr.NotYet("ALTER ... RENAME of this kind of object")
	}
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER TABLE")
		if err != nil {
			return nil, err
		}
		tn := parse.TableNameOf(rs.Relation)
		t, err := s.ResolveTable(ctx, tn)
		if pgerr.Code(err) == pgerr.UndefinedTable && rs.MissingOk {
			return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion, Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
		}
		if err != nil {
			return nil, err
		}
		to := catalog.Identifier{Namespace: t.Ident.Namespace, Name: rs.Newname}
		if x != nil && x.RenameNS != nil {
			ns, err := s.findNamespace(ctx, *x.RenameNS)
			if err != nil {
				return nil, err
			}
			if ns == nil {
				return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", *x.RenameNS)
			}
			to.Namespace = ns
		}
		if err := mc.RenameTable(ctx, t.Ident, to); err != nil {
			return nil, catalogError(err, kindTable, rs.Newname)
		}
		if pinKey(catalog.Identifier{Namespace: to.Namespace}) == pinKey(catalog.Identifier{Namespace: t.Ident.Namespace}) {
			return nil, seqexec.With(s).RenameOwner(ctx, t, to.Name)
		}
		return nil, nil
	}}, nil
}
