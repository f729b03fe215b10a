package write

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Deletion vectors (Puffin spec, blob type deletion-vector-v1).
const (
	dvBlobType = "deletion-vector-v1"
	// rowPositionFieldID is the _pos metadata column, the field a
	// deletion vector's blob metadata names.
	rowPositionFieldID = 2147483645
)

// dvMagic follows the length prefix of a deletion-vector-v1 blob.
var dvMagic = []byte{0xD1, 0xD3, 0x39, 0x64}

// encodeDeletionVector serializes positions (ascending, non-negative) as a
// deletion-vector-v1 blob: the 4-byte big-endian length of magic plus
// vector, the magic, the 64-bit roaring bitmap in its portable
// serialization (run-optimized), and the big-endian CRC-32 of magic and
// vector.
func encodeDeletionVector(positions []int64) ([]byte, error) {
	bm := roaring64.New()
	for _, p := range positions {
		if p < 0 {
			return nil, fmt.Errorf("deletion vector: negative row position %d", p)
		}
		bm.Add(uint64(p))
	}
	bm.RunOptimize()
	var body bytes.Buffer
	body.Write(dvMagic)
	if _, err := bm.WriteTo(&body); err != nil {
		return nil, fmt.Errorf("serialize deletion vector: %w", err)
	}
	if body.Len() > 1<<31-1 {
		return nil, pgerr.Unsupported("deletion vectors larger than 2 GiB")
	}
	blob := make([]byte, 0, body.Len()+8)
	blob = binary.BigEndian.AppendUint32(blob, uint32(body.Len()))
	blob = append(blob, body.Bytes()...)
	blob = binary.BigEndian.AppendUint32(blob, crc32.ChecksumIEEE(body.Bytes()))
	return blob, nil
}

// deletionVectors writes one Puffin file with a deletion vector per
// target and returns a DataFile per vector. The file goes in the
// partition directory of its data files when they share one, else in the
// data directory.
func (w *deleteWriter) deletionVectors(targets []*deleteTarget) ([]*catalog.DataFile, error) {
	dir := strings.TrimRight(w.spec.DataDir, "/")
	if groups := groupTargets(targets, true); len(groups) == 1 {
		dir = w.partitionDir(targets[0].file.SpecID, targets[0].file.Partition)
	}
	path, out, err := w.create(dir, "puffin")
	if err != nil {
		return nil, err
	}
	files, err := w.writePuffin(path, out, targets)
	if cerr := out.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close %s: %w", path, cerr)
	}
	if err != nil {
		return nil, err
	}
	return files, nil
}

func (w *deleteWriter) writePuffin(path string, out io.Writer, targets []*deleteTarget) ([]*catalog.DataFile, error) {
	pw, err := newPuffinWriter(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	files := make([]*catalog.DataFile, 0, len(targets))
	for _, t := range targets {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
		blob, err := encodeDeletionVector(t.positions)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.file.Path, err)
		}
		card := int64(len(t.positions))
		off, size, err := pw.add(puffinBlobMetadata{Type: dvBlobType, Fields: []int{rowPositionFieldID},
			SnapshotID: -1, SequenceNumber: -1,
			Properties: map[string]string{
				"referenced-data-file": t.file.Path,
				"cardinality":          strconv.FormatInt(card, 10),
			}}, blob)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		ref := t.file.Path
		files = append(files, &catalog.DataFile{
			Content:            catalog.ContentPositionDelete,
			Path:               path,
			Format:             catalog.FormatPuffin,
			SpecID:             t.file.SpecID,
			Partition:          append([]any{}, t.file.Partition...),
			RecordCount:        card,
			ColumnSizes:        map[int]int64{},
			ValueCounts:        map[int]int64{},
			NullValueCounts:    map[int]int64{},
			NaNValueCounts:     map[int]int64{},
			LowerBounds:        map[int][]byte{},
			UpperBounds:        map[int][]byte{},
			ReferencedDataFile: &ref,
			ContentOffset:      &off,
			ContentSizeInBytes: &size,
		})
	}
	size, err := pw.finish()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, df := range files {
		df.FileSizeInBytes = size
	}
	return files, nil
}
