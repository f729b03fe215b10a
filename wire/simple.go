package wire

import (
	"github.com/jackc/pgx/v5/pgproto3"
)

// simpleQuery runs a Query message: each statement of the string in order,
// stopping at the first error, then ReadyForQuery. Errors go to the client
// here; only a FATAL error or a broken connection is returned.
func (c *conn) simpleQuery(sql string) error {
	// Like PostgreSQL, a simple query drops the unnamed statement and portal.
	delete(c.stmts, "")
	if p := c.portals[""]; p != nil {
		p.close()
		delete(c.portals, "")
	}
	err := checkUTF8(sql)
	if err == nil {
		err = c.runSimple(sql)
	}
	if err != nil {
		c.sendError(err)
		if c.fatal(err) {
			c.auditStatement(sql, err)
			_ = c.flush()
			return err
		}
	}
	if cerr := c.endImplicit(); err == nil {
		err = cerr
	}
	c.auditStatement(sql, err)
	c.reportParams(false)
	c.sendReady()
	return c.flush()
}

func (c *conn) runSimple(sql string) (err error) {
	defer c.recoverPanic(&err)
	ctx, done := c.beginStatement()
	defer done()
	c.stmtBegin(sql, true)
	stmts, err := c.session.Prepare(ctx, sql, nil)
	if err != nil {
		return err
	}
	if len(stmts) == 0 {
		c.obs.active = false
		c.be.Send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	copySQL := ""
	if len(stmts) == 1 {
		copySQL = sql
	}
	for _, st := range stmts {
		if !c.obs.active {
			c.stmtBegin(sql, false) // the string's next statement
		}
		if len(stmts) > 1 {
			c.beginImplicit() // again after a COMMIT in the string
		}
		if handled, err := c.runCopy(ctx, st, nil, copySQL); handled {
			if err != nil {
				return err
			}
			c.reportParams(false)
			continue
		}
		rows, err := st.Execute(ctx, nil)
		if err != nil {
			return err
		}
		cols := st.Columns()
		formats, err := simpleFormats(st, cols)
		if err != nil {
			rows.Close()
			return err
		}
		r := &resultStream{rows: rows, enc: newRowEncoder(cols, formats, c.env())}
		if cols != nil {
			// PostgreSQL raises the error of a constant expression (SELECT
			// 1/0) while planning, before RowDescription: the first batch
			// comes first, so that such an error comes alone.
			if err := r.prefetch(ctx); err != nil {
				rows.Close()
				return err
			}
			c.be.Send(rowDescription(cols, formats))
		}
		_, sent, err := c.send(ctx, r, 0)
		if err != nil {
			rows.Close()
			return err
		}
		c.finish(rows, sent)
		if err := rows.Close(); err != nil {
			return err
		}
		c.reportParams(false)
	}
	return nil
}
