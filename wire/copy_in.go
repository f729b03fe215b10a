package wire

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate"
)

// A chunk of COPY FROM rows ends at copyChunkRows rows or copyChunkBytes
// bytes of values, whichever comes first.
const (
	copyChunkRows  = 1024
	copyChunkBytes = 1 << 20
)

// copyIn runs COPY ... FROM STDIN: CopyInResponse, then the client's stream
// fed to the statement through a copySource, then CommandComplete. An error
// goes to the client at once, as PostgreSQL does; the CopyData the client
// still sends is dropped by the message loop.
func (c *conn) copyIn(ctx context.Context, st translate.CopyFromStatement, table string) error {
	opts := st.Options()
	cols := st.Columns()
	names := make([]string, len(cols))
	oids := make([]uint32, len(cols))
	formats := make([]uint16, len(cols))
	var overall byte
	for k, col := range cols {
		names[k], oids[k] = col.Name, col.TypeOID
	}
	switch opts.Format {
	case copyFormatText, copyFormatCSV:
	case copyFormatBinary:
		overall = 1
		for k, col := range cols {
			formats[k] = 1
			if !binaryInputSupported(col.TypeOID) {
				return pgerr.Unsupported("binary COPY FROM of type %s (column %q)", typeName(col.TypeOID), col.Name)
			}
		}
	default:
		return pgerr.Unsupported("COPY format %q", opts.Format)
	}
	c.be.Send(&pgproto3.CopyInResponse{OverallFormat: overall, ColumnFormatCodes: formats})
	if err := c.flush(); err != nil {
		return err
	}
	src := newCopySource(opts, names, oids, table)
	src.receive = func() error { return c.receiveCopy(src) }
	tag, err := st.CopyIn(ctx, src)
	if err != nil {
		return err
	}
	if err := src.drain(ctx); err != nil {
		return err
	}
	c.stmtDone(tag, nil)
	c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	return nil
}

// copySource reads the client's COPY stream message by message and parses
// it incrementally into chunks of rows; it never holds the whole input.
type copySource struct {
	// receive reads the next message of the stream into the source: its
	// data goes to p.feed, CopyDone sets eof.
	receive func() error
	p       *copyParser
	table   string
	header  bool // the first line is still to be skipped

	eof   bool         // CopyDone received
	bytes atomic.Int64 // of CopyData received; pg_stat_progress_copy reads it
	err   error        // sticky: the stream failed
	lines []int        // input line of each row of the last chunk
	spans []fieldSpan
}

func newCopySource(opts translate.CopyOptions, colNames []string, oids []uint32, table string) *copySource {
	p := newCopyParser(opts, colNames, oids)
	return &copySource{p: p, table: table, header: opts.Header && !p.binary}
}

// Next implements translate.CopySource.
func (s *copySource) Next(ctx context.Context) ([][]*string, error) {
	if s.err != nil {
		return nil, s.err
	}
	rows, err := s.next(ctx)
	if err != nil {
		s.err = err
	}
	return rows, err
}

// BytesProcessed implements translate.CopyByteCounter.
// Other goroutines may call it.
func (s *copySource) BytesProcessed() int64 { return s.bytes.Load() }

// LineOf implements translate.CopySource.
func (s *copySource) LineOf(i int) int {
	if i < 0 || i >= len(s.lines) {
		return 0
	}
	return s.lines[i]
}

func (s *copySource) next(ctx context.Context) ([][]*string, error) {
	p := s.p
	p.arena = p.arena[:0]
	s.spans = s.spans[:0]
	s.lines = s.lines[:0]
	for len(s.lines) < copyChunkRows && len(p.arena) < copyChunkBytes {
		raw, ok, err := p.nextRecord(s.eof)
		if err != nil {
			return nil, s.context(err, nil)
		}
		if !ok {
			if s.eof {
				break
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := s.receive(); err != nil {
				return nil, err
			}
			continue
		}
		if s.header {
			s.header = false
			continue
		}
		if !p.binary && !utf8.Valid(raw) {
			return nil, s.context(invalidUTF8(raw), nil)
		}
		if err := p.splitRecord(raw); err != nil {
			if p.binary {
				raw = nil // PostgreSQL shows no binary data
			}
			return nil, s.context(err, raw)
		}
		s.spans = append(s.spans, p.fields...)
		s.lines = append(s.lines, p.line)
	}
	if len(s.lines) == 0 {
		return nil, nil
	}
	return s.rows(), nil
}

// rows builds the chunk's rows from the values in the parser's arena.
func (s *copySource) rows() [][]*string {
	all := string(s.p.arena)
	vals := make([]string, len(s.spans))
	ptrs := make([]*string, len(s.spans))
	for k, f := range s.spans {
		if f.null {
			continue
		}
		vals[k] = all[f.start:f.end]
		ptrs[k] = &vals[k]
	}
	n := s.p.ncols
	rows := make([][]*string, len(s.lines))
	for r := range rows {
		rows[r] = ptrs[r*n : (r+1)*n : (r+1)*n]
	}
	return rows
}

// context adds PostgreSQL's COPY error context (table, line and, once the
// line is read, its text) to err, in Detail.
func (s *copySource) context(err error, raw []byte) error {
	pe := pgerr.As(err)
	if pe == nil || s.p.binary && !s.p.headerDone {
		return err // PostgreSQL gives no context to a bad binary header
	}
	ctx := "COPY " + s.table + ", line " + strconv.Itoa(s.p.line)
	if s.table == "" {
		ctx = "COPY line " + strconv.Itoa(s.p.line)
	}
	switch {
	case s.p.errColumn != "":
		ctx += ", column " + s.p.errColumn
	case raw != nil:
		ctx += `: "` + clipForDisplay(string(raw)) + `"`
	}
	pe.Detail = ctx
	return pe
}

// receiveCopy reads one message of the COPY stream into s.
func (c *conn) receiveCopy(s *copySource) error {
	msg, err := c.frames.next()
	if pe := pgerr.As(err); pe != nil {
		return pe
	}
	if err != nil {
		c.cancelConn(errClientGone)
		return &pgerr.Error{Code: pgerr.ConnectionException, Severity: "FATAL",
			Message: fmt.Sprintf("unexpected EOF on client connection during COPY from stdin: %v", err)}
	}
	switch m := msg.(type) {
	case *pgproto3.CopyData:
		s.bytes.Add(int64(len(m.Data)))
		s.p.feed(m.Data)
	case *pgproto3.CopyDone:
		s.eof = true
	case *pgproto3.CopyFail:
		return pgerr.New(pgerr.QueryCanceled, "COPY from stdin failed: %s", m.Message)
	case *pgproto3.Flush, *pgproto3.Sync:
		// PostgreSQL ignores these during COPY, for clients that send them
		// right after an extended-protocol Execute.
	default:
		typ := byte('?')
		if b, err := m.Encode(nil); err == nil && len(b) > 0 {
			typ = b[0]
		}
		return pgerr.New(pgerr.ProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", typ)
	}
	return nil
}

// drain reads the rest of the stream after the statement consumed the rows
// it wanted (after the end-of-data marker, input is discarded).
func (s *copySource) drain(ctx context.Context) error {
	if s.err != nil {
		return s.err
	}
	for !s.eof {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.p.done = true
		if err := s.receive(); err != nil {
			s.err = err
			return err
		}
	}
	return nil
}
