package write

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

func TestWriteDeletesRejects(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version int
		props   map[string]string
		code    string
		message string
	}{
		{"format version 1", 1, nil, pgerr.FeatureNotSupported, "format version 1"},
		{"format version 4", 4, nil, pgerr.FeatureNotSupported, "format version 4"},
		{"orc delete files", 2, map[string]string{propDeleteFormat: "orc"}, pgerr.FeatureNotSupported, "ORC delete files"},
		{"orc data files", 2, map[string]string{propFormat: "orc"}, pgerr.FeatureNotSupported, "ORC delete files"},
		{"unknown delete format", 2, map[string]string{propDeleteFormat: "csv"}, pgerr.InvalidParameterValue, propDeleteFormat},
		{"unknown granularity", 2, map[string]string{propDeleteGranularity: "row"}, pgerr.InvalidParameterValue, propDeleteGranularity},
		{"bad delete codec", 2, map[string]string{"write.delete.parquet.compression-codec": "zip"}, pgerr.InvalidParameterValue,
			"write.delete.parquet.compression-codec"},
		{"bad delete avro codec", 2, map[string]string{propDeleteFormat: "avro", "write.delete.avro.compression-codec": "zip"},
			pgerr.InvalidParameterValue, "write.delete.avro.compression-codec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dt := newDeleteTable(t, 2, false, nil)
			dt.meta.FormatVersion = tc.version
			dt.meta.Properties = tc.props
			before := len(listFiles(t, dt.dir))
			_, err := WriteDeletes(context.Background(), dt.deleteSpec(), []FileDeletes{{File: dt.files[0], Positions: []int64{0}}})
			wantCode(t, err, tc.code)
			if !strings.Contains(err.Error(), tc.message) {
				t.Errorf("error %q does not name %q", err, tc.message)
			}
			if after := len(listFiles(t, dt.dir)); after != before {
				t.Errorf("%d files left behind", after-before)
			}
		})
	}
}

// failingFiles writes local files but fails the create numbered failAt
// (from 0),.
type failingFiles struct {
	LocalFiles
	failAt  int
	creates int
}

var errInjected = errors.New("injected failure")

func (f *failingFiles) Create(path string) (io.WriteCloser, error) {
	n := f.creates
	f.creates++
	if n == f.failAt {
		return nil, errInjected
	}
	return f.LocalFiles.Create(path)
}

func TestWriteDeletesRemovesFilesOnError(t *testing.T) {
	dt := newDeleteTable(t, 2, true, nil)
	deletes, _ := dt.deleteEvery(func(int, int64) bool { return true })
	before := len(listFiles(t, dt.dir))
	t.Run("create fails", func(t *testing.T) {
		spec := dt.deleteSpec()
		fw := &failingFiles{failAt: 2}
		spec.IO = fw
		_, err := WriteDeletes(context.Background(), spec, deletes)
		if !errors.Is(err, errInjected) {
			t.Fatalf("error = %v, want the injected failure", err)
		}
		if fw.creates != 3 {
			t.Errorf("creates = %d, want 3", fw.creates)
		}
		if after := len(listFiles(t, dt.dir)); after != before {
			t.Errorf("%d files left behind", after-before)
		}
	})
	t.Run("context canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		for _, version := range []int{2, 3} {
			dt.meta.FormatVersion = version
			_, err := WriteDeletes(ctx, dt.deleteSpec(), deletes)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("v%d: error = %v, want context canceled", version, err)
			}
			if after := len(listFiles(t, dt.dir)); after != before {
				t.Errorf("v%d: %d files left behind", version, after-before)
			}
		}
	})
	t.Run("no positions", func(t *testing.T) {
		got, err := WriteDeletes(context.Background(), dt.deleteSpec(), []FileDeletes{{File: dt.files[0]}})
		if err != nil || got != nil {
			t.Errorf("WriteDeletes = %v, %v; want nothing", got, err)
		}
		if after := len(listFiles(t, dt.dir)); after != before {
			t.Errorf("%d files written", after-before)
		}
	})
	t.Run("negative position", func(t *testing.T) {
		_, err := WriteDeletes(context.Background(), dt.deleteSpec(), []FileDeletes{{File: dt.files[0], Positions: []int64{-1, 2}}})
		if err == nil || !strings.Contains(err.Error(), "negative") {
			t.Errorf("error = %v, want a negative position error", err)
		}
	})
}
