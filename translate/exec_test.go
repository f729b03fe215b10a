package translate

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// TestExec runs testdata/exec/*.txt end to end over the fixtures: "query"
// prepares and executes the SQL, reads every batch and prints the column
// header and the rows (tab-separated; "rowsort" sorts them), or the error.
func TestExec(t *testing.T) {
	files, err := filepath.Glob("testdata/exec/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := newTestSession(t)
			datadriven.Run(t, f, *rewrite, func(t *testing.T, c *datadriven.Case) string {
				switch c.Directive {
				case "query":
					return queryOutput(t, s, c)
				case "statement":
					if _, err := execAll(s, c.Input); err != nil {
						return errorText(err)
					}
					return "ok"
				}
				t.Fatalf("%s: unknown directive %q", c.Pos, c.Directive)
				return ""
			})
		})
	}
}

func queryOutput(t *testing.T, s *session, c *datadriven.Case) string {
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, c.Input, nil)
	if err != nil {
		return errorText(err)
	}
	var out []string
	for _, st := range stmts {
		cols := st.Columns()
		var header []string
		for _, col := range cols {
			header = append(header, fmt.Sprintf("%s:%s", col.Name, plan.Type{OID: col.TypeOID, Typmod: col.Typmod}))
		}
		rows, err := st.Execute(ctx, nil)
		if err != nil {
			out = append(out, errorText(err))
			continue
		}
		var lines []string
		var n int64
		for {
			b, err := rows.Next(ctx)
			if err != nil {
				lines = append(lines, errorText(err))
				break
			}
			if b == nil {
				break
			}
			if int(b.NumCols()) != len(cols) {
				t.Errorf("%s: batch has %d columns, statement says %d", c.Pos, b.NumCols(), len(cols))
			}
			checkWireTypes(t, c.Pos, cols, b)
			for i := 0; i < int(b.NumRows()); i++ {
				vals := make([]string, b.NumCols())
				for j := range vals {
					vals[j] = valueText(b.Column(j), i)
				}
				if len(vals) == 0 {
					lines = append(lines, "()") // a row without columns
					continue
				}
				lines = append(lines, strings.Join(vals, "\t"))
			}
			n += b.NumRows()
		}
		tag := rows.Tag(n)
		if err := rows.Close(); err != nil {
			t.Errorf("%s: close: %v", c.Pos, err)
		}
		for _, a := range c.Args {
			if a == "rowsort" {
				sort.Strings(lines)
			}
		}
		if len(header) > 0 {
			out = append(out, strings.Join(header, "\t"))
		}
		out = append(out, lines...)
		out = append(out, tag)
	}
	return strings.Join(out, "\n")
}

// valueText renders one value for test output.
func valueText(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	switch a := a.(type) {
	case *array.Decimal128:
		return string(expr.FormatNumeric(a, i, nil))
	case array.ExtensionArray:
		if expr.IsNumericType(a.DataType()) {
			return string(expr.FormatNumeric(a, i, nil))
		}
	case *array.FixedSizeBinary:
		return fmt.Sprintf("%x", a.Value(i))
	case *array.Binary:
		return fmt.Sprintf("\\x%x", a.Value(i))
	}
	return a.ValueStr(i)
}

// checkWireTypes checks that each column's Arrow type is one wire encodes
// for the column's OID.
func checkWireTypes(t *testing.T, pos string, cols []pgtypes.Column, b arrow.RecordBatch) {
	for j, col := range cols {
		if j >= int(b.NumCols()) {
			return
		}
		want := plan.ArrowOf(plan.Type{OID: col.TypeOID, Typmod: col.Typmod})
		got := b.Column(j).DataType()
		if pgtypes.IsRegType(col.TypeOID) && arrow.TypeEqual(got, arrow.BinaryTypes.String) {
			continue // the objects' names (regOutput)
		}
		if !wireCompatible(want, got) {
			t.Errorf("%s: column %s: OID %d with Arrow type %s", pos, col.Name, col.TypeOID, got)
		}
	}
}

// wireCompatible reports whether Arrow type got may carry values of the
// PostgreSQL type whose computed Arrow type is want (section 6 of the
// wire mapping).
func wireCompatible(want, got arrow.DataType) bool {
	if arrow.TypeEqual(want, got) {
		return true
	}
	switch w := want.(type) {
	case *arrow.Int16Type:
		// A smallint column read from a table is carried as the Iceberg
		// int it is stored as (plan.PGTypesProperty).
		return got.ID() == arrow.INT32
	case *arrow.Decimal128Type:
		_, ok := got.(*arrow.Decimal128Type)
		return ok || expr.IsNumericType(got)
	case *arrow.TimestampType:
		g, ok := got.(*arrow.TimestampType)
		return ok && (g.TimeZone == "") == (w.TimeZone == "")
	case *arrow.BinaryType:
		_, ok := got.(*arrow.FixedSizeBinaryType)
		return ok
	case *arrow.StringType:
		switch got.(type) {
		case *arrow.StructType, *arrow.ListType, *arrow.MapType, *arrow.DictionaryType:
			return true
		}
	case *arrow.ListType:
		_, ok := got.(*arrow.ListType)
		return ok
	}
	if expr.IsNumericType(want) {
		_, ok := got.(*arrow.Decimal128Type)
		return ok || expr.IsNumericType(got)
	}
	return false
}
