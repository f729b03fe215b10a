package translate

import (
	"context"
	"fmt"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// CursorPortals is implemented by sessions whose SQL cursors (DECLARE) are
// also protocol portals, as in PostgreSQL: a client may Describe, Execute
// and Close a cursor by name with extended-protocol messages. wire asks
// for it when a portal name is not one of its own.
type CursorPortals interface {
	// CursorColumns describes the rows of the open cursor name; ok is false
	// when no cursor has the name. As in PostgreSQL, a portal's rows are
	// text even for a BINARY cursor (BINARY applies to FETCH).
	CursorColumns(name string) (cols []pgtypes.Column, ok bool)
	// FetchCursor fetches up to max rows (0: all) forward from cursor name,
	// as Execute of its portal does. The rows' tag is SELECT n.
	FetchCursor(ctx context.Context, name string, max int64) (Rows, error)
	// CloseCursor closes cursor name; it reports false when none was open.
	CloseCursor(name string) bool
}

var _ Session = (*session)(nil)

func (s *session) CursorColumns(name string) ([]pgtypes.Column, bool) {
	c := s.cursors[name]
	if c == nil {
		return nil, false
	}
	return c.cols, true
}

func (s *session) FetchCursor(ctx context.Context, name string, max int64) (Rows, error) {
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	c := s.cursors[name]
	if c == nil {
		return nil, pgerr.New(pgerr.InvalidCursorName, "portal \"%s\" does not exist", name)
	}
	deadline := s.statementDeadline()
	s.markQueried()
	count := max
	if count <= 0 {
		count = fetchAll
	}
	moves, execCount, err := c.run(true, count)
	if err != nil {
		return nil, err
	}
	return &portalRows{fetchRows{c: c, fwd: true, moves: moves, execCount: execCount, deadline: deadline}}, nil
}

func (s *session) CloseCursor(name string) bool {
	c := s.cursors[name]
	if c == nil {
		return false
	}
	c.close()
	delete(s.cursors, name)
	return true
}

// portalRows are the rows of a cursor fetched as a portal: PostgreSQL tags
// them with the cursor query's command, SELECT.
type portalRows struct{ fetchRows }

func (r *portalRows) Tag(rowsSent int64) string { return fmt.Sprintf("SELECT %d", rowsSent) }
