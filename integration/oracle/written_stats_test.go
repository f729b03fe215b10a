package oracle

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/apache/iceberg-go/puffin"
	"github.com/apache/iceberg-go/table"
)

// TestIcegateStatsIcebergGoReads: icegate's CALL system.compute_table_stats
// writes a statistics file that iceberg-go finds in the table metadata and
// reads with its own Puffin reader: one apache-datasketches-theta-v1 blob
// per column for the current snapshot, the blob metadata in the table
// metadata equal to the file's footer, each blob a DataSketches compact
// theta sketch (serial version 3, seed hash of 9001) whose estimate is the
// ndv property and, for the columns with few values, their exact count.
func TestIcegateStatsIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	for _, q := range []string{
		"CREATE SCHEMA stats",
		"CREATE TABLE stats.t (id bigint, grp text, d date, price numeric(10,2))",
		"INSERT INTO stats.t SELECT g, 'g' || (g % 11), DATE '2024-01-01' + (g % 40), (g % 25) * 0.5 FROM generate_series(1, 20000) g",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("icegate %s: %v", q, err)
		}
	}
	var path string
	if err := conn.QueryRow(ctx, "CALL system.compute_table_stats('stats.t')").Scan(&path); err != nil {
		t.Fatalf("icegate compute_table_stats: %v", err)
	}

	tbl, err := loadTable(ctx, warehouse, table.Identifier{"stats", "t"})
	if err != nil {
		t.Fatal(err)
	}
	md := tbl.Metadata()
	stats := slices.Collect(md.Statistics())
	cur := md.CurrentSnapshot()
	if len(stats) != 1 || cur == nil || stats[0].SnapshotID != cur.SnapshotID || stats[0].StatisticsPath != path {
		t.Fatalf("iceberg-go reads statistics %+v, want one file %s for the current snapshot", stats, path)
	}
	sf := stats[0]
	fsys, err := tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f, err := fsys.Open(sf.StatisticsPath)
	if err != nil {
		t.Fatalf("open %s: %v", sf.StatisticsPath, err)
	}
	defer f.Close()
	size, err := f.Seek(0, 2)
	if err != nil || size != sf.FileSizeInBytes {
		t.Errorf("file size %d (%v), metadata says %d", size, err, sf.FileSizeInBytes)
	}
	r, err := puffin.NewReader(f)
	if err != nil {
		t.Fatalf("iceberg-go's puffin reader: %v", err)
	}
	footerLen := int64(binary.LittleEndian.Uint32(readTail(t, f, size)))
	if sf.FileFooterSizeInBytes != footerLen+16 {
		t.Errorf("file-footer-size-in-bytes %d, the footer has %d", sf.FileFooterSizeInBytes, footerLen+16)
	}

	schema := md.CurrentSchema()
	want := map[string]int64{"id": 20000, "grp": 11, "d": 40, "price": 25}
	blobs := r.Blobs()
	if len(blobs) != len(want) || len(sf.BlobMetadata) != len(want) {
		t.Fatalf("%d blobs in the file, %d in the metadata, want %d", len(blobs), len(sf.BlobMetadata), len(want))
	}
	for i, b := range blobs {
		mb := sf.BlobMetadata[i]
		if string(b.Type) != "apache-datasketches-theta-v1" || string(mb.Type) != string(b.Type) || b.CompressionCodec != nil ||
			len(b.Fields) != 1 || !slices.Equal(mb.Fields, b.Fields) || b.SnapshotID != cur.SnapshotID || mb.SnapshotID != cur.SnapshotID ||
			b.SequenceNumber != cur.SequenceNumber || mb.SequenceNumber != cur.SequenceNumber || mb.Properties["ndv"] != b.Properties["ndv"] {
			t.Errorf("blob %d: file %+v, metadata %+v", i, b, mb)
			continue
		}
		field, ok := schema.FindFieldByID(int(b.Fields[0]))
		if !ok {
			t.Errorf("blob %d names field %d, which the schema lacks", i, b.Fields[0])
			continue
		}
		data, err := r.ReadBlob(i)
		if err != nil {
			t.Fatalf("read blob %d: %v", i, err)
		}
		count, theta := decodeTheta(t, field.Name, data.Data)
		est := float64(count) / theta
		ndv, err := strconv.ParseInt(b.Properties["ndv"], 10, 64)
		if err != nil || ndv != int64(est) {
			t.Errorf("%s: ndv property %q, the sketch estimates %.3f", field.Name, b.Properties["ndv"], est)
		}
		n := want[field.Name]
		if n < 4096 && (theta != 1 || int64(count) != n) || math.Abs(est-float64(n))/float64(n) > 0.05 {
			t.Errorf("%s: sketch of %d hashes at theta %.4f estimates %.1f, want %d", field.Name, count, theta, est, n)
		}
	}
}

// readTail reads the footer's payload size field (the 12th to 9th last
// bytes of a Puffin file).
func readTail(t *testing.T, f io.ReaderAt, size int64) []byte {
	t.Helper()
	b := make([]byte, 4)
	if _, err := f.ReadAt(b, size-12); err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeTheta reads a DataSketches compact theta sketch of serial version
// 3 as the DataSketches format describes it (little-endian preamble of 1 to
// 3 longs: preamble longs, serial version, family 3, flags, seed hash; the
// count and p; theta) and returns its number of hashes and theta as a
// fraction, checking that the hashes are ordered and below theta.
func decodeTheta(t *testing.T, name string, b []byte) (int, float64) {
	t.Helper()
	if len(b) < 8 || b[1] != 3 || b[2] != 3 || b[5]&0x0a != 0x0a || b[5]&0x01 != 0 {
		t.Fatalf("%s: not a compact little-endian theta sketch of serial version 3: % x", name, b[:min(len(b), 8)])
	}
	pre := int(b[0] & 0x3f)
	if b[5]&0x04 != 0 { // empty
		return 0, 1
	}
	if seed := binary.LittleEndian.Uint16(b[6:]); seed != 0x93cc {
		t.Errorf("%s: seed hash %#x, want 0x93cc (seed 9001)", name, seed)
	}
	count, thetaLong := 1, int64(math.MaxInt64)
	if pre >= 2 {
		count = int(binary.LittleEndian.Uint32(b[8:]))
	}
	if pre == 3 {
		thetaLong = int64(binary.LittleEndian.Uint64(b[16:]))
	}
	if len(b) != 8*(pre+count) {
		t.Fatalf("%s: %d bytes for %d preamble longs and %d hashes", name, len(b), pre, count)
	}
	prev := int64(0)
	for i := 0; i < count; i++ {
		h := int64(binary.LittleEndian.Uint64(b[8*(pre+i):]))
		if h <= prev || h >= thetaLong {
			t.Fatalf("%s: hash %d (%d) out of order or not below theta", name, i, h)
		}
		prev = h
	}
	return count, float64(thetaLong) / float64(math.MaxInt64)
}
