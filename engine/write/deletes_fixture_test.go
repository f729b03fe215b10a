package write

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// TestDeletionVectorsMatchFixtures decodes the deletion vectors Spark and
// Trino wrote and re-encodes their positions: the blobs must be the same
// bytes.
func TestDeletionVectorsMatchFixtures(t *testing.T) {
	for _, name := range []string{"impala__iceberg_v3_deletion_vectors", "lithium__deletion_vectors"} {
		t.Run(name, func(t *testing.T) {
			tbl, tasks := loadFixture(t, name)
			seen := 0
			for _, task := range tasks {
				for _, d := range task.Deletes {
					if d.ContentOffset == nil || d.ContentSizeInBytes == nil {
						continue
					}
					f, err := tbl.IO.Open(context.Background(), d.Path)
					if err != nil {
						t.Fatal(err)
					}
					blob := make([]byte, *d.ContentSizeInBytes)
					_, err = f.ReadAt(blob, *d.ContentOffset)
					f.Close()
					if err != nil && err != io.EOF {
						t.Fatal(err)
					}
					pos := decodeDV(t, blob)
					if int64(len(pos)) != d.RecordCount {
						t.Errorf("%s: %d positions, record count %d", d.Path, len(pos), d.RecordCount)
					}
					mine, err := encodeDeletionVector(pos)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(mine, blob) {
						t.Errorf("%s at %d: encoded\n% x\nwant\n% x", d.Path, *d.ContentOffset, mine, blob)
					}
					seen++
				}
			}
			if seen == 0 {
				t.Fatal("no deletion vectors in the current snapshot")
			}
		})
	}
}
