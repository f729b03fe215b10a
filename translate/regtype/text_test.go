package regtype

import (
	"strconv"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
)

// TestSplitQualifiedName reads dotted names as PostgreSQL's
// stringToQualifiedNameList does.
func TestSplitQualifiedName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		code string
	}{
		{in: "pg_class", want: []string{"pg_class"}},
		{in: "  PG_Catalog . PG_CLASS ", want: []string{"pg_catalog", "pg_class"}},
		{in: `sales."MixedCase"`, want: []string{"sales", "MixedCase"}},
		{in: `"a.b"."x""y"`, want: []string{"a.b", `x"y`}},
		{in: "a.b.c.d", want: []string{"a", "b", "c", "d"}},
		{in: "", code: "42602"},
		{in: "a..b", code: "42602"},
		{in: `"abc`, code: "42602"},
		{in: `""`, code: "42602"},
		{in: "a b", code: "42602"},
		{in: "a.", code: "42602"},
	} {
		got, err := SplitQualifiedName(tc.in)
		if tc.code != "" {
			if pgerr.Code(err) != tc.code {
				t.Errorf("%q: error %v, want SQLSTATE %s", tc.in, err, tc.code)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestRegQuoteIdent quotes as quote_ident does.
func TestRegQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{
		"orders": "orders", "MixedCase": `"MixedCase"`, "select": `"select"`, "name": "name",
		"1a": `"1a"`, "a b": `"a b"`, `x"y`: `"x""y"`, "_x9": "_x9", "user": `"user"`, "": `""`,
	} {
		if got := QuoteIdent(in); got != want {
			t.Errorf("regQuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestRegInOut reads and prints reg* values against a snapshot with a
// schema, a table hidden by the search path and one that is not.
func TestRegInOut(t *testing.T) {
	snap := &syscat.Snapshot{Database: "icegate", User: "tester", SearchPath: []string{"$user", "public"},
		Namespaces: []*syscat.Namespace{{Name: "public"}, {Name: "sales"}},
		Relations: []*syscat.Relation{{Namespace: "public", Name: "orders", Kind: 'r'},
			{Namespace: "sales", Name: "orders", Kind: 'r', PrimaryKey: []int16{1}, Columns: []syscat.Attribute{{Name: "id", Type: pgtypes.Int8}}},
			{Namespace: "sales", Name: "Big One", Kind: 'v'},
			{Namespace: "public", Name: "Items", Kind: 'r', PrimaryKey: []int16{1}, Columns: []syscat.Attribute{{Name: "id", Type: pgtypes.Int8}}}}}
	snap.Index()
	pub := snap.Relation("public", "orders").OID
	sales := snap.Relation("sales", "orders").OID
	// The primary keys' indexes are relations (regclass); their
	// constraints are not.
	salesIndex := syscat.PrimaryKeyIndexOID(snap.Relation("sales", "orders"))
	itemsIndex := syscat.PrimaryKeyIndexOID(snap.Relation("public", "Items"))
	itemsConstraint := syscat.PrimaryKeyConstraintOID(snap.Relation("public", "Items"))
	oidText := func(oid uint32) string { return strconv.FormatUint(uint64(oid), 10) }
	for _, tc := range []struct {
		typ  uint32
		in   string
		oid  uint32
		out  string
		code string
	}{
		{typ: pgtypes.Regclass, in: "orders", oid: pub, out: "orders"},
		{typ: pgtypes.Regclass, in: "sales.orders", oid: sales, out: "sales.orders"},
		{typ: pgtypes.Regclass, in: `sales."Big One"`, oid: snap.Relation("sales", "Big One").OID, out: `sales."Big One"`},
		{typ: pgtypes.Regclass, in: "icegate.public.orders", oid: pub, out: "orders"},
		{typ: pgtypes.Regclass, in: "pg_class", oid: 1259, out: "pg_class"},
		{typ: pgtypes.Regclass, in: "1259", oid: 1259, out: "pg_class"},
		{typ: pgtypes.Regclass, in: "-", oid: 0, out: "-"},
		{typ: pgtypes.Regclass, in: "42", oid: 42, out: "42"},
		{typ: pgtypes.Regclass, in: "nosuch", code: pgerr.UndefinedTable},
		{typ: pgtypes.Regclass, in: "nosuch.orders", code: pgerr.InvalidSchemaName},
		{typ: pgtypes.Regclass, in: "other.public.orders", code: pgerr.FeatureNotSupported},
		{typ: pgtypes.Regclass, in: "a.b.c.d", code: pgerr.SyntaxError},
		{typ: pgtypes.Regclass, in: "sales.orders_pkey", oid: salesIndex, out: "sales.orders_pkey"},
		{typ: pgtypes.Regclass, in: oidText(salesIndex), oid: salesIndex, out: "sales.orders_pkey"},
		{typ: pgtypes.Regclass, in: `"Items_pkey"`, oid: itemsIndex, out: `"Items_pkey"`},
		{typ: pgtypes.Regclass, in: `public."Items_pkey"`, oid: itemsIndex, out: `"Items_pkey"`},
		{typ: pgtypes.Regclass, in: oidText(itemsConstraint), oid: itemsConstraint, out: oidText(itemsConstraint)},
		{typ: pgtypes.Regclass, in: "orders_pkey", code: pgerr.UndefinedTable},
		{typ: pgtypes.Regclass, in: `sales."Big One_pkey"`, code: pgerr.UndefinedTable},
		{typ: pgtypes.Regnamespace, in: "sales", oid: snap.Namespace("sales").OID, out: "sales"},
		{typ: pgtypes.Regnamespace, in: "nosuch", code: pgerr.InvalidSchemaName},
		{typ: pgtypes.Regrole, in: "tester", oid: 10, out: "tester"},
		{typ: pgtypes.Regrole, in: "postgres", code: pgerr.UndefinedObject},
		{typ: pgtypes.Regtype, in: "integer", oid: pgtypes.Int4, out: "integer"},
		{typ: pgtypes.Regtype, in: "character varying(10)[]", oid: 1015, out: "character varying[]"},
		{typ: pgtypes.Regtype, in: "pg_catalog.timestamptz", oid: pgtypes.Timestamptz, out: "timestamp with time zone"},
		{typ: pgtypes.Regtype, in: "_text", oid: pgtypes.TextArray, out: "text[]"},
		{typ: pgtypes.Regtype, in: "int4; SELECT 1", code: pgerr.SyntaxError},
		{typ: pgtypes.Regtype, in: "public.int4", code: pgerr.UndefinedObject},
		{typ: pgtypes.Regproc, in: "now", oid: 1299, out: "now"},
		{typ: pgtypes.Regproc, in: "pg_catalog.now", oid: 1299, out: "now"},
		{typ: pgtypes.Regproc, in: "sum", code: "42725"},
		{typ: pgtypes.Regproc, in: "nosuch", code: pgerr.UndefinedFunction},
		{typ: pgtypes.Regproc, in: "nosuch.now", code: pgerr.InvalidSchemaName},
		{typ: pgtypes.Regprocedure, in: "sum(int4)", oid: 2108, out: "sum(integer)"},
		{typ: pgtypes.Regprocedure, in: "pg_catalog.substr(text, integer, integer)", oid: 877, out: "substr(text,integer,integer)"},
		{typ: pgtypes.Regprocedure, in: "now()", oid: 1299, out: "now()"},
		{typ: pgtypes.Regprocedure, in: "sum", code: pgerr.InvalidTextRepresentation},
		{typ: pgtypes.Regprocedure, in: "sum(text)", code: pgerr.UndefinedFunction},
		{typ: pgtypes.Regprocedure, in: "sum(nosuch)", code: pgerr.UndefinedObject},
		{typ: pgtypes.OID, in: " -1 ", oid: 4294967295, out: "4294967295"},
		{typ: pgtypes.OID, in: "4294967296", code: pgerr.NumericValueOutOfRange},
		{typ: pgtypes.OID, in: "x", code: pgerr.InvalidTextRepresentation},
	} {
		name := pgtypes.TypeName(tc.typ) + " " + tc.in
		oid, err := In(snap, tc.typ, tc.in)
		if tc.code != "" {
			if pgerr.Code(err) != tc.code {
				t.Errorf("%s: error %v, want SQLSTATE %s", name, err, tc.code)
			}
			continue
		}
		if err != nil || oid != tc.oid {
			t.Errorf("%s: %d, %v; want %d", name, oid, err, tc.oid)
			continue
		}
		if got := Out(snap, tc.typ, oid); got != tc.out {
			t.Errorf("%s: prints %q, want %q", name, got, tc.out)
		}
	}
}
