package wire

import (
	"context"
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// copyOut runs COPY ... TO STDOUT: the statement executes like a query;
// CopyOutResponse, then one CopyData per row (text escaping or csv quoting
// over the text output of each value; the binary format's header shares
// the first row's message), flushed per batch, CopyDone and "COPY n".
func (c *conn) copyOut(ctx context.Context, st translate.CopyToStatement, params []*string) error {
	opts := st.Options()
	cols := st.Columns()
	bin := opts.Format == copyFormatBinary
	formats := make([]int16, len(cols))
	wireFormats := make([]uint16, len(cols))
	var overall byte
	switch opts.Format {
	case copyFormatText, copyFormatCSV:
	case copyFormatBinary:
		overall = 1
		for k, col := range cols {
			formats[k], wireFormats[k] = formatBinary, 1
			if !binaryOutputSupported(col.TypeOID) {
				return pgerr.Unsupported("binary COPY TO of type %s (column %q)", typeName(col.TypeOID), col.Name)
			}
		}
	default:
		return pgerr.Unsupported("COPY format %q", opts.Format)
	}
	rows, err := st.Execute(ctx, params)
	if err != nil {
		return err
	}
	closed := false
	defer func() {
		if !closed {
			_ = rows.Close()
		}
	}()
	c.be.Send(&pgproto3.CopyOutResponse{OverallFormat: overall, ColumnFormatCodes: wireFormats})
	// Each write reports its bytes to pg_stat_progress_copy.
	sink, _ := rows.(translate.CopyBytesSink)
	flushCopy := func() error {
		if sink != nil {
			sink.CopyBytesSent(int64(len(c.rowBuf)))
		}
		return c.writeRows()
	}
	w := &copyWriter{opts: &opts, enc: newRowEncoder(cols, formats, c.env())}
	w.forceQuote = make([]bool, len(cols))
	for _, k := range opts.ForceQuote {
		if k >= 0 && k < len(cols) {
			w.forceQuote[k] = true
		}
	}
	// The binary header goes out with the first tuple (or the trailer),
	// in one CopyData message, as PostgreSQL sends it.
	var binHeader []byte
	switch {
	case bin:
		binHeader = copyBinaryHeader
	case opts.Header:
		c.rowBuf = w.appendHeader(c.rowBuf, cols)
	}
	if err := flushCopy(); err != nil {
		return err
	}
	var sent int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := rows.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if err := w.enc.bindBatch(b); err != nil {
			return err
		}
		n := int(b.NumRows())
		for i := range n {
			if bin {
				c.rowBuf = appendBinaryTuple(c.rowBuf, binHeader, w.enc, i)
				binHeader = nil
			} else {
				c.rowBuf = w.appendRow(c.rowBuf, i)
			}
			if len(c.rowBuf) >= flushBytes {
				if err := flushCopy(); err != nil {
					return err
				}
			}
		}
		sent += int64(n)
		if err := flushCopy(); err != nil {
			return err
		}
	}
	if bin {
		c.rowBuf = appendCopyData(c.rowBuf, slices.Concat(binHeader, []byte{0xff, 0xff}))
	}
	if err := flushCopy(); err != nil {
		return err
	}
	c.be.Send(&pgproto3.CopyDone{})
	tag := "COPY " + strconv.FormatInt(sent, 10)
	c.stmtDone(tag, nil)
	c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	closed = true
	return rows.Close()
}

// copyWriter encodes rows as COPY lines, each in its own CopyData message.
type copyWriter struct {
	opts       *translate.CopyOptions
	enc        *rowEncoder
	forceQuote []bool
	scratch    []byte
}

// appendRow appends row i of the bound batch as a CopyData message.
func (w *copyWriter) appendRow(dst []byte, i int) []byte {
	start := len(dst)
	dst = append(dst, 'd', 0, 0, 0, 0)
	csv := w.opts.Format == copyFormatCSV
	single := len(w.enc.fns) == 1
	for j, fn := range w.enc.fns {
		if j > 0 {
			dst = append(dst, w.opts.Delimiter)
		}
		if w.enc.nulls[j].isNull(i) {
			dst = append(dst, w.opts.Null...)
			continue
		}
		w.scratch = fn(w.scratch[:0], i)
		if csv {
			dst = appendCopyCSV(dst, w.scratch, w.opts, w.forceQuote[j], single)
		} else {
			dst = appendCopyText(dst, w.scratch, w.opts.Delimiter)
		}
	}
	dst = append(dst, '\n')
	binary.BigEndian.PutUint32(dst[start+1:], uint32(len(dst)-start-1))
	return dst
}

// appendHeader appends the header line: the column names, escaped or quoted
// like values (never forced).
func (w *copyWriter) appendHeader(dst []byte, cols []pgtypes.Column) []byte {
	start := len(dst)
	dst = append(dst, 'd', 0, 0, 0, 0)
	for j, col := range cols {
		if j > 0 {
			dst = append(dst, w.opts.Delimiter)
		}
		if w.opts.Format == copyFormatCSV {
			dst = appendCopyCSV(dst, []byte(col.Name), w.opts, false, len(cols) == 1)
		} else {
			dst = appendCopyText(dst, []byte(col.Name), w.opts.Delimiter)
		}
	}
	dst = append(dst, '\n')
	binary.BigEndian.PutUint32(dst[start+1:], uint32(len(dst)-start-1))
	return dst
}
