package orcfile

import (
	"bytes"
	"fmt"
	"github.com/klauspost/compress/flate"
	"io"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Compression is the compression kind of an ORC file (PostScript).
type Compression int

// The compression kinds, numbered as in the file format.
const (
	CompressionNone Compression = iota
	CompressionZlib
	CompressionSnappy
	CompressionLZO
	CompressionLZ4
	CompressionZstd
)

var compressionNames = [...]string{"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD"}

func (c Compression) String() string {
	if c >= 0 && int(c) < len(compressionNames) {
		return compressionNames[c]
	}
	return fmt.Sprintf("compression(%d)", int(c))
}

// decompressor undoes the file's compression: a stream is a sequence of
// chunks, each behind a 3-byte little-endian header holding the chunk
// length shifted left by one and, in the low bit, whether the chunk is
// stored uncompressed.
type decompressor struct {
	kind      Compression
	blockSize int
	zstd      *zstd.Decoder
	flate     io.ReadCloser // reused across zlib chunks
	src       bytes.Reader
}

func newDecompressor(kind Compression, blockSize int) (*decompressor, error) {
	d := &decompressor{kind: kind, blockSize: blockSize}
	switch kind {
	case CompressionNone, CompressionZlib, CompressionSnappy, CompressionLZ4:
	case CompressionZstd:
		z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("zstd decoder: %w", err)
		}
		d.zstd = z
	default:
		return nil, &UnsupportedError{What: fmt.Sprintf("ORC files with %s compression", kind)}
	}
	return d, nil
}

func (d *decompressor) close() {
	if d.zstd != nil {
		d.zstd.Close()
	}
	if d.flate != nil {
		d.flate.Close()
	}
}

// decode returns the uncompressed bytes of a whole stream.
func (d *decompressor) decode(b []byte) ([]byte, error) {
	if d.kind == CompressionNone {
		return b, nil
	}
	out := make([]byte, 0, len(b)*3)
	for len(b) > 0 {
		if len(b) < 3 {
			return nil, fmt.Errorf("truncated compression chunk header")
		}
		h := int(b[0]) | int(b[1])<<8 | int(b[2])<<16
		b = b[3:]
		n := h >> 1
		if n > len(b) {
			return nil, fmt.Errorf("compression chunk of %d bytes overruns the stream (%d left)", n, len(b))
		}
		chunk := b[:n]
		b = b[n:]
		if h&1 == 1 {
			out = append(out, chunk...)
			continue
		}
		var err error
		out, err = d.chunk(out, chunk)
		if err != nil {
			return nil, fmt.Errorf("%s chunk: %w", d.kind, err)
		}
	}
	return out, nil
}

func (d *decompressor) chunk(out, chunk []byte) ([]byte, error) {
	switch d.kind {
	case CompressionZlib:
		d.src.Reset(chunk)
		if d.flate == nil {
			d.flate = flate.NewReader(&d.src)
		} else if err := d.flate.(flate.Resetter).Reset(&d.src, nil); err != nil {
			return nil, err
		}
		for {
			if len(out) == cap(out) {
				out = append(out, 0)[:len(out)]
			}
			n, err := d.flate.Read(out[len(out):cap(out)])
			out = out[:len(out)+n]
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
		}
	case CompressionSnappy:
		n, err := snappy.DecodedLen(chunk)
		if err != nil {
			return nil, err
		}
		start := len(out)
		out = grow(out, n)
		if _, err := snappy.Decode(out[start:start+n], chunk); err != nil {
			return nil, err
		}
		return out, nil
	case CompressionZstd:
		return d.zstd.DecodeAll(chunk, out)
	case CompressionLZ4:
		start := len(out)
		out = grow(out, d.blockSize)
		n, err := lz4.UncompressBlock(chunk, out[start:start+d.blockSize])
		if err != nil {
			return nil, err
		}
		return out[:start+n], nil
	}
	return nil, fmt.Errorf("unsupported compression %s", d.kind)
}

// grow extends b by n bytes (contents of the new bytes unspecified).
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), 2*cap(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}

// UnsupportedError reports a valid ORC feature this package does not read.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return "reading " + e.What + " is not supported" }
