package wire

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// prepared is a statement made by Parse. stmt is nil for an empty query.
type prepared struct {
	stmt translate.Statement
	sql  string
	// desc is the RowDescription last sent for a portal of the
	// statement, of the columns descCols in the formats descFormats: a
	// client describing every portal of a statement it runs again and
	// again gets the same message without it being built each time.
	desc        *pgproto3.RowDescription
	descCols    []pgtypes.Column
	descFormats []int16
}

// portalDescription is rowDescription(cols, formats), reused while the
// statement's columns (the same slice) and the formats are unchanged.
// Backend.Send encodes a message when it is sent, so one may be sent
// again.
func (st *prepared) portalDescription(cols []pgtypes.Column, formats []int16) *pgproto3.RowDescription {
	if st.desc != nil && len(cols) > 0 && len(cols) == len(st.descCols) && &cols[0] == &st.descCols[0] &&
		slices.Equal(formats, st.descFormats) {
		return st.desc
	}
	st.desc, st.descCols, st.descFormats = rowDescription(cols, formats), cols, slices.Clone(formats)
	return st.desc
}

// portal is a statement bound to parameters and result formats by Bind.
type portal struct {
	stmt   *prepared
	params []*string
	// typed holds the binary parameters decoded to values for a
	// translate.TypedStatement (nil: none; params[i] is then nil).
	typed   []any
	formats []int16
	env     *encodeEnv
	result  *resultStream // nil until the first Execute
	done    bool
}

// executeStmt executes the portal's statement with its parameters, the
// binary ones decoded to values when the statement takes them so.
func (p *portal) executeStmt(ctx context.Context) (translate.Rows, error) {
	if ts, ok := p.stmt.stmt.(translate.TypedStatement); ok && p.typed != nil {
		return ts.ExecuteTyped(ctx, p.params, p.typed)
	}
	return p.stmt.stmt.Execute(ctx, p.params)
}

func (p *portal) close() {
	if p.result != nil {
		_ = p.result.rows.Close()
		p.result = nil
	}
}

