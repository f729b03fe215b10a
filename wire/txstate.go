package wire

import (
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// noteFailure tells the session an error is going to the client.
func (c *conn) noteFailure(err error) {
	c.session.StatementFailed(err)
}

// preparedDiscarder is implemented by the result of DISCARD ALL and
// DEALLOCATE ALL: the connection's prepared statements go, and its portals
// but the unnamed one (which may be the one running).
type preparedDiscarder interface {
	DiscardsPreparedStatements() bool
}

func (c *conn) discardIfAsked(rows translate.Rows) {
	d, ok := rows.(preparedDiscarder)
	if !ok || !d.DiscardsPreparedStatements() {
		return
	}
	for name := range c.stmts {
		if name != "" {
			delete(c.stmts, name)
		}
	}
	for name, p := range c.portals {
		if name != "" {
			p.close()
			delete(c.portals, name)
		}
	}
}

// binaryResulter is implemented by statements whose rows go out in binary
// under the simple protocol: FETCH from a cursor declared BINARY.
type binaryResulter interface {
	BinaryResults() bool
}

// simpleFormats are the result formats of a statement run by a Query
// message: text, unless the statement asks for binary.
func simpleFormats(st translate.Statement, cols []pgtypes.Column) ([]int16, error) {
	if b, ok := st.(binaryResulter); ok && b.BinaryResults() {
		return resultFormats([]int16{formatBinary}, cols)
	}
	return make([]int16, len(cols)), nil
}
