package duckdbgo

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5/pgtype"
)

// Answer is a query's result in a form both engines' values reduce to:
// numbers as float64, dates as YYYY-MM-DD strings, text as strings, SQL
// NULL as nil.
type Answer struct {
	Columns []string
	Rows    [][]any
}

// pgValue reduces a value pgx decoded to Answer's form.
func pgValue(v any) (any, error) {
	switch v := v.(type) {
	case pgtype.Numeric:
		f, err := v.Float64Value()
		if err != nil {
			return nil, fmt.Errorf("numeric to float64: %w", err)
		}
		if !f.Valid {
			return nil, nil
		}
		return f.Float64, nil
	case time.Time:
		return v.Format(time.DateOnly), nil
	}
	return plainValue(v)
}

// duckValue reduces a value DuckDB's database/sql driver returned to
// Answer's form.
func duckValue(v any) (any, error) {
	switch v := v.(type) {
	case duckdb.Decimal:
		return v.Float64(), nil
	case *big.Int: // HUGEINT: sum of integers
		f, _ := new(big.Float).SetInt(v).Float64()
		return f, nil
	case time.Time:
		return v.Format(time.DateOnly), nil
	}
	return plainValue(v)
}

// plainValue reduces Go's built-in scalar types.
func plainValue(v any) (any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	case bool:
		return strconv.FormatBool(v), nil
	case int8:
		return float64(v), nil
	case int16:
		return float64(v), nil
	case int32:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case uint8:
		return float64(v), nil
	case uint16:
		return float64(v), nil
	case uint32:
		return float64(v), nil
	case uint64:
		return float64(v), nil
	case float32:
		return float64(v), nil
	case float64:
		return v, nil
	}
	return nil, fmt.Errorf("value %v of type %T: not a TPC-H result type", v, v)
}

// Compare returns "ok" when duck matches ice row by row, else where they
// first differ. The rules are bench/duckdb/tpch.mjs's: the row counts must
// agree, numbers may differ by 1e-9 relative plus 0.005 absolute (money
// rounds to cents), everything else must be equal.
func Compare(ice, duck Answer) string {
	return CompareWith(ice, duck, "DuckDB")
}

// CompareWith is Compare for the answer of the engine named other.
func CompareWith(ice, ans Answer, other string) string {
	if len(ice.Rows) != len(ans.Rows) {
		return fmt.Sprintf("icegate %d rows, %s %d", len(ice.Rows), other, len(ans.Rows))
	}
	for i := range ice.Rows {
		if len(ice.Rows[i]) != len(ans.Rows[i]) {
			return fmt.Sprintf("row %d: icegate %d columns, %s %d", i, len(ice.Rows[i]), other, len(ans.Rows[i]))
		}
		for j := range ice.Rows[i] {
			if !sameValue(ice.Rows[i][j], ans.Rows[i][j]) {
				name := strconv.Itoa(j)
				if j < len(ice.Columns) {
					name = ice.Columns[j]
				}
				return fmt.Sprintf("row %d column %s: icegate %v, %s %v", i, name, ice.Rows[i][j], other, ans.Rows[i][j])
			}
		}
	}
	return "ok"
}

// sameValue compares two values of Answer's form.
func sameValue(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	x, xnum := a.(float64)
	y, ynum := b.(float64)
	if xnum || ynum {
		if !xnum {
			x, xnum = parseNumber(a)
		}
		if !ynum {
			y, ynum = parseNumber(b)
		}
		if !xnum || !ynum {
			return false
		}
		return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))+0.005
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// parseNumber reads a string as a number, as JavaScript's Number() does for
// the node runner.
func parseNumber(v any) (float64, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
