package write

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/icegate/icegate/catalog"
)

// parsePuffinFooter checks the framing of a Puffin file and returns its
// footer's metadata.
func parsePuffinFooter(t *testing.T, data []byte) puffinFileMetadata {
	t.Helper()
	if len(data) < 16 || !bytes.Equal(data[:4], puffinMagic) || !bytes.Equal(data[len(data)-4:], puffinMagic) {
		t.Fatalf("puffin file does not start and end with the magic: % x", data)
	}
	n := int(binary.LittleEndian.Uint32(data[len(data)-12:]))
	if flags := binary.LittleEndian.Uint32(data[len(data)-8:]); flags != 0 {
		t.Errorf("footer flags = %d, want 0", flags)
	}
	start := len(data) - 12 - n - 4
	if start < 4 || !bytes.Equal(data[start:start+4], puffinMagic) {
		t.Fatalf("footer payload of %d bytes is not preceded by the magic", n)
	}
	var meta puffinFileMetadata
	if err := json.Unmarshal(data[start+4:start+4+n], &meta); err != nil {
		t.Fatalf("footer payload: %v", err)
	}
	return meta
}

// decodeDV decodes a deletion-vector-v1 blob, checking length, magic and
// checksum.
func decodeDV(t *testing.T, blob []byte) []int64 {
	t.Helper()
	n := int(binary.BigEndian.Uint32(blob))
	if n+8 != len(blob) || !bytes.Equal(blob[4:8], dvMagic) {
		t.Fatalf("blob of %d bytes: length %d, magic % x", len(blob), n, blob[4:8])
	}
	if got, want := binary.BigEndian.Uint32(blob[4+n:]), crc32.ChecksumIEEE(blob[4:4+n]); got != want {
		t.Fatalf("checksum %08x, want %08x", got, want)
	}
	bm := roaring64.New()
	if _, err := bm.ReadFrom(bytes.NewReader(blob[8 : 4+n])); err != nil {
		t.Fatalf("decode bitmap: %v", err)
	}
	var out []int64
	for _, v := range bm.ToArray() {
		out = append(out, int64(v))
	}
	return out
}

