package wire

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// flushBytes is how much encoded row data is buffered before it is written,
// within a batch; every batch ends with a write.
const flushBytes = 256 << 10

// resultStream is an executing statement's rows on their way to the client;
// a suspended portal keeps one across Execute messages.
type resultStream struct {
	rows  translate.Rows
	enc   *rowEncoder
	batch arrow.RecordBatch // current batch, nil when the next must be fetched
	next  int               // first row of batch not yet sent
	ended bool              // rows returned its end (prefetch)
}

// prefetch fetches the first batch before anything is sent.
func (r *resultStream) prefetch(ctx context.Context) error {
	b, err := r.rows.Next(ctx)
	if err != nil {
		return err
	}
	if b == nil {
		r.ended = true
		return nil
	}
	if err := r.enc.bindBatch(b); err != nil {
		return err
	}
	r.batch, r.next = b, 0
	return nil
}

// send streams up to limit rows (0: all) and reports whether rows remain
// (the portal is suspended) and how many were sent.
func (c *conn) send(ctx context.Context, r *resultStream, limit int64) (suspended bool, sent int64, err error) {
	for {
		if r.batch == nil {
			if r.ended {
				return false, sent, nil
			}
			if err := ctx.Err(); err != nil {
				return false, sent, err
			}
			b, err := r.rows.Next(ctx)
			if err != nil {
				return false, sent, err
			}
			if b == nil {
				return false, sent, nil
			}
			if err := r.enc.bindBatch(b); err != nil {
				return false, sent, err
			}
			r.batch, r.next = b, 0
		}
		n := int(r.batch.NumRows())
		to := n
		if limit > 0 && int64(to-r.next) > limit-sent {
			to = r.next + int(limit-sent)
		}
		for r.next < to {
			end := min(to, r.next+256)
			c.rowBuf = r.enc.appendRows(c.rowBuf, r.next, end)
			sent += int64(end - r.next)
			r.next = end
			if len(c.rowBuf) >= flushBytes {
				if err := c.writeRows(); err != nil {
					return false, sent, err
				}
			}
		}
		if err := c.writeRows(); err != nil {
			return false, sent, err
		}
		if r.next >= n {
			r.batch = nil
		}
		if limit > 0 && sent >= limit {
			return true, sent, nil
		}
	}
}

// smallRows is the most encoded DataRows writeRows leaves buffered behind
// the messages before them, to go out with what follows (a point query's
// answer, its completion and ReadyForQuery in one write at Sync), below
// the size at which the protocol buffer would be allocated again. Like
// PostgreSQL's output buffer, rows that stay buffered go out at the next
// Sync, Flush, error, or once more than smallRows of them wait.
const smallRows = 512

// encodedRows is DataRows already encoded, sent as they are.
type encodedRows []byte

func (m encodedRows) Backend() {}

func (m encodedRows) Decode([]byte) error { return errors.New("encoded rows are only sent") }

func (m encodedRows) Encode(dst []byte) ([]byte, error) { return append(dst, m...), nil }

// writeRows hands the encoded DataRows to the client: a few rows join the
// buffered messages, written with the messages after them while no more
// than smallRows of rows wait; more are written at once, after the
// messages before them.
func (c *conn) writeRows() error {
	if n := len(c.rowBuf); n > 0 && n <= smallRows {
		c.be.Send(encodedRows(c.rowBuf))
		c.heldRows += n
		c.rowBuf = c.rowBuf[:0]
		if c.heldRows > smallRows {
			return c.flush()
		}
		return nil
	}
	if err := c.flush(); err != nil {
		c.rowBuf = c.rowBuf[:0]
		return err
	}
	if len(c.rowBuf) == 0 {
		return nil
	}
	_, err := c.nc.Write(c.rowBuf)
	if cap(c.rowBuf) > 4*flushBytes {
		c.rowBuf = nil
	} else {
		c.rowBuf = c.rowBuf[:0]
	}
	if err != nil {
		c.cancelConn(errClientGone)
		return err
	}
	return nil
}

// finish sends the notices and CommandComplete of a result.
func (c *conn) finish(rows translate.Rows, sent int64) {
	for _, n := range rows.Notices() {
		c.sendNotice(n)
	}
	tag := rows.Tag(sent)
	c.stmtDone(tag, nil)
	c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	c.discardIfAsked(rows)
}

// sendNotice buffers a NoticeResponse, unless its severity is below the
// session's client_min_messages (INFO always goes, as in PostgreSQL).
func (c *conn) sendNotice(n translate.Notice) {
	if n.Severity != "INFO" && noticeRank(n.Severity) < noticeRank(strings.ToUpper(c.session.Setting("client_min_messages"))) {
		return
	}
	c.be.Send(&pgproto3.NoticeResponse{
		Severity: n.Severity, SeverityUnlocalized: n.Severity, Code: n.Code, Message: n.Message, Detail: n.Detail,
	})
}

// noticeRank orders message severities as client_min_messages compares
// them: LOG ranks below NOTICE for the client. An unknown one (an unset
// setting) ranks as NOTICE, the default.
func noticeRank(severity string) int {
	switch severity {
	case "DEBUG5", "DEBUG4", "DEBUG3", "DEBUG2", "DEBUG1", "DEBUG":
		return 1
	case "LOG":
		return 2
	case "WARNING":
		return 4
	case "ERROR":
		return 5
	}
	return 3
}

// rowDescription describes cols with their result formats.
func rowDescription(cols []pgtypes.Column, formats []int16) *pgproto3.RowDescription {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for k, col := range cols {
		fields[k] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.AttNum),
			DataTypeOID:          col.TypeOID,
			DataTypeSize:         pgtypes.TypeSize(col.TypeOID),
			TypeModifier:         col.Typmod,
			Format:               formats[k],
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

// env reads the session settings encoders depend on. An encodeEnv is
// never changed once made: the last one serves again while the settings
// keep their values.
func (c *conn) env() *encodeEnv {
	loc, digits := time.UTC, 1
	if tz := c.session.Setting("TimeZone"); tz != "" {
		loc = c.location(tz)
	}
	if efd := c.session.Setting("extra_float_digits"); efd != "" {
		if v, err := strconv.Atoi(efd); err == nil {
			digits = v
		}
	}
	if e := c.lastEnv; e != nil && e.loc == loc && e.extraFloatDigits == digits {
		return e
	}
	c.lastEnv = &encodeEnv{loc: loc, extraFloatDigits: digits}
	return c.lastEnv
}
