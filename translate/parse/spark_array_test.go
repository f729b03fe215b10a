package parse

import "testing"

// TestRewriteSparkArray: Spark's array(...) is ARRAY[...], keeping every
// offset; subqueries and PostgreSQL's own forms are left alone.
func TestRewriteSparkArray(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT array(1, 2, 3)", "SELECT array[1, 2, 3]"},
		{"SELECT ARRAY (array(1), array(2))", "SELECT ARRAY [array[1], array[2]]"},
		{"SELECT array(f(1, 2), 'x)')", "SELECT array[f(1, 2), 'x)']"},
		{"INSERT INTO t VALUES (array())", "INSERT INTO t VALUES ('{}'   )"},
		{"SELECT current_date(), current_timestamp(), current_timestamp(3)", "SELECT current_date  , current_timestamp  , current_timestamp(3)"},
		// Left alone.
		{"SELECT ARRAY(SELECT 1)", "SELECT ARRAY(SELECT 1)"},
		{"SELECT ARRAY((SELECT 1))", "SELECT ARRAY((SELECT 1))"},
		{"SELECT array_agg(x), ARRAY[1]", "SELECT array_agg(x), ARRAY[1]"},
		{"SELECT 'array(1)'", "SELECT 'array(1)'"},
	} {
		got := RewriteSparkArray(tc.in)
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if len(got) != len(tc.in) {
			t.Errorf("%s: length %d, want %d", tc.in, len(got), len(tc.in))
		}
	}
}
