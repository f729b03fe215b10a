package copyexec

import (
	"fmt"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestCopyOptions checks option defaults and checks, in both syntaxes.
func TestCopyOptions(t *testing.T) {
	cols := []string{"a", "b"}
	cases := []struct {
		sql  string
		want string // fmt of the options, or the SQLSTATE
	}{
		{"COPY t FROM STDIN", `{text 9 \N 0 0 false [] [] []}`},
		{"COPY t FROM STDIN CSV HEADER", `{csv 44  34 34 true [] [] []}`},
		{"COPY t FROM STDIN WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL 'NA', QUOTE '''', ESCAPE '\\')", `{csv 59 NA 39 92 true [] [] []}`},
		{"COPY t FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL (b), FORCE_NULL (a))", `{csv 44  34 34 false [] [1] [0]}`},
		{"COPY t TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)", `{csv 44  34 34 false [0 1] [] []}`},
		{"COPY t TO STDOUT (FORMAT csv, FORCE_QUOTE (b))", `{csv 44  34 34 false [1] [] []}`},
		{"COPY t FROM STDIN DELIMITER '|' NULL ''", `{text 124  0 0 false [] [] []}`},
		{"COPY t FROM STDIN WITH (FORMAT csv, FORCE_QUOTE (a))", pgerr.FeatureNotSupported},
		{"COPY t FROM STDIN WITH (FORMAT csv, FORCE_NULL (zz))", pgerr.InvalidColumnReference},
		{"COPY t FROM STDIN WITH (FORMAT 'xml')", pgerr.InvalidParameterValue},
		{"COPY t FROM STDIN WITH (FORMAT binary)", "{binary 0  0 0 false [] [] []}"},
		{"COPY t FROM STDIN BINARY", "{binary 0  0 0 false [] [] []}"},
		{"COPY t FROM STDIN WITH (FORMAT binary, HEADER)", pgerr.SyntaxError},
		{"COPY t FROM STDIN WITH (FORMAT csv, FORMAT text)", pgerr.SyntaxError},
		{"COPY t FROM STDIN WITH (ESCAPE 'x')", pgerr.FeatureNotSupported},
		{"COPY t FROM STDIN WITH (FORMAT csv, DELIMITER '\"')", pgerr.FeatureNotSupported},
		{"COPY t FROM STDIN WITH (DELIMITER 'a')", pgerr.InvalidParameterValue},
	}
	for _, c := range cases {
		tree, err := pg.Parse(c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		cs := tree.Stmts[0].Stmt.GetCopyStmt()
		o, err := ParseOptions(cs.Options, cols, cs.IsFrom)
		got := ""
		if err != nil {
			got = pgerr.Code(err)
		} else {
			got = fmtOptions(o)
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.sql, got, c.want)
		}
	}
}

func fmtOptions(o Options) string {
	return fmt.Sprintf("{%s %d %s %d %d %v %v %v %v}", o.Format, o.Delimiter, o.Null, o.Quote, o.Escape, o.Header, o.ForceQuote, o.ForceNotNull, o.ForceNull)
}
