package translate

import (
	"context"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestRegParams: a reg* cast of a parameter reads the value given at
// Execute; the parameter is text.
func TestRegParams(t *testing.T) {
	s, _, _ := newWriteSession(t)
	ctx := context.Background()
	str := func(v string) *string { return &v }
	for _, tc := range []struct {
		sql    string
		params []*string
		want   string
		code   string
	}{
		{sql: "SELECT $1::regclass", params: []*string{str("pg_class")}, want: "pg_class"},
		{sql: "SELECT $1::regclass::oid", params: []*string{str("pg_namespace")}, want: "2615"},
		{sql: "SELECT relname FROM pg_class WHERE oid = $1::regclass", params: []*string{str("pg_attribute")}, want: "pg_attribute"},
		{sql: "SELECT $1::regtype", params: []*string{str("int4[]")}, want: "integer[]"},
		{sql: "SELECT $1::regclass", params: []*string{str("nosuch")}, code: pgerr.UndefinedTable},
		{sql: "SELECT $1::regclass", params: []*string{nil}, want: "NULL"},
	} {
		stmts, err := s.Prepare(ctx, tc.sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		st := stmts[0]
		if pt := st.ParamTypes(); len(pt) != 1 || pt[0] != pgtypes.Text {
			t.Errorf("%s: parameter types %v, want [text]", tc.sql, pt)
		}
		got, err := firstValue(ctx, st, tc.params)
		if tc.code != "" {
			if pgerr.Code(err) != tc.code {
				t.Errorf("%s: error %v, want SQLSTATE %s", tc.sql, err, tc.code)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.sql, got, err, tc.want)
		}
	}
}

// firstValue executes st and renders the first column of its first row.
func firstValue(ctx context.Context, st Statement, params []*string) (string, error) {
	rows, err := st.Execute(ctx, params)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	b, err := rows.Next(ctx)
	if err != nil || b == nil || b.NumRows() == 0 {
		return "", err
	}
	return valueText(b.Column(0), 0), nil
}

// TestRegclassOfIndexes: a primary key's index OID (pg_index.indexrelid)
// prints as the index's name, and its name reads back as that OID, as
// SQLAlchemy's and pgJDBC's index queries expect; the constraint's OID is
// no relation and prints as its number, as in PostgreSQL.
func TestRegclassOfIndexes(t *testing.T) {
	s, _, _ := newWriteSession(t)
	ctx := context.Background()
	for _, sql := range []string{
		"CREATE TABLE public.lines (order_id bigint NOT NULL, line int NOT NULL, qty int)",
		"ALTER TABLE public.lines SET IDENTIFIER FIELDS order_id, line",
	} {
		if _, err := execAll(s, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	for _, tc := range []struct{ sql, want string }{
		{"SELECT i.indexrelid::regclass FROM pg_index i WHERE i.indrelid = 'public.lines'::regclass", "lines_pkey"},
		{"SELECT i.indexrelid::regclass::text = c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'lines'::regclass", "true"},
		{"SELECT 'lines_pkey'::regclass = (SELECT indexrelid FROM pg_index WHERE indrelid = 'lines'::regclass)", "true"},
		{"SELECT 'public.lines_pkey'::regclass::oid = (SELECT conindid FROM pg_constraint WHERE conname = 'lines_pkey')", "true"},
		{"SELECT c.oid::regclass::text = c.oid::text FROM pg_constraint c WHERE c.conname = 'lines_pkey'", "true"},
	} {
		stmts, err := s.Prepare(ctx, tc.sql, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		got, err := firstValue(ctx, stmts[0], nil)
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.sql, got, err, tc.want)
		}
	}
}
