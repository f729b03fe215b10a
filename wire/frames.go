package wire

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
)

// Limits on one client message after startup, as PostgreSQL 15's
// SocketBackend sets them: messages that carry data (Query, Parse, Bind,
// CopyData, FunctionCall) may be as large as the configured limit; the
// others fit in smallMessageLimit. (SASL messages are read before the
// frameReader exists: readAuthMessage.)
const (
	DefaultMaxMessageSize = 1 << 30
	smallMessageLimit     = 10000
	// reusedBodySize is the largest body read into the connection's reused
	// buffer; larger bodies get their own, grown as bytes arrive.
	reusedBodySize = 64 << 10
)

// frameReader reads the client's messages after startup. It checks each
// header before reading the body: an unknown type, a length under 4 or
// over the type's limit is a FATAL 08P01, and a declared length is never
// allocated before its bytes arrive, so a bad header cannot make the server
// reserve a gigabyte. A body is valid until the next read.
type frameReader struct {
	r       *bufio.Reader
	maxData int
	reused  []byte
	hdr     [5]byte // the header being read (a local would escape to the heap)
}

func newFrameReader(r io.Reader, maxData int) *frameReader {
	if maxData <= 0 {
		maxData = DefaultMaxMessageSize
	}
	return &frameReader{r: bufio.NewReaderSize(r, 32<<10), maxData: maxData}
}

// protocolError is a FATAL protocol violation: the connection ends after it.
func protocolError(format string, args ...any) *pgerr.Error {
	return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL", Message: fmt.Sprintf(format, args...)}
}

// limit returns the largest body of message type typ, 0 for unknown types.
func (f *frameReader) limit(typ byte) int {
	switch typ {
	case 'Q', 'P', 'B', 'd', 'F':
		return f.maxData
	case 'C', 'D', 'E', 'H', 'S', 'X', 'c', 'f':
		return smallMessageLimit
	}
	return 0
}

// next reads one message and decodes it. Errors from the connection are
// returned as they are (io.EOF when the client left between messages);
// malformed input is a FATAL *pgerr.Error.
func (f *frameReader) next() (pgproto3.FrontendMessage, error) {
	hdr := f.hdr[:]
	if _, err := io.ReadFull(f.r, hdr[:1]); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(f.r, hdr[1:]); err != nil {
		return nil, unexpectedEOF(err)
	}
	typ := hdr[0]
	limit := f.limit(typ)
	if limit == 0 {
		return nil, protocolError("invalid frontend message type %d", typ)
	}
	n := int64(int32(binary.BigEndian.Uint32(hdr[1:]))) - 4
	if n < 0 {
		return nil, protocolError("invalid message length")
	}
	if n > int64(limit) {
		if limit == f.maxData {
			return nil, protocolError("invalid message length: message of type %q is %d bytes, over the limit of %d bytes (max_message_size)",
				typ, n, limit)
		}
		return nil, protocolError("invalid message length: message of type %q is %d bytes, over the limit of %d bytes", typ, n, limit)
	}
	body, err := f.readBody(int(n))
	if err != nil {
		return nil, unexpectedEOF(err)
	}
	msg := f.message(typ)
	if err := msg.Decode(body); err != nil {
		return nil, protocolError("invalid message format: %v", err)
	}
	return msg, nil
}

// checkUTF8 is PostgreSQL's check of client text (query strings,
// parameters): 22021 naming the first invalid byte sequence.
func checkUTF8(s string) error {
	if utf8.ValidString(s) {
		return nil
	}
	return invalidUTF8([]byte(s))
}

func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readBody reads n bytes, into the reused buffer when small, else into a
// buffer that doubles as the bytes arrive.
func (f *frameReader) readBody(n int) ([]byte, error) {
	if n <= reusedBodySize {
		if cap(f.reused) < n {
			f.reused = make([]byte, reusedBodySize)
		}
		b := f.reused[:n]
		_, err := io.ReadFull(f.r, b)
		return b, err
	}
	b := make([]byte, 0, reusedBodySize)
	for len(b) < n {
		if len(b) == cap(b) {
			b = slices.Grow(b, min(cap(b), n-len(b)))
		}
		k, err := io.ReadFull(f.r, b[len(b):min(cap(b), n)])
		b = b[:len(b)+k]
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// message returns a fresh message of type typ (limit already checked it).
func (f *frameReader) message(typ byte) pgproto3.FrontendMessage {
	switch typ {
	case 'Q':
		return &pgproto3.Query{}
	case 'P':
		return &pgproto3.Parse{}
	case 'B':
		return &pgproto3.Bind{}
	case 'd':
		return &pgproto3.CopyData{}
	case 'F':
		return &pgproto3.FunctionCall{}
	case 'C':
		return &pgproto3.Close{}
	case 'D':
		return &pgproto3.Describe{}
	case 'E':
		return &pgproto3.Execute{}
	case 'H':
		return &pgproto3.Flush{}
	case 'S':
		return &pgproto3.Sync{}
	case 'X':
		return &pgproto3.Terminate{}
	case 'c':
		return &pgproto3.CopyDone{}
	case 'f':
		return &pgproto3.CopyFail{}
	}
	panic(fmt.Sprintf("wire: no message for type %q", typ))
}
