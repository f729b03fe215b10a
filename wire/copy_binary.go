package wire

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// COPY's binary format: a header (signature, flags, extension area), one
// tuple per row (field count, then each field's length and its binary
// value, -1 for NULL), and a trailer (field count -1). A tuple's fields are
// what a DataRow message carries.

// copyBinarySignature starts every binary COPY stream.
var copyBinarySignature = []byte("PGCOPY\n\xff\r\n\x00")

// copyBinaryHeader is the signature, no flags and an empty extension area.
var copyBinaryHeader = append(append([]byte{}, copyBinarySignature...), 0, 0, 0, 0, 0, 0, 0, 0)

// nextTuple is nextRecord for the binary format: the raw bytes of the next
// tuple (field count included). A tuple counts as one line.
func (p *copyParser) nextTuple(atEOF bool) (raw []byte, ok bool, err error) {
	buf := p.buf[p.pos:]
	if !p.headerDone {
		if len(buf) < len(copyBinarySignature)+8 && !atEOF {
			return nil, false, nil
		}
		if len(buf) < len(copyBinarySignature) || !bytes.Equal(buf[:len(copyBinarySignature)], copyBinarySignature) {
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "COPY file signature not recognized")
		}
		buf = buf[len(copyBinarySignature):]
		if len(buf) < 4 {
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "invalid COPY file header (missing flags)")
		}
		flags := binary.BigEndian.Uint32(buf)
		if flags&(1<<16) != 0 {
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "invalid COPY file header (WITH OIDS)")
		}
		if flags&0xfffe0000 != 0 {
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "unrecognized critical flags in COPY file header")
		}
		if len(buf) < 8 {
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "invalid COPY file header (missing length)")
		}
		ext := int32(binary.BigEndian.Uint32(buf[4:]))
		if ext < 0 {
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "invalid COPY file header (missing length)")
		}
		if len(buf)-8 < int(ext) {
			if !atEOF {
				return nil, false, nil
			}
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "invalid COPY file header (wrong length)")
		}
		p.pos += len(copyBinarySignature) + 8 + int(ext)
		p.headerDone = true
		buf = p.buf[p.pos:]
	}
	if len(buf) < 2 {
		// The end of the input without a trailer ends the data, as in
		// PostgreSQL.
		return nil, false, nil
	}
	count := int16(binary.BigEndian.Uint16(buf))
	if count == -1 {
		p.done = true
		p.pos += 2
		p.line++ // the trailer counts as a line, as in PostgreSQL
		if len(buf) > 2 {
			return nil, false, errDataAfterTrailer()
		}
		return nil, false, nil
	}
	if int(count) != p.ncols {
		p.line++
		return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "row field count is %d, expected %d", count, p.ncols)
	}
	off := 2
	for k := range int(count) {
		if len(buf)-off < 4 {
			return p.shortTuple(atEOF, k)
		}
		n := int32(binary.BigEndian.Uint32(buf[off:]))
		off += 4
		if n == -1 {
			continue
		}
		if n < -1 {
			p.line++
			return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "invalid field size")
		}
		if len(buf)-off < int(n) {
			return p.shortTuple(atEOF, k)
		}
		off += int(n)
	}
	p.line++
	p.pos += off
	return buf[:off], true, nil
}

// shortTuple is the answer for a tuple cut short: more input, or an error
// at its end.
func (p *copyParser) shortTuple(atEOF bool, column int) ([]byte, bool, error) {
	if !atEOF {
		return nil, false, nil
	}
	p.line++
	p.errColumn = p.colNames[column]
	return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "unexpected EOF in COPY data")
}

// splitTuple decodes a tuple's binary values to their text form into
// p.fields (values in p.arena); a value's column goes to p.errColumn on
// error.
func (p *copyParser) splitTuple(raw []byte) error {
	p.fields = p.fields[:0]
	off := 2
	for k := range p.ncols {
		n := int32(binary.BigEndian.Uint32(raw[off:]))
		off += 4
		if n == -1 {
			p.fields = append(p.fields, fieldSpan{start: len(p.arena), end: len(p.arena), null: true})
			continue
		}
		s, err := decodeBinaryParam(raw[off:off+int(n)], p.oids[k])
		off += int(n)
		if err != nil {
			p.errColumn = p.colNames[k]
			return err
		}
		start := len(p.arena)
		p.arena = append(p.arena, s...)
		p.fields = append(p.fields, fieldSpan{start: start, end: len(p.arena)})
	}
	return nil
}

// binaryInputSupported reports whether wire decodes binary values of oid
// (decodeBinaryParam answers 0A000 for the others, whatever the value).
func binaryInputSupported(oid uint32) bool {
	_, err := decodeBinaryParam(nil, oid)
	return pgerr.Code(err) != pgerr.FeatureNotSupported
}

// typeName names oid for messages.
func typeName(oid uint32) string {
	if name := pgtypes.TypeName(oid); name != "" {
		return name
	}
	return fmt.Sprintf("OID %d", oid)
}

// appendBinaryTuple appends row i of the bound batch (of an encoder with
// binary formats) as a CopyData message, after prefix (the header, for the
// first row) in the same message: a DataRow's body is a tuple.
func appendBinaryTuple(dst, prefix []byte, enc *rowEncoder, i int) []byte {
	start := len(dst)
	if len(prefix) == 0 {
		dst = enc.appendRows(dst, i, i+1)
		dst[start] = 'd'
		return dst
	}
	dst = append(dst, 'd', 0, 0, 0, 0)
	dst = append(dst, prefix...)
	body := len(dst)
	dst = enc.appendRows(dst, i, i+1)
	// Drop the DataRow's own type byte and length.
	dst = append(dst[:body], dst[body+5:]...)
	binary.BigEndian.PutUint32(dst[start+1:], uint32(len(dst)-start-1))
	return dst
}

// appendCopyData appends data as one CopyData message.
func appendCopyData(dst, data []byte) []byte {
	dst = append(dst, 'd')
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(data)+4))
	return append(dst, data...)
}

func errDataAfterTrailer() error {
	return pgerr.New(pgerr.BadCopyFileFormat, "received copy data after EOF marker")
}
