// Package orctest writes small ORC files for tests of the ORC reader:
// hand-encoded streams in stripes, stripe footers, the footer with its
// types and the postscript, compressed as asked. It encodes only what
// tests give it; it is not a general writer.
package orctest

import (
	"bytes"
	"fmt"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"google.golang.org/protobuf/encoding/protowire"
)

// Compression kinds, numbered as in the file format.
const (
	None   = 0
	Zlib   = 1
	Snappy = 2
	LZ4    = 4
	Zstd   = 5
)

// Stream kinds and type kinds the tests use, numbered as in the format.
const (
	StreamPresent = 0
	StreamData    = 1
	StreamLength  = 2

	KindLong   = 4
	KindString = 7
	KindStruct = 12
	KindUnion  = 13
)

// Stream is one stream of a stripe.
type Stream struct {
	Column, Kind int
	Data         []byte
}

// Builder accumulates an ORC file.
type Builder struct {
	comp    int
	buf     []byte
	stripes [][]byte
	rows    int
}

// New starts a file with compression comp.
func New(comp int) *Builder {
	return &Builder{comp: comp, buf: []byte("ORC")}
}

// compress frames raw as the file's compression does: the first half as a
// compressed chunk, the rest as a chunk stored original.
func (b *Builder) compress(raw []byte) ([]byte, error) {
	if b.comp == None {
		return raw, nil
	}
	half := len(raw) / 2
	var c []byte
	switch b.comp {
	case Zlib:
		var w bytes.Buffer
		fw, err := flate.NewWriter(&w, flate.BestCompression)
		if err != nil {
			return nil, err
		}
		fw.Write(raw[:half])
		fw.Close()
		c = w.Bytes()
	case Snappy:
		c = snappy.Encode(nil, raw[:half])
	case Zstd:
		enc, err := zstd.NewWriter(nil)
		if err != nil {
			return nil, err
		}
		c = enc.EncodeAll(raw[:half], nil)
		enc.Close()
	case LZ4:
		c = make([]byte, lz4.CompressBlockBound(half))
		n, err := lz4.CompressBlock(raw[:half], c, nil)
		if err != nil {
			return nil, err
		}
		c = c[:n]
	default:
		return nil, fmt.Errorf("orctest: compression %d", b.comp)
	}
	var out []byte
	if half > 0 && len(c) > 0 {
		out = append(out, byte(len(c)<<1), byte(len(c)>>7), byte(len(c)>>15))
		out = append(out, c...)
	} else {
		half = 0
	}
	rest := raw[half:]
	out = append(out, byte(len(rest)<<1|1), byte(len(rest)>>7), byte(len(rest)>>15))
	return append(out, rest...), nil
}

// Varint appends a varint field to a protobuf message.
func Varint(dst []byte, num int, v uint64) []byte {
	dst = protowire.AppendTag(dst, protowire.Number(num), protowire.VarintType)
	return protowire.AppendVarint(dst, v)
}

// Bytes appends a length-delimited field to a protobuf message.
func Bytes(dst []byte, num int, v []byte) []byte {
	dst = protowire.AppendTag(dst, protowire.Number(num), protowire.BytesType)
	return protowire.AppendBytes(dst, v)
}

// Stripe appends a stripe of rows with the streams given and DIRECT
// (RLE v1) encodings for columns columns.
func (b *Builder) Stripe(rows, columns int, streams []Stream) error {
	offset := len(b.buf)
	var footer []byte
	for _, s := range streams {
		data, err := b.compress(s.Data)
		if err != nil {
			return err
		}
		b.buf = append(b.buf, data...)
		var sm []byte
		sm = Varint(sm, 1, uint64(s.Kind))
		sm = Varint(sm, 2, uint64(s.Column))
		sm = Varint(sm, 3, uint64(len(data)))
		footer = Bytes(footer, 1, sm)
	}
	dataLen := len(b.buf) - offset
	for range columns {
		footer = Bytes(footer, 2, Varint(nil, 1, 0))
	}
	footer = Bytes(footer, 3, []byte("UTC"))
	cf, err := b.compress(footer)
	if err != nil {
		return err
	}
	b.buf = append(b.buf, cf...)
	var info []byte
	info = Varint(info, 1, uint64(offset))
	info = Varint(info, 2, 0)
	info = Varint(info, 3, uint64(dataLen))
	info = Varint(info, 4, uint64(len(cf)))
	info = Varint(info, 5, uint64(rows))
	b.stripes = append(b.stripes, info)
	b.rows += rows
	return nil
}

// Finish appends the footer with types (encoded Type messages, see Type)
// and the postscript, and returns the file.
func (b *Builder) Finish(types [][]byte) ([]byte, error) {
	var footer []byte
	footer = Varint(footer, 1, 3)
	footer = Varint(footer, 2, uint64(len(b.buf)-3))
	for _, s := range b.stripes {
		footer = Bytes(footer, 3, s)
	}
	for _, t := range types {
		footer = Bytes(footer, 4, t)
	}
	footer = Varint(footer, 6, uint64(b.rows))
	cf, err := b.compress(footer)
	if err != nil {
		return nil, err
	}
	b.buf = append(b.buf, cf...)
	var ps []byte
	ps = Varint(ps, 1, uint64(len(cf)))
	ps = Varint(ps, 2, uint64(b.comp))
	ps = Varint(ps, 3, 256*1024)
	ps = Bytes(ps, 4, []byte{0, 12})
	ps = Bytes(ps, 8000, []byte("ORC"))
	b.buf = append(b.buf, ps...)
	return append(b.buf, byte(len(ps))), nil
}

// Type encodes a Type message.
func Type(kind int, subtypes []byte, names []string, attrs map[string]string) []byte {
	var m []byte
	m = Varint(m, 1, uint64(kind))
	if subtypes != nil {
		m = Bytes(m, 2, subtypes)
	}
	for _, n := range names {
		m = Bytes(m, 3, []byte(n))
	}
	for k, v := range attrs {
		m = Bytes(m, 7, Bytes(Bytes(nil, 1, []byte(k)), 2, []byte(v)))
	}
	return m
}

// V1Literals encodes up to 128 integers as RLE v1 literals.
func V1Literals(signed bool, vals ...int64) []byte {
	out := []byte{byte(-int8(len(vals)))}
	for _, v := range vals {
		if signed {
			out = protowire.AppendVarint(out, protowire.EncodeZigZag(v))
		} else {
			out = protowire.AppendVarint(out, uint64(v))
		}
	}
	return out
}

// LZO is the compression kind the reader does not support.
const LZO = 3

// TailOnly returns a file of only a tail whose postscript declares
// compression comp, with a one-byte footer that is never valid: enough to
// test how opening reacts to the compression kind.
func TailOnly(comp int) []byte {
	out := []byte("ORC\x00")
	var ps []byte
	ps = Varint(ps, 1, 1)
	ps = Varint(ps, 2, uint64(comp))
	ps = Bytes(ps, 8000, []byte("ORC"))
	out = append(out, ps...)
	return append(out, byte(len(ps)))
}
