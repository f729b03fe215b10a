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

// statementDeallocator is implemented by the result of DEALLOCATE of a
// protocol statement: the connection drops it.
type statementDeallocator interface {
	DeallocatedStatement() string
}

// protocolStatements is implemented by sessions that share the namespace
// of prepared statements with the protocol's (DEALLOCATE name,
// pg_prepared_statements).
type protocolStatements interface {
	NoteProtocolStatement(name, sql string, types []uint32)
	ForgetProtocolStatement(name string)
}

func (c *conn) noteStatement(name string, p *prepared, oids []uint32) {
	ps, ok := c.session.(protocolStatements)
	if !ok || name == "" {
		return
	}
	if p.stmt != nil {
		oids = p.stmt.ParamTypes()
	}
	ps.NoteProtocolStatement(name, p.sql, oids)
}

func (c *conn) forgetStatement(name string) {
	if ps, ok := c.session.(protocolStatements); ok && name != "" {
		ps.ForgetProtocolStatement(name)
	}
}

func (c *conn) discardIfAsked(rows translate.Rows) {
	if d, ok := rows.(statementDeallocator); ok {
		delete(c.stmts, d.DeallocatedStatement())
		return
	}
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
