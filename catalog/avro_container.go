package catalog

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/zstd"
)

// maxAvroBlock bounds one decompressed Avro block (manifests are small).
const maxAvroBlock = 1 << 30

// avroContainer is an Avro object container file split into its header
// metadata and its (still compressed) blocks.
type avroContainer struct {
	meta   map[string][]byte
	codec  string
	blocks []avroBlock
	count  int // records in all blocks
}

type avroBlock struct {
	count int
	data  []byte
}

// readContainer parses the framing of an Avro object container file.
func readContainer(data []byte) (*avroContainer, error) {
	bad := func(what string) error { return fmt.Errorf("avro container: %s: %w", what, ErrDataInvalid) }
	if len(data) < 4 || string(data[:4]) != "Obj\x01" {
		return nil, bad("bad magic")
	}
	r := &avroReader{buf: data[4:]}
	c := &avroContainer{meta: make(map[string][]byte), codec: "null"}
	for {
		n := r.long()
		if n == 0 || r.err != nil {
			break
		}
		if n < 0 {
			n = -n
			r.long() // block size in bytes
		}
		for range n {
			k := r.bytes()
			v := r.bytes()
			if r.err != nil {
				break
			}
			c.meta[string(k)] = v
		}
	}
	sync := r.fixed(16)
	if r.err != nil {
		return nil, bad("truncated header")
	}
	if codec, ok := c.meta["avro.codec"]; ok && len(codec) > 0 {
		c.codec = string(codec)
	}
	if _, ok := c.meta["avro.schema"]; !ok {
		return nil, bad("no schema")
	}
	for len(r.buf) > 0 {
		count := r.long()
		size := r.long()
		if r.err != nil || count < 0 || size < 0 || size > int64(len(r.buf)) {
			return nil, bad("bad block header")
		}
		blk := r.fixed(int(size))
		if !bytes.Equal(r.fixed(16), sync) || r.err != nil {
			return nil, bad("bad sync marker")
		}
		if count > 0 {
			c.blocks = append(c.blocks, avroBlock{count: int(count), data: blk})
			c.count += int(count)
		}
	}
	return c, nil
}

// decompress returns a block's records as bytes.
// Deflate decompressors are reused through cache when it is not nil.
func (c *avroContainer) decompress(blk []byte, cache *fileCache) ([]byte, error) {
	switch c.codec {
	case "null":
		return blk, nil
	case "deflate":
		var fr io.ReadCloser
		if cache != nil {
			if v, ok := cache.inflaters.Get().(io.ReadCloser); ok {
				if v.(flate.Resetter).Reset(bytes.NewReader(blk), nil) == nil {
					fr = v
				}
			}
		}
		if fr == nil {
			fr = flate.NewReader(bytes.NewReader(blk))
		}
		out, err := io.ReadAll(io.LimitReader(fr, maxAvroBlock))
		if cache != nil {
			cache.inflaters.Put(fr)
		}
		if err != nil {
			return nil, fmt.Errorf("avro deflate block: %w: %w", ErrDataInvalid, err)
		}
		return out, nil
	case "snappy":
		if len(blk) < 4 {
			return nil, fmt.Errorf("avro snappy block: %w", ErrDataInvalid)
		}
		out, err := snappy.Decode(nil, blk[:len(blk)-4])
		if err != nil {
			return nil, fmt.Errorf("avro snappy block: %w: %w", ErrDataInvalid, err)
		}
		if crc32.ChecksumIEEE(out) != binary.BigEndian.Uint32(blk[len(blk)-4:]) {
			return nil, fmt.Errorf("avro snappy block: checksum mismatch: %w", ErrDataInvalid)
		}
		return out, nil
	case "zstandard":
		dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxAvroBlock))
		if err != nil {
			return nil, fmt.Errorf("avro zstandard block: %w", err)
		}
		defer dec.Close()
		out, err := dec.DecodeAll(blk, nil)
		if err != nil {
			return nil, fmt.Errorf("avro zstandard block: %w: %w", ErrDataInvalid, err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("avro codec %q: %w", c.codec, ErrUnsupported)
}

// avroReader reads Avro binary primitives; the first error sticks.
type avroReader struct {
	buf []byte
	err error
}

func (r *avroReader) long() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *avroReader) fixed(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.buf) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	b := r.buf[:n:n]
	r.buf = r.buf[n:]
	return b
}

func (r *avroReader) bytes() []byte {
	n := r.long()
	return r.fixed(int(n))
}
