package wire

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// A SQL cursor (DECLARE name CURSOR FOR ...) is a portal too, as in
// PostgreSQL: Describe, Execute and Close of a portal name that is not one
// of Bind's reach the session's cursor of that name. The cursor keeps its
// own position, so rows fetched by Execute are not fetched again by FETCH.

// cursorPortals returns the session's cursors as portals.
func (c *conn) cursorPortals() translate.CursorPortals { return c.session }

// cursorFormats are the result formats of a cursor's portal: text, even
// for a BINARY cursor (PostgreSQL applies BINARY to FETCH only).
func cursorFormats(cols []pgtypes.Column) []int16 { return make([]int16, len(cols)) }

// describeCursor sends the RowDescription of cursor name; it reports
// false when there is no such cursor.
func (c *conn) describeCursor(name string) bool {
	cp := c.cursorPortals()
	if cp == nil || name == "" {
		return false
	}
	cols, ok := cp.CursorColumns(name)
	if !ok {
		return false
	}
	c.be.Send(rowDescription(cols, cursorFormats(cols)))
	return true
}

// executeCursor fetches up to maxRows rows (0: all) from cursor name: a
// full count leaves the portal suspended, fewer complete it. It reports
// false when there is no such cursor.
func (c *conn) executeCursor(name string, maxRows int64) (bool, error) {
	cp := c.cursorPortals()
	if cp == nil || name == "" {
		return false, nil
	}
	cols, ok := cp.CursorColumns(name)
	if !ok {
		return false, nil
	}
	ctx, done := c.beginStatement()
	defer done()
	rows, err := cp.FetchCursor(ctx, name, maxRows)
	if err != nil {
		return true, err
	}
	r := &resultStream{rows: rows, enc: newRowEncoder(cols, cursorFormats(cols), c.env())}
	_, sent, err := c.send(ctx, r, 0)
	if err != nil {
		_ = rows.Close()
		return true, err
	}
	if maxRows > 0 && sent == maxRows {
		c.be.Send(&pgproto3.PortalSuspended{})
		return true, rows.Close()
	}
	c.finish(rows, sent)
	if err := rows.Close(); err != nil {
		return true, err
	}
	c.reportParams(false)
	return true, nil
}

// closeCursor closes cursor name; it reports false when there is none.
func (c *conn) closeCursor(name string) bool {
	cp := c.cursorPortals()
	return cp != nil && name != "" && cp.CloseCursor(name)
}

// cursorExists reports whether a cursor has the name (a Bind to it fails).
func (c *conn) cursorExists(name string) bool {
	cp := c.cursorPortals()
	if cp == nil || name == "" {
		return false
	}
	_, ok := cp.CursorColumns(name)
	return ok
}
