package translate

import (
	"context"
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/regtype"
)

// ADD COLUMN ... DEFAULT and the rows already there.
//
// PostgreSQL gives the existing rows of a table the default of a column
// ALTER TABLE adds: a stable expression (a literal, now()) evaluated once,
// a volatile one (random(), gen_random_uuid()) per row, rewriting the
// table. Iceberg format 3 has the field's initial-default for a literal:
// readers give it to rows written before the column existed, so nothing is
// rewritten. Otherwise (a format 2 table, or an expression) the rows are
// rewritten with the value, so that every engine reading the table sees
// it: the ALTER is followed by UPDATE t SET c = DEFAULT over the rows the
// table had, in one transaction with it (the ALTER's block, or one of its
// own), through the same copy-on-write or merge-on-read machinery as any
// UPDATE. A value stored on the side and applied on read would show to
// icegate alone.

// addsColumnDefault reports whether an ALTER TABLE adds a column with a
// DEFAULT (the rows already there may need it).
func addsColumnDefault(as *pg.AlterTableStmt) bool {
	for _, n := range as.Cmds {
		cmd := n.GetAlterTableCmd()
		if cmd == nil || cmd.Subtype != pg.AlterTableType_AT_AddColumn {
			continue
		}
		for _, c := range cmd.GetDef().GetColumnDef().GetConstraints() {
			if c.GetConstraint().GetContype() == pg.ConstrType_CONSTR_DEFAULT {
				return true
			}
		}
	}
	return false
}

// inBlock runs fn inside the session's block, or, outside one, inside a
// block of its own that commits when fn succeeds and rolls back when it
// fails: the statements fn runs are one transaction.
func (s *session) inBlock(ctx context.Context, fn func() ([]Notice, error)) ([]Notice, error) {
	if s.tx != nil {
		return fn()
	}
	if err := s.beginBlock(nil); err != nil {
		return nil, err
	}
	s.tx.implicit = true // idle to the client, as a query string's block
	notices, err := fn()
	if err != nil || s.tx.failed {
		s.rollbackWrites()
		if eerr := s.endBlock(false); err == nil {
			err = eerr
		}
		return nil, err
	}
	err = s.commitWrites(ctx)
	if eerr := s.endBlock(err == nil); err == nil {
		err = eerr
	}
	if err != nil {
		return nil, err
	}
	return notices, nil
}

// fillColumnDefaults gives the rows table id had before ALTER TABLE added
// columns cols their defaults: UPDATE id SET c = DEFAULT, ... (run in the
// ALTER's transaction, see inBlock).
func (s *session) fillColumnDefaults(ctx context.Context, id catalog.Identifier, cols []string) error {
	parts := make([]string, 0, len(id.Namespace)+1)
	for _, p := range id.Namespace {
		parts = append(parts, regtype.QuoteIdent(p))
	}
	parts = append(parts, regtype.QuoteIdent(id.Name))
	sets := make([]string, len(cols))
	for i, c := range cols {
		sets[i] = regtype.QuoteIdent(c) + " = DEFAULT"
	}
	sql := fmt.Sprintf("UPDATE %s SET %s", strings.Join(parts, "."), strings.Join(sets, ", "))
	stmts, err := parse.ParseContext(ctx, sql, hints.ParseConfig)
	if err != nil || len(stmts) != 1 {
		return fmt.Errorf("fill the new columns' defaults: parse %q: %w", sql, err)
	}
	st, err := s.prepare(ctx, stmts[0], nil, true)
	if err != nil {
		return err
	}
	rows, err := st.Execute(ctx, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	for {
		b, err := rows.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
	}
}
