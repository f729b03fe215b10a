package translate

import (
	"context"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
)

// lockModes are the modes of LOCK TABLE, by the parser's number.
var lockModes = map[int32]string{1: "ACCESS SHARE", 2: "ROW SHARE", 3: "ROW EXCLUSIVE", 4: "SHARE UPDATE EXCLUSIVE",
	5: "SHARE", 6: "SHARE ROW EXCLUSIVE", 7: "EXCLUSIVE", 8: "ACCESS EXCLUSIVE"}

// prepareLock is LOCK [TABLE] name [, ...] [IN mode MODE] [NOWAIT], which
// tools such as pg_dump send before reading tables. icegate takes no locks:
// a transaction block reads each table at the snapshot it first read, so
// ACCESS SHARE, which only keeps the tables' definitions from changing
// under the reader, is granted at once for tables that exist. The modes
// that would hold writers off are not supported.
func (s *session) prepareLock(ctx context.Context, ps parse.Stmt, l *pg.LockStmt) (Statement, error) {
	mode := lockModes[l.Mode]
	if mode == "" {
		mode = "ACCESS EXCLUSIVE" // LOCK without IN ... MODE
	}
	b := bind.New(ctx, s, ps, &bind.ParamSet{}, time.Now())
	names := make([]parse.TableName, 0, len(l.Relations))
	for _, n := range l.Relations {
		rv := n.GetRangeVar()
		if rv == nil {
			return nil, pgerr.NotYet("LOCK of this object")
		}
		tn := parse.TableNameOf(rv)
		b.UntruncateTable(rv, &tn) // Iceberg names may be longer than 63 bytes
		names = append(names, tn)
	}
	run := func(ctx context.Context) error {
		if s.tx == nil || s.tx.implicit {
			return pgerr.New(pgerr.NoActiveSQLTransaction, "LOCK TABLE can only be used in transaction blocks")
		}
		for _, tn := range names {
			if _, err := s.ResolveTable(ctx, tn); err != nil {
				return err
			}
		}
		if l.Mode != 1 {
			return pgerr.New(pgerr.FeatureNotSupported, "LOCK TABLE IN %s MODE is not supported", mode).
				WithDetail("icegate takes no table locks; each transaction reads a snapshot of every table.").
				WithHint("LOCK TABLE ... IN ACCESS SHARE MODE is accepted.")
		}
		return nil
	}
	return &ctxUtilityStatement{tag: "LOCK TABLE", sess: s, run: run}, nil
}
