package oracle

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// knownBug is a difference between icegate and iceberg-go in the reverse
// test that the Iceberg spec says is icegate's fault. The test asserts it
// still shows, so it goes red when it is fixed and the entry must go.
type knownBug struct {
	table string
	// match is a substring of the problem the reverse test reports.
	match string
	why   string
}

// knownIcegateBugs lists the known mismatches, each with the spec's rule.
var knownIcegateBugs = []knownBug{
	// Fixed: Parquet statistics of decimals on FIXED_LEN_BYTE_ARRAY were
	// ordered as unsigned bytes (engine/write/decimal_order.go).
}

// knownSQLBug is a statement icegate rejects with the wrong SQLSTATE (or
// rejects where PostgreSQL succeeds, then want is ""). The reverse test
// writes its literals around it and asserts it still fails so.
type knownSQLBug struct {
	sql, got, want, why string
}

// knownSQLBugs are the ones met while writing the reverse test's tables.
var knownSQLBugs = []knownSQLBug{
	// Fixed: unary minus on numeric constants (translate/bind_const.go) and
	// overlong numeric input for numeric(P,S) (engine/expr/decmath.go).
}

// checkKnownSQLBugs fails t for every known SQL bug that no longer shows.
func checkKnownSQLBugs(ctx context.Context, t *testing.T, conn *pgx.Conn) {
	t.Helper()
	for _, kb := range knownSQLBugs {
		_, err := conn.Exec(ctx, kb.sql)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != kb.got {
			t.Errorf("known icegate bug no longer shows (%s): %s returned %v; PostgreSQL's answer is %q, remove its knownSQLBugs entry", kb.why, kb.sql, err, kb.want)
		}
	}
}

// checkKnown fails t for every problem no known bug of table explains, and
// for every known bug of table that no longer shows.
func checkKnown(t *testing.T, table string, problems []string) {
	t.Helper()
	for _, kb := range knownIcegateBugs {
		if kb.table != table {
			continue
		}
		seen := false
		for _, p := range problems {
			seen = seen || strings.Contains(p, kb.match)
		}
		if !seen {
			t.Errorf("known icegate bug in %s (%s) no longer shows: remove its knownIcegateBugs entry", table, kb.why)
		}
	}
	for _, p := range problems {
		known := false
		for _, kb := range knownIcegateBugs {
			known = known || (kb.table == table && strings.Contains(p, kb.match))
		}
		if !known {
			t.Error(p)
		}
	}
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }
