package hints

import (
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// TestScanHints checks which name each hint is kept by, the options it
// holds and the time-travel clause it makes.
func TestScanHints(t *testing.T) {
	cases := []struct {
		sql     string
		at      int32  // offset of the hinted name
		options string // key=value of one option
		asOf    string // the time-travel clause's value ("" none)
		code    string
	}{
		{sql: `SELECT * FROM "My T" /*+ OPTIONS('lookback' = '7') */`, at: 14, options: "lookback=7"},
		{sql: `SELECT * FROM a.b.c /*+ OPTIONS('snapshot-id'='5') */ x`, at: 14, options: "snapshot-id=5", asOf: "5"},
		{sql: `SELECT * FROM iceberg.options('t') /*+ OPTIONS('split_size'='9') */`, at: 14, options: "split-size=9"},
		{sql: `SELECT * FROM t /*+ OPTIONS('as-of-timestamp'=1700000000123) */`, at: 14, options: "as-of-timestamp=1700000000123",
			asOf: "timestamptz '2023-11-14 22:13:20.123+00:00'"},
		{sql: `SELECT * FROM t /*+ OPTIONS('snapshot-property.user'='alice') */`, at: 14, options: "snapshot-property.user=alice"},
		{sql: `SELECT * FROM t /*+ OPTIONS('batch-size'='0') */`, code: pgerr.InvalidParameterValue},
		{sql: `SELECT * FROM t /*+ OPTIONS() */`, code: pgerr.SyntaxError},
		{sql: `SELECT * FROM t /*+ OPTIONS('lookback'='1',) */`, code: pgerr.SyntaxError},
		{sql: `SELECT * FROM t /*+ OPTIONS('lookback'='1') x */`, code: pgerr.SyntaxError},
		{sql: `SELECT * FROM t /* OPTIONS('nope'='1') */`},
	}
	for _, c := range cases {
		var asOf map[int32]*parse.AsOfClause
		hints, err := parse.ScanHints(c.sql)
		if err == nil {
			stmts := []parse.Stmt{{SQL: c.sql, Hints: hints}}
			err = Check(stmts)
			asOf = stmts[0].AsOf
		}
		if c.code != "" {
			if pe := pgerr.As(err); pe == nil || pe.Code != c.code {
				t.Errorf("%s: err %v, want %s", c.sql, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if c.options == "" {
			if len(hints) != 0 {
				t.Errorf("%s: found hints %v", c.sql, hints)
			}
			continue
		}
		h := hints[c.at]
		if h == nil {
			t.Errorf("%s: no hint at %d (%v)", c.sql, c.at, hints)
			continue
		}
		if len(h.Keys) != 1 || h.Keys[0]+"="+h.Options[h.Keys[0]] != c.options {
			t.Errorf("%s: options %v, want %s", c.sql, h.Options, c.options)
		}
		cl := asOf[c.at]
		switch {
		case c.asOf == "" && cl != nil:
			t.Errorf("%s: unexpected time travel %+v", c.sql, cl)
		case c.asOf != "" && (cl == nil || cl.Value != c.asOf):
			t.Errorf("%s: time travel %+v, want %q", c.sql, cl, c.asOf)
		}
	}
}