func TestPuffinFooterAndBlobs(t *testing.T) {
	dt := newDeleteTable(t, 3, false, nil)
	a, b := dt.files[0], dt.files[1]
	want := map[string][]int64{a.Path: {0, 2, 4}, b.Path: {3}}
	dels, err := WriteDeletes(context.Background(), dt.deleteSpec(), []FileDeletes{
		{File: b, Positions: want[b.Path]}, {File: a, Positions: want[a.Path]}})
	if err != nil {
		t.Fatal(err)
	}
	if len(dels) != 2 || dels[0].Path != dels[1].Path {
		t.Fatalf("want two deletion vectors in one file, got %d", len(dels))
	}
	data, err := os.ReadFile(dels[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	meta := parsePuffinFooter(t, data)
	if meta.Properties["created-by"] == "" {
		t.Errorf("footer has no created-by: %v", meta.Properties)
	}
	if len(meta.Blobs) != 2 {
		t.Fatalf("footer lists %d blobs, want 2", len(meta.Blobs))
	}
	for i, d := range dels {
		bm := meta.Blobs[i]
		ref := *d.ReferencedDataFile
		if bm.Type != "deletion-vector-v1" || !slices.Equal(bm.Fields, []int{2147483645}) ||
			bm.SnapshotID != -1 || bm.SequenceNumber != -1 {
			t.Errorf("blob %d metadata = %+v", i, bm)
		}
		if bm.Offset != *d.ContentOffset || bm.Length != *d.ContentSizeInBytes {
			t.Errorf("blob %d at %d+%d, data file says %d+%d", i, bm.Offset, bm.Length, *d.ContentOffset, *d.ContentSizeInBytes)
		}
		if bm.Properties["referenced-data-file"] != ref || bm.Properties["cardinality"] != strconv.Itoa(len(want[ref])) {
			t.Errorf("blob %d properties = %v", i, bm.Properties)
		}
		if d.RecordCount != int64(len(want[ref])) || d.FileSizeInBytes != int64(len(data)) || d.Format != catalog.FormatPuffin {
			t.Errorf("data file %d = records %d size %d format %s", i, d.RecordCount, d.FileSizeInBytes, d.Format)
		}
		if got := decodeDV(t, data[bm.Offset:bm.Offset+bm.Length]); !slices.Equal(got, want[ref]) {
			t.Errorf("blob %d positions = %v, want %v", i, got, want[ref])
		}
	}
	// The first blob follows the header magic; blobs are ordered by path.
	if *dels[0].ContentOffset != 4 || *dels[0].ReferencedDataFile > *dels[1].ReferencedDataFile {
		t.Errorf("first blob at %d for %s", *dels[0].ContentOffset, *dels[0].ReferencedDataFile)
	}
}

func TestEncodeDeletionVector(t *testing.T) {
	run := make([]int64, 5000)
	for i := range run {
		run[i] = int64(i) + 100
	}
	for _, tc := range []struct {
		name string
		pos  []int64
	}{
		{"one", []int64{0}},
		{"sparse", []int64{1, 7, 65535, 65536, 1 << 20}},
		{"run", run},
		{"beyond 32 bits", []int64{3, 1<<32 - 1, 1 << 32, 1<<33 + 5, 1<<62 + 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blob, err := encodeDeletionVector(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			if got := decodeDV(t, blob); !slices.Equal(got, tc.pos) {
				t.Errorf("positions = %v, want %v", got, tc.pos)
			}
		})
	}
	// A run of positions is stored as a run container: far smaller than
	// an array of 5000 positions.
	blob, _ := encodeDeletionVector(run)
	if len(blob) > 64 {
		t.Errorf("run of 5000 positions takes %d bytes", len(blob))
	}
	if _, err := encodeDeletionVector([]int64{-1}); err == nil {
		t.Error("negative position accepted")
	}
}

// TestWritePuffinRoundTrip: blobs with properties written by WritePuffin
// read back by ParsePuffin; the footer size returned is the footer's.
func TestWritePuffinRoundTrip(t *testing.T) {
	blobs := []PuffinBlob{
		{Type: "apache-datasketches-theta-v1", Fields: []int{1}, SnapshotID: 7, SequenceNumber: 3,
			Properties: map[string]string{"ndv": "12"}, Data: []byte{1, 3, 3, 0, 0, 0x1e, 0, 0}},
		{Type: "apache-datasketches-theta-v1", Fields: []int{2}, SnapshotID: 7, SequenceNumber: 3,
			Properties: map[string]string{"ndv": "0"}, Data: []byte{9, 9}},
	}
	var buf bytes.Buffer
	size, footer, err := WritePuffin(&buf, blobs)
	if err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if size != int64(len(data)) {
		t.Fatalf("size %d, file has %d bytes", size, len(data))
	}
	// The footer starts right after the last blob.
	if want := int64(len(data)) - (4 + 8 + 2); footer != want {
		t.Errorf("footer size %d, want %d", footer, want)
	}
	meta := parsePuffinFooter(t, data)
	if len(meta.Blobs) != 2 || meta.Blobs[0].Properties["ndv"] != "12" || meta.Blobs[1].Offset != 12 {
		t.Errorf("footer %+v", meta)
	}
	got, props, err := ParsePuffin(data)
	if err != nil {
		t.Fatal(err)
	}
	if props["created-by"] == "" || len(got) != 2 || !bytes.Equal(got[0].Data, blobs[0].Data) ||
		!bytes.Equal(got[1].Data, blobs[1].Data) || got[1].Fields[0] != 2 || got[0].SnapshotID != 7 || got[0].SequenceNumber != 3 {
		t.Errorf("parsed %+v %v", got, props)
	}
	if _, _, err := ParsePuffin(data[:len(data)-1]); err == nil {
		t.Error("a truncated file parsed")
	}
}
