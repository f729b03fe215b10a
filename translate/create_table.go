package translate

import (
	"context"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// createTable is a bound CREATE TABLE (or the table part of CREATE TABLE
// AS): the Iceberg table to create.
type createTable struct {
	id          catalog.Identifier
	name        string // as written, for messages
	spec        catalog.TableSpec
	ifNotExists bool
	// defaultSchema is set when the name was unqualified: the namespace is
	// created on first use.
	defaultSchema bool
	items         []parse.PartitionItem // partitioning, bound against the schema at create
	// defs are the defaults kept in properties: serial and identity
	// columns, expressions (defaults_table.go).
	defs tableDefaults
	// freshIDs maps the field ids the columns were bound with to those of
	// spec.Schema (setSchema): defs are keyed by the former.
	freshIDs map[int]int
	// notices are the WARNINGs for the constraints not kept.
	notices []Notice
}

// tableIdent resolves the namespace a table name creates or names in DDL.
// An unqualified name goes to the first schema of search_path (public).
// The bool is true when creating the table creates its namespace: the
// default one, or public, which PostgreSQL clients take to exist (the
// system catalog lists it) even in a warehouse without it.
func (s *session) tableIdent(ctx context.Context, tn parse.TableName) (catalog.Identifier, bool, error) {
	if tn.Catalog != "" && tn.Catalog != s.cat.Name() {
		return catalog.Identifier{}, false, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", tn.Written)
	}
	if tn.Schema != "" {
		ns, err := s.findNamespace(ctx, tn.Schema)
		if err != nil {
			return catalog.Identifier{}, false, err
		}
		if ns == nil {
			return catalog.Identifier{Namespace: []string{tn.Schema}, Name: tn.Name}, tn.Schema == "public", nil
		}
		return catalog.Identifier{Namespace: ns, Name: tn.Name}, false, nil
	}
	schema := "public"
	for _, sp := range s.settings.SearchPath() {
		if sp != "$user" && sp != "pg_catalog" {
			schema = sp
			break
		}
	}
	return catalog.Identifier{Namespace: []string{schema}, Name: tn.Name}, true, nil
}

// bindCreateTable binds CREATE TABLE name (columns) [WITH (...)] and the
// Spark clauses the dialect pass took out (x, nil when none).
func (s *session) bindCreateTable(ctx context.Context, ps parse.Stmt, cs *pg.CreateStmt, x *parse.DDLExtras) (*createTable, error) {
	if cs.Relation.Relpersistence == "t" {
		return nil, pgerr.NotYetPlural("temporary tables")
	}
	if len(cs.InhRelations) > 0 {
		return nil, pgerr.NotYet("INHERITS")
	}
	if cs.Partspec != nil {
		return nil, pgerr.Unsupported("PARTITION BY in CREATE TABLE").
			WithHint("Partition Iceberg tables with WITH (partitioning = 'days(ts), bucket(16, id)') or PARTITIONED BY (...).")
	}
	if cs.AccessMethod != "" && !strings.EqualFold(cs.AccessMethod, "iceberg") {
		return nil, pgerr.Unsupported("table access method \"%s\"", cs.AccessMethod)
	}
	ct, err := s.newCreateTable(ctx, cs.Relation, cs.IfNotExists, cs.Options, x)
	if err != nil {
		return nil, err
	}
	ids := &ddl.IDCounter{}
	schema := &catalog.Schema{}
	seen := map[string]bool{}
	var primary []string       // PRIMARY KEY columns: the identifier fields
	rec := map[int]plan.Type{} // PostgreSQL types Iceberg lacks, by field id
	enums := map[int]string{}  // enum types of columns, by field id
	for _, n := range cs.TableElts {
		if con := n.GetConstraint(); con != nil && con.Contype == pg.ConstrType_CONSTR_PRIMARY {
			if primary != nil {
				return nil, pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", cs.Relation.Relname)
			}
			for _, k := range con.Keys {
				primary = append(primary, k.GetString_().Sval)
			}
			continue
		}
		if n, ok := ddl.ConstraintNotKept(n.GetConstraint()); ok {
			ct.notices = append(ct.notices, n)
			continue
		}
		cd := n.GetColumnDef()
		if cd == nil {
			return nil, pgerr.NotYetPlural("table constraints other than PRIMARY KEY, UNIQUE, FOREIGN KEY, CHECK and EXCLUDE")
		}
		if seen[cd.Colname] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", cd.Colname)
		}
		seen[cd.Colname] = true
		f := catalog.NestedField{ID: ids.Next(), Name: cd.Colname}
		if f.Type, err = ddl.IcebergTypeOf(ct.defs.seqs.ColumnType(cd, f.ID), x, ids); pgerr.Code(err) == pgerr.UndefinedObject {
			// No built-in type: an enum type's? (enum_ddl.go)
			if _, name := s.enumOfColumn(ctx, cd.TypeName); name != "" {
				f.Type, err = &catalog.PrimitiveType{ID: catalog.TString}, nil
				enums[f.ID] = name
			}
		}
		if err != nil {
			return nil, err
		}
		if _, ok := enums[f.ID]; ok {
		} else if t, ok, err := ddl.RecordedTypeOf(cd.TypeName, f.Type); err != nil {
			return nil, err
		} else if ok {
			rec[f.ID] = t
		} else if t, ok := ddl.RecordedTypeOfSpark(cd.TypeName, x, f.Type); ok {
			rec[f.ID] = t
		}
		for _, c := range cd.Constraints {
			con := c.GetConstraint()
			switch con.GetContype() {
			case pg.ConstrType_CONSTR_NOTNULL:
				f.Required = true
			case pg.ConstrType_CONSTR_NULL:
				f.Required = false
			case pg.ConstrType_CONSTR_PRIMARY:
				if primary != nil {
					return nil, pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", cs.Relation.Relname)
				}
				primary = []string{cd.Colname}
			case pg.ConstrType_CONSTR_IDENTITY:
				f.Required = true
				if err := ct.defs.seqs.AddIdentity(f, con); err != nil {
					return nil, err
				}
			case pg.ConstrType_CONSTR_DEFAULT:
				if expressionDefault(con.RawExpr, f.Type) { // defaults_table.go
					if err := s.addDefaultExpr(ctx, ps, &ct.defs, f, con.RawExpr); err != nil {
						return nil, err
					}
					continue
				}
				v, err := s.columnDefault(ctx, ps, f, con.RawExpr)
				if err != nil {
					return nil, err
				}
				// A write default always; on v3 the initial default too.
				f.WriteDefault = v
				if ct.spec.FormatVersion >= 3 {
					f.InitialDefault = v
				}
			case pg.ConstrType_CONSTR_GENERATED:
				return nil, pgerr.NotYetPlural("generated columns")
			default:
				if n, ok := ddl.ConstraintNotKept(con); ok {
					ct.notices = append(ct.notices, n)
					continue
				}
				if ddl.ConstraintAttribute(con) {
					continue
				}
				return nil, pgerr.NotYet("column constraint " + strings.ToLower(strings.TrimPrefix(con.GetContype().String(), "CONSTR_")))
			}
		}
		if ct.defs.seqs.IsSerial(f.ID) {
			f.Required = true
		}
		if x != nil {
			f.Doc = x.Comments[cd.Colname]
		}
		schema.Fields = append(schema.Fields, f)
	}
	// A primary key becomes the table's identifier fields (Iceberg's row
	// identity, which upserts use as their conflict key); its columns are
	// required, as PostgreSQL makes them NOT NULL. Nothing enforces
	// uniqueness.
	for _, name := range primary {
		found := false
		for i := range schema.Fields {
			if schema.Fields[i].Name == name {
				if p := catalog.Primitive(schema.Fields[i].Type); p == nil || p.ID == catalog.TFloat || p.ID == catalog.TDouble {
					typ := schema.Fields[i].Type.String()
					if t, ok := rec[schema.Fields[i].ID]; ok {
						typ = t.String()
					}
					return nil, pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" cannot be in the primary key: its type is %s", name, typ).
						WithHint("An Iceberg identifier field is of a primitive type other than float and double.")
				}
				schema.Fields[i].Required = true
				schema.IdentifierFieldIDs = append(schema.IdentifierFieldIDs, schema.Fields[i].ID)
				found = true
			}
		}
		if !found {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" named in key does not exist", name)
		}
	}
	ct.setSchema(schema, rec)
	if v := encodeEnumColumns(freshEnumColumns(enums, ct.freshIDs)); v != "" {
		ct.spec.Properties[bind.EnumColumnsProp] = v
	}
	if ct.spec.Spec, err = ddl.PartitionSpecOf(ct.items, ct.spec.Schema); err != nil {
		return nil, err
	}
	if err := s.finishTableDefaults(ctx, ct, &ct.defs); err != nil {
		return nil, err
	}
	return ct, nil
}

