package wire

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// COPY statements of the test backend:
//
//	copy t from stdin [OPTION...]   columns a int4, b text, c text; the rows
//	                                are kept in the backend (copiedRows)
//	copy types to stdout [OPTION...]  the rows of "select types"
//	copy strs to stdout [OPTION...]   id int8, s text with awkward strings
//	copy numbers N B to stdout      int8 1..N in batches of B
//
// Options are words: csv, binary, header, delim=X, null=X (null= is ""),
// quote=X, escape=X, fq=K, fnn=K, fn=K (K: column index), stop=N (CopyIn
// stops after N rows), fail (CopyIn fails at the first row).

// copyLog collects what COPY FROM statements received.
type copyLog struct {
	mu   sync.Mutex
	rows []string // each row as a|b|c, NULL as <null>
}

func (l *copyLog) add(row []*string) {
	parts := make([]string, len(row))
	for k, v := range row {
		if v == nil {
			parts[k] = "<null>"
		} else {
			parts[k] = *v
		}
	}
	l.mu.Lock()
	l.rows = append(l.rows, strings.Join(parts, "|"))
	l.mu.Unlock()
}

func (l *copyLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.rows
	l.rows = nil
	return out
}

var copyTColumns = []pgtypes.Column{
	{Name: "a", TypeOID: pgtypes.Int4, Typmod: -1},
	{Name: "b", TypeOID: pgtypes.Text, Typmod: -1},
	{Name: "c", TypeOID: pgtypes.Text, Typmod: -1},
}

var copyStrsColumns = []pgtypes.Column{
	{Name: "id", TypeOID: pgtypes.Int8, Typmod: -1},
	{Name: "s", TypeOID: pgtypes.Text, Typmod: -1},
}

// copyStrs are the values of "copy strs to stdout".
var copyStrs = []*string{
	ptr("plain"), ptr("tab\there"), ptr("nl\nand\rcr"), ptr(`back\slash`), ptr(`\N`), ptr(""), nil,
	ptr(`say "hi", ok`), ptr(`\.`), ptr("bell\x07"), ptr("héllo"),
}

func ptr(s string) *string { return &s }

// copyTestOptions reads the option words of a test COPY statement.
func copyTestOptions(words []string) (translate.CopyOptions, map[string]int) {
	opts := translate.CopyOptions{Format: "text", Delimiter: '\t', Null: `\N`}
	ints := map[string]int{}
	for _, w := range words {
		if w == "csv" {
			opts = translate.CopyOptions{Format: "csv", Delimiter: ',', Null: "", Quote: '"', Escape: '"', Header: opts.Header}
		}
	}
	for _, w := range words {
		key, val, hasVal := strings.Cut(w, "=")
		switch {
		case w == "binary":
			opts.Format = "binary"
		case w == "header":
			opts.Header = true
		case key == "delim" && hasVal:
			opts.Delimiter = val[0]
		case key == "null" && hasVal:
			opts.Null = val
		case key == "quote" && hasVal:
			opts.Quote = val[0]
		case key == "escape" && hasVal:
			opts.Escape = val[0]
		case key == "fq" || key == "fnn" || key == "fn" || key == "stop":
			n, _ := strconv.Atoi(val)
			switch key {
			case "fq":
				opts.ForceQuote = append(opts.ForceQuote, n)
			case "fnn":
				opts.ForceNotNull = append(opts.ForceNotNull, n)
			case "fn":
				opts.ForceNull = append(opts.ForceNull, n)
			default:
				ints[key] = n
			}
		case w == "fail":
			ints["fail"] = 1
		}
	}
	return opts, ints
}

