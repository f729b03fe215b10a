package scan

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/icegate/icegate/catalog"
)

// dvMagic opens a deletion-vector-v1 blob (Puffin spec "Blob types").
var dvMagic = []byte{0xD1, 0xD3, 0x39, 0x64}

// loadDeletionVector reads the deletion vector blob a v3 delete entry
// points at: a 4-byte big-endian length of magic plus vector, the magic,
// a portable 64-bit roaring bitmap, and a big-endian CRC-32 of magic and
// vector. It returns the deleted positions in increasing order.
func (s *scanRun) loadDeletionVector(ctx context.Context, df *catalog.DataFile) ([]int64, error) {
	if df.ContentOffset == nil || df.ContentSizeInBytes == nil {
		return nil, fmt.Errorf("deletion vector %s has no content offset or size", df.Path)
	}
	off, size := *df.ContentOffset, *df.ContentSizeInBytes
	key := fmt.Sprintf("dv:%s@%d+%d", df.Path, off, size)
	v, err := s.cache.get(ctx, key, func() (any, error) {
		f, err := s.spec.Table.IO.Open(ctx, df.Path)
		if err != nil {
			return nil, fmt.Errorf("open deletion vector %s: %w", df.Path, err)
		}
		defer f.Close()
		if size < 12 || off < 0 || off+size > f.Size() {
			return nil, fmt.Errorf("deletion vector %s: blob [%d, +%d) outside file of %d bytes", df.Path, off, size, f.Size())
		}
		blob := make([]byte, size)
		if _, err := f.ReadAt(blob, off); err != nil && err != io.EOF {
			return nil, fmt.Errorf("read deletion vector %s: %w", df.Path, err)
		}
		pos, err := decodeDeletionVector(blob)
		if err != nil {
			return nil, fmt.Errorf("deletion vector %s at %d: %w", df.Path, off, err)
		}
		return pos, nil
	})
	if err != nil {
		return nil, s.fileError(df, err)
	}
	return v.([]int64), nil
}

func decodeDeletionVector(blob []byte) ([]int64, error) {
	n := int(binary.BigEndian.Uint32(blob[:4]))
	if n < 4 || 4+n+4 > len(blob) {
		return nil, fmt.Errorf("blob length %d does not fit %d bytes", n, len(blob))
	}
	body := blob[4 : 4+n]
	if !bytes.Equal(body[:4], dvMagic) {
		return nil, fmt.Errorf("bad magic % x", body[:4])
	}
	want := binary.BigEndian.Uint32(blob[4+n : 8+n])
	if got := crc32.ChecksumIEEE(body); got != want {
		return nil, fmt.Errorf("checksum %08x, want %08x", got, want)
	}
	bm := roaring64.New()
	if _, err := bm.ReadFrom(bytes.NewReader(body[4:])); err != nil {
		return nil, fmt.Errorf("decode bitmap: %w", err)
	}
	vals := bm.ToArray()
	out := make([]int64, len(vals))
	for i, x := range vals {
		out[i] = int64(x)
	}
	return out, nil
}
