package procedure

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// testProc has one parameter of each type.
var testProc = &Procedure{Name: "p", Params: []Param{
	{Name: "table", Type: String, Required: true},
	{Name: "n", Type: Long},
	{Name: "i", Type: Int, Default: int64(7)},
	{Name: "b", Type: Bool, Default: false},
	{Name: "ts", Type: Timestamp},
	{Name: "m", Type: Map},
	{Name: "ids", Type: LongList},
	{Name: "names", Type: StringList},
}}

// callArgs parses CALL system.p(<args>) and returns its argument nodes.
// (Spark's array(1, 2) reaches Bind as ARRAY[1, 2]: the dialect pass of
// translate/parse rewrites it, as PostgreSQL's grammar reserves ARRAY.)
func callArgs(t *testing.T, args string) []*pg.Node {
	t.Helper()
	res, err := pg.Parse("CALL system.p(" + args + ")")
	if err != nil {
		t.Fatalf("parse %s: %v", args, err)
	}
	return res.Stmts[0].Stmt.GetCallStmt().GetFunccall().Args
}

// echoEval stands in for the session's evaluator: it returns the
// expression text it was given, so the tests see what reaches it.
func echoEval(_ context.Context, expr string, t ArgType) (any, error) {
	return t.String() + ":" + expr, nil
}

