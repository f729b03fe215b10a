package parse

import (
	"regexp"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Spark's INSERT forms: INSERT OVERWRITE [TABLE] t [PARTITION (...)]
// query and INSERT INTO TABLE t [PARTITION (...)] query. The dialect pass
// writes INTO over OVERWRITE, blanks TABLE and the PARTITION clause, and
// keeps what they said in DDLExtras.Insert; translate/insert_overwrite.go
// runs the statement.

// SparkInsert is what the dialect pass took out of an INSERT.
type SparkInsert struct {
	Overwrite    bool
	HasPartition bool
	Partition    []PartitionValue
}

// PartitionValue is one item of PARTITION (...): a static column = value,
// or a bare column whose values come from the query (dynamic).
type PartitionValue struct {
	Column string
	Loc    int // byte offset of the column name
	// Value is the text of the value as written ("" for a dynamic
	// column), ValueLoc its byte offset.
	Value    string
	ValueLoc int
}

// sparkInsertWords finds the statements the pass may change: OVERWRITE,
// PARTITION, or INTO TABLE.
var sparkInsertWords = regexp.MustCompile(`(?i)overwrite|partition|into\s+table`)

func mayHaveSparkInsert(sql string) bool {
	return len(sql) > 11 && sparkInsertWords.MatchString(sql)
}

// rewriteInsert rewrites one INSERT statement (r.toks[0] is INSERT).
func (r *DialectRewriter) rewriteInsert() (bool, error) {
	t := r.toks
	if len(t) < 4 {
		return false, nil
	}
	x := &SparkInsert{}
	i := 1
	switch r.low(1) {
	case "overwrite":
		x.Overwrite = true
		r.blank(t[1].Start, t[1].End)
		copy(r.out[t[1].Start:], "INTO")
	case "into":
	default:
		return false, nil
	}
	i++
	changed := x.Overwrite
	if r.low(i) == "table" {
		r.blank(t[i].Start, t[i].End)
		changed = true
		i++
	}
	// the table name: ident (. ident)*
	if i >= len(t) || !IsWordTok(t[i]) {
		return false, nil
	}
	i++
	for i+1 < len(t) && t[i].Tok == pg.Token_ASCII_46 && IsWordTok(t[i+1]) {
		i += 2
	}
	if r.low(i) == "partition" && i+1 < len(t) && t[i+1].Tok == pg.Token_ASCII_40 {
		close := MatchParen(t, i+1)
		if close < 0 {
			return false, nil
		}
		items, err := r.partitionValues(t[i+2 : close])
		if err != nil {
			return false, err
		}
		x.HasPartition, x.Partition = true, items
		r.blank(t[i].Start, t[close].End)
		changed = true
	}
	if !changed {
		return false, nil
	}
	r.X.Insert = x
	r.X.Spark = true
	return true, nil
}

// partitionValues reads col = value, col, ... of PARTITION (...).
func (r *DialectRewriter) partitionValues(t []DialectTok) ([]PartitionValue, error) {
	var out []PartitionValue
	bad := func(tk DialectTok, what string) error {
		return pgerr.New(pgerr.SyntaxError, "syntax error in PARTITION: expected %s", what).WithPosition(CharPos(r.SQL, int32(tk.Start)))
	}
	for k := 0; k < len(t); {
		if !IsWordTok(t[k]) {
			return nil, bad(t[k], "a column name")
		}
		pv := PartitionValue{Column: IdentText(t[k].Text), Loc: t[k].Start}
		k++
		if k < len(t) && t[k].Tok == pg.Token_ASCII_61 {
			k++
			e := k
			depth := 0
			for e < len(t) && !(depth == 0 && t[e].Tok == pg.Token_ASCII_44) {
				switch t[e].Tok {
				case pg.Token_ASCII_40:
					depth++
				case pg.Token_ASCII_41:
					depth--
				}
				e++
			}
			if e == k {
				if k < len(t) {
					return nil, bad(t[k], "a value")
				}
				return nil, bad(t[k-1], "a value")
			}
			pv.Value, pv.ValueLoc = r.SQL[t[k].Start:t[e-1].End], t[k].Start
			k = e
		}
		for _, o := range out {
			if o.Column == pv.Column {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" named more than once in PARTITION", pv.Column).WithPosition(CharPos(r.SQL, int32(pv.Loc)))
			}
		}
		out = append(out, pv)
		if k < len(t) {
			if t[k].Tok != pg.Token_ASCII_44 {
				return nil, bad(t[k], "\",\"")
			}
			k++
			if k == len(t) {
				return nil, bad(t[k-1], "a column name")
			}
		}
	}
	if len(out) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in PARTITION: expected a column name")
	}
	return out, nil
}