// prepareCopy makes the statement of a test COPY. Quotes, parentheses and
// commas are dropped, so lib/pq's COPY "t" ("a", "b", "c") FROM STDIN and
// psql's \copy work.
func (s *testSession) prepareCopy(words []string) (translate.Statement, error) {
	var w []string
	for _, word := range words {
		if word = strings.Trim(word, `"(),`); word != "" {
			w = append(w, word)
		}
	}
	dir := slices.IndexFunc(w, func(x string) bool { return x == "from" || x == "to" })
	if len(w) < 2 || dir < 0 || dir+1 >= len(w) {
		return nil, pgerr.New(pgerr.SyntaxError, "unknown test COPY statement %q", strings.Join(words, " "))
	}
	opts, ints := copyTestOptions(w[dir+2:])
	switch {
	case w[1] == "t" && w[dir] == "from" && w[dir+1] == "stdin":
		return &copyFromTestStmt{log: &s.b.copied, opts: opts, ints: ints}, nil
	case w[dir] == "to" && w[dir+1] == "stdout" && (w[1] == "types" || w[1] == "strs"):
		return &copyToTestStmt{what: w[1], opts: opts}, nil
	case w[dir] == "to" && w[1] == "numbers" && dir == 4:
		n, _ := strconv.Atoi(w[2])
		per, _ := strconv.Atoi(w[3])
		return &copyToTestStmt{what: "numbers", n: n, per: per, opts: opts}, nil
	}
	return nil, pgerr.New(pgerr.SyntaxError, "unknown test COPY statement %q", strings.Join(words, " "))
}

type copyFromTestStmt struct {
	log  *copyLog
	opts translate.CopyOptions
	ints map[string]int
}

func (st *copyFromTestStmt) ParamTypes() []uint32           { return []uint32{} }
func (st *copyFromTestStmt) Columns() []pgtypes.Column      { return copyTColumns }
func (st *copyFromTestStmt) Options() translate.CopyOptions { return st.opts }
func (st *copyFromTestStmt) Execute(context.Context, []*string) (translate.Rows, error) {
	return nil, pgerr.New(pgerr.InternalError, "COPY FROM executed as a query")
}

// CopyIn checks column a is an integer, as a real table would, and keeps
// every row; nothing is kept when any row fails.
func (st *copyFromTestStmt) CopyIn(ctx context.Context, src translate.CopySource) (string, error) {
	var got [][]*string
	stop, hasStop := st.ints["stop"]
	for {
		rows, err := src.Next(ctx)
		if err != nil {
			return "", fmt.Errorf("copy into t: %w", err)
		}
		if rows == nil {
			break
		}
		for i, row := range rows {
			if st.ints["fail"] == 1 {
				return "", pgerr.New("53100", "no space left on device")
			}
			if a := row[0]; a != nil {
				if _, err := strconv.ParseInt(*a, 10, 32); err != nil {
					return "", pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type integer: %q", *a).
						WithDetail("COPY t, line %d, column a: %q", src.LineOf(i), *a)
				}
			}
			got = append(got, row)
			if hasStop && len(got) == stop {
				break
			}
		}
		if hasStop && len(got) >= stop {
			break
		}
	}
	for _, row := range got {
		st.log.add(row)
	}
	return "COPY " + strconv.Itoa(len(got)), nil
}

type copyToTestStmt struct {
	what   string
	n, per int
	opts   translate.CopyOptions
}

func (st *copyToTestStmt) ParamTypes() []uint32           { return []uint32{} }
func (st *copyToTestStmt) Options() translate.CopyOptions { return st.opts }

func (st *copyToTestStmt) Columns() []pgtypes.Column {
	switch st.what {
	case "types":
		return typesColumns
	case "strs":
		return copyStrsColumns
	}
	return []pgtypes.Column{{Name: "n", TypeOID: pgtypes.Int8, Typmod: -1}}
}

func (st *copyToTestStmt) Execute(ctx context.Context, _ []*string) (translate.Rows, error) {
	switch st.what {
	case "types":
		return &batchRows{batches: []arrow.RecordBatch{typesBatch()}, tag: "SELECT"}, nil
	case "strs":
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		ss := array.NewStringBuilder(memory.DefaultAllocator)
		for k, v := range copyStrs {
			ids.Append(int64(k + 1))
			if v == nil {
				ss.AppendNull()
			} else {
				ss.Append(*v)
			}
		}
		schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
		b := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), ss.NewArray()}, int64(len(copyStrs)))
		return &batchRows{batches: []arrow.RecordBatch{b}, tag: "SELECT"}, nil
	}
	return &batchRows{batches: numberBatches(st.n, st.per), tag: "SELECT"}, nil
}

var (
	_ translate.CopyFromStatement = (*copyFromTestStmt)(nil)
	_ translate.CopyToStatement   = (*copyToTestStmt)(nil)
)