func TestBind(t *testing.T) {
	cases := []struct {
		args string
		want Args
	}{
		{"'db.t'", Args{"table": "db.t", "i": int64(7), "b": false}},
		{"'t', 5, 6, true", Args{"table": "t", "n": int64(5), "i": int64(6), "b": true}},
		{"'t', n => 9000000000", Args{"table": "t", "n": int64(9000000000), "i": int64(7), "b": false}},
		{"\"TABLE\" => 't', \"B\" => 'yes', n => '-3'", Args{"table": "t", "n": int64(-3), "i": int64(7), "b": true}},
		{"'t', NULL, NULL", Args{"table": "t", "i": int64(7), "b": false}},
		{"'t', m => map('a', 'x', 'b', 10)", Args{"table": "t", "i": int64(7), "b": false, "m": map[string]string{"a": "x", "b": "10"}}},
		{"'t', ids => ARRAY[1, 2], names => ARRAY['x', 'y']", Args{"table": "t", "i": int64(7), "b": false, "ids": []int64{1, 2}, "names": []string{"x", "y"}}},
		{"'t', ids => ARRAY[]::bigint[]", nil}, // a cast array is not a list literal: error below
		{"'t', ts => '2024-01-01'", Args{"table": "t", "i": int64(7), "b": false, "ts": "timestamp with time zone:'2024-01-01'"}},
		{"'t', ts => now() - interval '1 day'", Args{"table": "t", "i": int64(7), "b": false, "ts": "timestamp with time zone:now() - '1 day'::interval"}},
		{"'t', n => 2 * 3", Args{"table": "t", "i": int64(7), "b": false, "n": "bigint:2 * 3"}},
	}
	for _, c := range cases {
		got, err := Bind(context.Background(), testProc, "system.p", callArgs(t, c.args), echoEval)
		if c.want == nil {
			if err == nil {
				t.Errorf("%s: %v, want an error", c.args, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.args, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.args, got, c.want)
		}
	}
}

func TestBindErrors(t *testing.T) {
	cases := []struct {
		args, code, msg string
	}{
		{"", pgerr.UndefinedFunction, "needs argument table"},
		{"NULL", pgerr.NullValueNotAllowed, "must not be null"},
		{"'t', nope => 1", pgerr.UndefinedFunction, `procedure system.p has no parameter named "nope"`},
		{"'t', 1, 2, true, '2024-01-01', map(), ARRAY[], ARRAY[], 9", pgerr.UndefinedFunction, "at most 8 arguments"},
		{"\"table\" => 't', 5", pgerr.SyntaxError, "positional argument cannot follow named argument"},
		{"'t', \"table\" => 'u'", pgerr.SyntaxError, `"table" of procedure system.p given more than once`},
		{"'t', n => 'x'", pgerr.InvalidTextRepresentation, `invalid input syntax for type bigint: "x"`},
		{"'t', n => 1.5", pgerr.DatatypeMismatch, "numeric where bigint is expected"},
		{"'t', n => 99999999999999999999", pgerr.NumericValueOutOfRange, "out of range for type bigint"},
		{"'t', i => 3000000000", pgerr.NumericValueOutOfRange, "out of range for type integer"},
		{"'t', b => 'maybe'", pgerr.InvalidTextRepresentation, "type boolean"},
		{"'t', b => 1", pgerr.DatatypeMismatch, "integer where boolean is expected"},
		{"5", pgerr.DatatypeMismatch, "integer where text is expected"},
		{"db.t", pgerr.UndefinedColumn, "column db.t does not exist"},
		{"'t', ts => 5", pgerr.DatatypeMismatch, "integer where timestamp with time zone is expected"},
		{"'t', m => map('a')", pgerr.InvalidParameterValue, "even number"},
		{"'t', m => 'a=b'", pgerr.DatatypeMismatch, "must be a map"},
		{"'t', m => map('a', 'x', 'a', 'y')", pgerr.InvalidParameterValue, "duplicate map key"},
		{"'t', ids => 5", pgerr.DatatypeMismatch, "must be a list"},
		{"'t', ids => ARRAY['x']", pgerr.InvalidTextRepresentation, "type bigint"},
		{"'t', ids => ARRAY[1, NULL]", pgerr.NullValueNotAllowed, "must not be null"},
		{"'t', n => $1", pgerr.FeatureNotSupported, "parameters"},
	}
	for _, c := range cases {
		_, err := Bind(context.Background(), testProc, "system.p", callArgs(t, c.args), echoEval)
		if pgerr.Code(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v (%s), want %s %q", c.args, err, pgerr.Code(err), c.code, c.msg)
		}
	}
}

// TestBindErrorNamesArgument: a conversion error says which argument.
func TestBindErrorNamesArgument(t *testing.T) {
	_, err := Bind(context.Background(), testProc, "system.p", callArgs(t, "'t', i => 'x'"), echoEval)
	if pe := pgerr.As(err); pe == nil || pe.Detail != "In argument i of procedure system.p." {
		t.Errorf("%v: detail %q", err, pe.Detail)
	}
}

func TestArgsGetters(t *testing.T) {
	now := time.Now()
	a := Args{"s": "x", "n": int64(3), "b": true, "t": now}
	if v, ok := a.String("s"); !ok || v != "x" {
		t.Errorf("String: %v %v", v, ok)
	}
	if _, ok := a.String("n"); ok {
		t.Error("String of a Long argument")
	}
	if v, ok := a.Long("n"); !ok || v != 3 {
		t.Errorf("Long: %v %v", v, ok)
	}
	if v, ok := a.Bool("b"); !ok || !v {
		t.Errorf("Bool: %v %v", v, ok)
	}
	if v, ok := a.Time("t"); !ok || !v.Equal(now) {
		t.Errorf("Time: %v %v", v, ok)
	}
	if _, ok := a.Map("missing"); ok {
		t.Error("Map of an absent argument")
	}
}

// TestBuiltinsUnique: procedure names are unique and their parameters
// well formed (required ones first, defaults of the parameter's Go type).
func TestBuiltinsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Builtins() {
		if seen[p.Name] {
			t.Errorf("procedure %s registered twice", p.Name)
		}
		seen[p.Name] = true
		if p.Run == nil || len(p.Columns) == 0 {
			t.Errorf("%s: no Run or no result columns", p.Name)
		}
		params := map[string]bool{}
		for _, q := range p.Params {
			if params[q.Name] {
				t.Errorf("%s: parameter %s twice", p.Name, q.Name)
			}
			params[q.Name] = true
			if q.Required && q.Default != nil {
				t.Errorf("%s.%s: required with a default", p.Name, q.Name)
			}
		}
		if got, ok := Lookup(p.Name); !ok || got.Name != p.Name {
			t.Errorf("Lookup(%s) = %v, %v", p.Name, got, ok)
		}
	}
}
