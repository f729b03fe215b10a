package translate

import (
	"context"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestPreparedOptimizedPlan executes prepared queries whose template is
// optimized once per snapshot and settings, across changes made by the
// same session, by another session of the same server and by another
// server over the same warehouse (its own catalog and caches): each step
// runs SQL in one of them (or nothing), then executes the statement and
// checks its rows and how many times the template has been optimized.
func TestPreparedOptimizedPlan(t *testing.T) {
	type step struct {
		who       string // "self", "peer" (same server), "other" (another server)
		sql       string // run before the execution ("" none)
		params    []*string
		want      string // rows joined by "|", or "error CODE"
		optimizes int    // -1: not checked
	}
	setup := []string{
		"CREATE SCHEMA a",
		"CREATE TABLE a.t (id bigint, v text)", "INSERT INTO a.t VALUES (1, 'a1'), (2, 'a2')",
		"CREATE TABLE a.d (d date)", "INSERT INTO a.d VALUES (DATE '2024-01-01'), (DATE '2024-01-02')",
	}
	tests := []struct {
		name  string
		query string
		types []uint32 // declared parameter types
		steps []step
	}{
		{"commits of other sessions", "SELECT v FROM a.t WHERE id = $1", nil, []step{
			{params: []*string{strp("1")}, want: "a1", optimizes: 1},
			{params: []*string{strp("2")}, want: "a2", optimizes: 1},
			{who: "peer", sql: "INSERT INTO a.t VALUES (3, 'a3')", params: []*string{strp("3")}, want: "a3", optimizes: 2},
			{params: []*string{strp("1")}, want: "a1", optimizes: 2},
			{who: "other", sql: "INSERT INTO a.t VALUES (4, 'a4')", params: []*string{strp("4")}, want: "a4", optimizes: 3},
			{who: "other", sql: "DELETE FROM a.t WHERE id = 1", params: []*string{strp("1")}, want: "", optimizes: 4},
			{who: "self", sql: "UPDATE a.t SET v = 'b2' WHERE id = 2", params: []*string{strp("2")}, want: "b2", optimizes: 5},
			{params: []*string{strp("3")}, want: "a3", optimizes: 5},
		}},
		{"ALTER TABLE by another server changes SELECT *", "SELECT * FROM a.t WHERE id = $1", nil, []step{
			{params: []*string{strp("1")}, want: "1\ta1", optimizes: 1},
			{who: "other", sql: "ALTER TABLE a.t ADD COLUMN w int", params: []*string{strp("1")}, want: "error " + pgerr.FeatureNotSupported, optimizes: -1},
			{params: []*string{strp("2")}, want: "error " + pgerr.FeatureNotSupported, optimizes: -1},
		}},
		{"ALTER TABLE by another session rebinds a column list", "SELECT id, v FROM a.t WHERE id >= $1 ORDER BY id", nil, []step{
			{params: []*string{strp("2")}, want: "2\ta2", optimizes: 1},
			{who: "peer", sql: "ALTER TABLE a.t ADD COLUMN w int", params: []*string{strp("2")}, want: "2\ta2", optimizes: 2},
			{params: []*string{strp("1")}, want: "1\ta1|2\ta2", optimizes: 2},
			{who: "peer", sql: "INSERT INTO a.t VALUES (5, 'a5', 7)", params: []*string{strp("2")}, want: "2\ta2|5\ta5", optimizes: 3},
			{who: "other", sql: "ALTER TABLE a.t RENAME COLUMN v TO v2", params: []*string{strp("1")}, want: "error " + pgerr.UndefinedColumn, optimizes: -1},
		}},
		{"values are folded at each Execute", "SELECT v FROM a.t WHERE id = $1 + 1", nil, []step{
			{params: []*string{strp("0")}, want: "a1", optimizes: 1},
			{params: []*string{strp("1")}, want: "a2", optimizes: 1},
			{params: []*string{nil}, want: "", optimizes: 1},
			{params: []*string{strp("9223372036854775807")}, want: "error " + pgerr.NumericValueOutOfRange, optimizes: 1},
			{params: []*string{strp("1")}, want: "a2", optimizes: 1},
		}},
		{"the same parameter twice and text", "SELECT id FROM a.t WHERE v = $1 OR v = $2 OR upper(v) = upper($1) ORDER BY id", nil, []step{
			{params: []*string{strp("a1"), strp("x")}, want: "1", optimizes: 1},
			{params: []*string{strp("A2"), strp("a1")}, want: "1|2", optimizes: 1},
			{params: []*string{nil, strp("a2")}, want: "2", optimizes: 1},
		}},
		{"a NULL test of a parameter", "SELECT v FROM a.t WHERE $1 IS NULL OR id = $1 ORDER BY v", []uint32{pgtypes.Int8}, []step{
			{params: []*string{nil}, want: "a1|a2", optimizes: 1},
			{params: []*string{strp("2")}, want: "a2", optimizes: 1},
			{params: []*string{nil}, want: "a1|a2", optimizes: 1},
		}},
		{"a date compared with a timestamp parameter", "SELECT count(*) FROM a.d WHERE d < $1", []uint32{pgtypes.Timestamp}, []step{
			{params: []*string{strp("2024-01-02 00:00:00")}, want: "1", optimizes: 1},
			{params: []*string{strp("2024-01-01 12:00:00")}, want: "1", optimizes: 1},
			{params: []*string{strp("2024-01-01 00:00:00")}, want: "0", optimizes: 1},
			{params: []*string{strp("2024-01-02 00:00:01")}, want: "2", optimizes: 1},
			{params: []*string{strp("infinity")}, want: "2", optimizes: 1},
		}},
		{"a parameter in a subquery", "SELECT v FROM a.t WHERE id = (SELECT max(id) FROM a.t WHERE id <= $1)", nil, []step{
			{params: []*string{strp("1")}, want: "a1", optimizes: 1},
			{params: []*string{strp("5")}, want: "a2", optimizes: 1},
			{params: []*string{strp("0")}, want: "", optimizes: 1},
		}},
		{"optimizer settings", "SELECT v FROM a.t WHERE id = $1", nil, []step{
			{params: []*string{strp("1")}, want: "a1", optimizes: 1},
			{who: "self", sql: "SET optimizer_disabled_passes = 'fold_constants,push_down'", params: []*string{strp("2")}, want: "a2", optimizes: 2},
			{params: []*string{strp("1")}, want: "a1", optimizes: 2},
			{who: "self", sql: "RESET optimizer_disabled_passes", params: []*string{strp("2")}, want: "a2", optimizes: 3},
			{who: "self", sql: "SET TimeZone = '+02'", params: []*string{strp("1")}, want: "a1", optimizes: 4},
			{params: []*string{strp("2")}, want: "a2", optimizes: 4},
			{who: "self", sql: "SET TimeZone = 'Europe/Paris'", params: []*string{strp("1")}, want: "a1", optimizes: 5},
			{params: []*string{strp("2")}, want: "a2", optimizes: 5},
		}},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, dir := newWriteSession(t)
			for _, q := range setup {
				run(t, s, q)
			}
			peer, err := s.backend.NewSession(ctx, StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				t.Fatal(err)
			}
			cat2, err := catalog.NewFilesystem("icegate", dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			other, err := NewBackend(cat2, Options{}).NewSession(ctx, StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				t.Fatal(err)
			}
			sessions := map[string]*session{"": s, "self": s, "peer": peer.(*session), "other": other.(*session)}
			stmts, err := s.Prepare(ctx, tc.query, tc.types)
			if err != nil {
				t.Fatalf("prepare: %v", err)
			}
			st := stmts[0].(*selectStatement)
			for i, stp := range tc.steps {
				if stp.sql != "" {
					run(t, sessions[stp.who], stp.sql)
				}
				got := strings.Join(execPrepared(t, st, stp.params...), "|")
				if got != stp.want {
					t.Fatalf("step %d (%s: %s): %q, want %q", i, stp.who, stp.sql, got, stp.want)
				}
				if stp.optimizes >= 0 && st.optimizes != stp.optimizes {
					t.Errorf("step %d (%s: %s): %d optimizations, want %d", i, stp.who, stp.sql, st.optimizes, stp.optimizes)
				}
			}
		})
	}
}