// newCreateTable binds what CREATE TABLE and CREATE TABLE AS share: the
// name, the options and the Spark clauses.
func (s *session) newCreateTable(ctx context.Context, rel *pg.RangeVar, ifNotExists bool, options []*pg.Node, x *parse.DDLExtras) (*createTable, error) {
	tn := parse.TableNameOf(rel)
	id, def, err := s.tableIdent(ctx, tn)
	if err != nil {
		return nil, err
	}
	ct := &createTable{id: id, name: tn.Written, ifNotExists: ifNotExists, defaultSchema: def,
		spec: catalog.TableSpec{Properties: map[string]string{}}}
	for _, o := range options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		val := ddl.DefElemString(d)
		if err := ddl.CheckReservedProperty(d.Defname, false); err != nil {
			return nil, err
		}
		switch strings.ToLower(d.Defname) {
		case "partitioning", "partitioned_by", "partitioned-by":
			if ct.items, err = parse.ParsePartitioning(val); err != nil {
				return nil, err
			}
		case "format-version", "format_version":
			if err := ct.setFormatVersion(val); err != nil {
				return nil, err
			}
		case "location":
			ct.spec.Location = val
		default:
			ct.spec.Properties[d.Defname] = val
		}
	}
	if x != nil {
		if x.Using != "" && x.Using != "iceberg" {
			return nil, pgerr.Unsupported("CREATE TABLE ... USING %s", x.Using).WithHint("icegate creates Iceberg tables: USING iceberg.")
		}
		if x.HasPartBy {
			ct.items = x.Partitioned
		}
		for _, k := range x.PropOrder {
			if err := ddl.CheckReservedProperty(k, false); err != nil {
				return nil, err
			}
			if k == "format-version" {
				if err := ct.setFormatVersion(x.Props[k]); err != nil {
					return nil, err
				}
				continue
			}
			ct.spec.Properties[k] = x.Props[k]
		}
		if x.Comment != nil {
			ct.spec.Properties["comment"] = *x.Comment
		}
		if x.Location != nil {
			ct.spec.Location = *x.Location
		}
	}
	return ct, nil
}

func (ct *createTable) setFormatVersion(v string) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > 3 {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for \"format-version\": \"%s\"", v).
			WithHint("Iceberg format versions are 1, 2 and 3.")
	}
	ct.spec.FormatVersion = n
	return nil
}

// setSchema sets the new table's schema, its field ids already those
// CreateTable assigns, and records the PostgreSQL types Iceberg lacks
// (rec, by the ids of schema) in plan.PGTypesProperty.
func (ct *createTable) setSchema(schema *catalog.Schema, rec map[int]plan.Type) {
	fresh, ids, _ := catalog.FreshSchema(schema)
	ct.spec.Schema = fresh
	ct.freshIDs = ids
	delete(ct.spec.Properties, plan.PGTypesProperty)
	if v := plan.EncodeRecordedTypes(ddl.FreshRecorded(rec, ids)); v != "" {
		ct.spec.Properties[plan.PGTypesProperty] = v
	}
}