func (c *conn) parse(m *pgproto3.Parse) error {
	if m.Name != "" {
		if _, exists := c.stmts[m.Name]; exists {
			return pgerr.New(pgerr.DuplicatePreparedStatement, "prepared statement %q already exists", m.Name)
		}
	}
	if err := checkUTF8(m.Query); err != nil {
		return err
	}
	ctx, done := c.beginStatement()
	defer done()
	c.stmtBegin(m.Query, false) // a failed Parse counts; Execute logs
	stmts, err := c.session.Prepare(ctx, m.Query, slices.Clone(m.ParameterOIDs))
	if err != nil {
		return err
	}
	if len(stmts) > 1 {
		return pgerr.New(pgerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	p := &prepared{sql: m.Query}
	if len(stmts) == 1 {
		p.stmt = stmts[0]
	}
	c.stmts[m.Name] = p
	c.noteStatement(m.Name, p, m.ParameterOIDs)
	c.be.Send(&pgproto3.ParseComplete{})
	return nil
}

func (c *conn) statement(name string) (*prepared, error) {
	p, ok := c.stmts[name]
	if !ok {
		if name == "" {
			return nil, pgerr.New(pgerr.InvalidSQLStatementName, "unnamed prepared statement does not exist")
		}
		return nil, pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement %q does not exist", name)
	}
	return p, nil
}

func (c *conn) bind(m *pgproto3.Bind) error {
	st, err := c.statement(m.PreparedStatement)
	if err != nil {
		return err
	}
	if m.DestinationPortal != "" {
		if _, exists := c.portals[m.DestinationPortal]; exists {
			return pgerr.New(pgerr.DuplicateCursor, "portal %q already exists", m.DestinationPortal)
		}
		if c.cursorExists(m.DestinationPortal) {
			return pgerr.New(pgerr.DuplicateCursor, "cursor %q already exists", m.DestinationPortal)
		}
	} else if old := c.portals[""]; old != nil {
		old.close()
		delete(c.portals, "")
	}
	var paramTypes []uint32
	var cols []pgtypes.Column
	if st.stmt != nil {
		paramTypes = st.stmt.ParamTypes()
		if !isCopy(st.stmt) {
			cols = st.stmt.Columns()
		}
	}
	var params []*string
	var typed []any
	if _, ok := st.stmt.(translate.TypedStatement); ok {
		params, typed, err = decodeParamsTyped(m.Parameters, m.ParameterFormatCodes, paramTypes)
	} else {
		params, err = decodeParams(m.Parameters, m.ParameterFormatCodes, paramTypes)
	}
	if err != nil {
		return err
	}
	formats, err := resultFormats(m.ResultFormatCodes, cols)
	if err != nil {
		return err
	}
	p := &portal{stmt: st, params: params, typed: typed, formats: formats, env: c.env()}
	if st.stmt != nil && translate.IsQuery(st.stmt) {
		if err := c.startQuery(p); err != nil {
			return err
		}
	}
	c.portals[m.DestinationPortal] = p
	c.be.Send(&pgproto3.BindComplete{})
	return nil
}

// startQuery starts portal p of a query at Bind, where PostgreSQL plans
// it: the errors of planning (a constant expression's, SELECT 1/0) come as
// Bind's ErrorResponse, before any RowDescription, as on the simple
// protocol (simple.go). The first batch is fetched now; Execute streams
// the rest.
func (c *conn) startQuery(p *portal) error {
	ctx, done := c.beginStatement()
	defer done()
	c.stmtBegin(p.stmt.sql, true)
	c.beginImplicit()
	rows, err := p.executeStmt(ctx)
	if err != nil {
		return err
	}
	r := &resultStream{rows: rows, enc: newRowEncoder(p.stmt.stmt.Columns(), p.formats, p.env)}
	if err := r.prefetch(ctx); err != nil {
		_ = rows.Close()
		return err
	}
	p.result = r
	return nil
}

// resultFormats expands Bind's result format codes to one per column and
// checks binary output exists for each binary column.
func resultFormats(codes []int16, cols []pgtypes.Column) ([]int16, error) {
	formats := make([]int16, len(cols))
	switch {
	case len(codes) == 0:
	case len(codes) == 1:
		for k := range formats {
			formats[k] = codes[0]
		}
	case len(codes) == len(cols):
		copy(formats, codes)
	default:
		return nil, pgerr.New(pgerr.ProtocolViolation, "bind message has %d result formats but query has %d columns", len(codes), len(cols))
	}
	for k, f := range formats {
		switch f {
		case formatText:
		case formatBinary:
			if _, err := catalogBinaryOutput(cols[k].TypeOID); err != nil {
				return nil, err
			}
			if !binaryOutputSupported(cols[k].TypeOID) {
				name := pgtypes.TypeName(cols[k].TypeOID)
				if name == "" {
					name = fmt.Sprintf("OID %d", cols[k].TypeOID)
				}
				return nil, pgerr.Unsupported("binary output of type %s (column %q)", name, cols[k].Name)
			}
		default:
			return nil, pgerr.New(pgerr.ProtocolViolation, "unsupported format code: %d", f)
		}
	}
	return formats, nil
}

func (c *conn) describe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		st, err := c.statement(m.Name)
		if err != nil {
			return err
		}
		if st.stmt == nil {
			c.be.Send(&pgproto3.ParameterDescription{ParameterOIDs: []uint32{}})
			c.be.Send(&pgproto3.NoData{})
			return nil
		}
		c.be.Send(&pgproto3.ParameterDescription{ParameterOIDs: st.stmt.ParamTypes()})
		cols := st.stmt.Columns()
		if cols == nil || isCopy(st.stmt) {
			c.be.Send(&pgproto3.NoData{})
		} else {
			c.be.Send(rowDescription(cols, make([]int16, len(cols))))
		}
		return nil
	case 'P':
		if _, mine := c.portals[m.Name]; !mine && c.describeCursor(m.Name) {
			return nil
		}
		p, err := c.portal(m.Name)
		if err != nil {
			return err
		}
		if p.stmt.stmt == nil || p.stmt.stmt.Columns() == nil || isCopy(p.stmt.stmt) {
			c.be.Send(&pgproto3.NoData{})
			return nil
		}
		c.be.Send(p.stmt.portalDescription(p.stmt.stmt.Columns(), p.formats))
		return nil
	}
	return pgerr.New(pgerr.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
}

func (c *conn) portal(name string) (*portal, error) {
	p, ok := c.portals[name]
	if !ok {
		if name == "" {
			return nil, pgerr.New(pgerr.InvalidCursorName, "unnamed portal does not exist")
		}
		return nil, pgerr.New(pgerr.InvalidCursorName, "portal %q does not exist", name)
	}
	return p, nil
}

func (c *conn) execute(m *pgproto3.Execute) error {
	if _, mine := c.portals[m.Portal]; !mine {
		if found, err := c.executeCursor(m.Portal, int64(m.MaxRows)); found {
			return err
		}
	}
	p, err := c.portal(m.Portal)
	if err != nil {
		return err
	}
	if p.stmt.stmt == nil {
		c.be.Send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	ctx, done := c.beginStatement()
	defer done()
	if p.result == nil && !p.done {
		c.stmtBegin(p.stmt.sql, true)
		c.beginImplicit()
		if handled, err := c.runCopy(ctx, p.stmt.stmt, p.params, p.stmt.sql); handled {
			p.done = true
			if err != nil {
				return err
			}
			c.reportParams(false)
			return nil
		}
	}
	if p.result == nil {
		if p.done {
			c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte("SELECT 0")})
			return nil
		}
		rows, err := p.executeStmt(ctx)
		if err != nil {
			p.done = true
			return err
		}
		p.result = &resultStream{rows: rows, enc: newRowEncoder(p.stmt.stmt.Columns(), p.formats, p.env)}
	}
	suspended, sent, err := c.send(ctx, p.result, int64(m.MaxRows))
	if err != nil {
		p.close()
		p.done = true
		return err
	}
	if suspended {
		c.be.Send(&pgproto3.PortalSuspended{})
		return nil
	}
	c.finish(p.result.rows, sent)
	rows := p.result.rows
	p.result = nil
	p.done = true
	if err := rows.Close(); err != nil {
		return err
	}
	c.reportParams(false)
	return nil
}

func (c *conn) closeObject(m *pgproto3.Close) error {
	switch m.ObjectType {
	case 'S':
		delete(c.stmts, m.Name)
		c.forgetStatement(m.Name)
	case 'P':
		if p := c.portals[m.Name]; p != nil {
			p.close()
			delete(c.portals, m.Name)
		} else {
			c.closeCursor(m.Name)
		}
	default:
		return pgerr.New(pgerr.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	c.be.Send(&pgproto3.CloseComplete{})
	return nil
}
