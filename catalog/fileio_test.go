package catalog

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

func TestResolvePrefixStyles(t *testing.T) {
	fx := fixtures.Dir(t)
	root := filepath.Dir(fx)
	for _, tc := range []struct {
		name, folder, written, want string
	}{
		{"impala absolute", "impala__iceberg_partitioned",
			"/test-warehouse/iceberg_test/iceberg_partitioned/data/event_time_hour=2020-01-01-09/action=click/00019-19-e36a1955-f01c-4e08-9f19-dcec0cbceadd-00000.parquet",
			"data/event_time_hour=2020-01-01-09/action=click/00019-19-e36a1955-f01c-4e08-9f19-dcec0cbceadd-00000.parquet"},
		{"hdfs with authority", "impala__iceberg_partitioned",
			"hdfs://localhost:20500/test-warehouse/iceberg_test/iceberg_partitioned/data/event_time_hour=2020-01-01-09/action=click/00019-19-e36a1955-f01c-4e08-9f19-dcec0cbceadd-00000.parquet",
			"data/event_time_hour=2020-01-01-09/action=click/00019-19-e36a1955-f01c-4e08-9f19-dcec0cbceadd-00000.parquet"},
		{"hdfs v3", "impala__iceberg_v3_all_types",
			"hdfs://localhost:20500/test-warehouse/iceberg_v3_all_types/data/00000-7-3180aeb0-e342-4d28-87ad-87847496148c-0-00001.parquet",
			"data/00000-7-3180aeb0-e342-4d28-87ad-87847496148c-0-00001.parquet"},
		{"s3", "lithium__refdeletes3",
			"s3://warehouse/prod/db/refdeletes3/data/00000-26-3221b69e-b966-4966-b438-81696899d868-00001-deletes.parquet",
			"data/00000-26-3221b69e-b966-4966-b438-81696899d868-00001-deletes.parquet"},
		{"s3a", "lithium__no_partitioning",
			"s3a://warehouse/no_partitioning/data/20250310_161728_00004_i9wr4-40df733f-a909-4d83-8516-ac48ad8965c0.parquet",
			"data/20250310_161728_00004_i9wr4-40df733f-a909-4d83-8516-ac48ad8965c0.parquet"},
		{"file:// relative", "duckdb__map_stats",
			"file://data/persistent/map_stats/default.db/map_stats/data/_day=2026-01-01/00000-0-8ed9efb3-5eb4-4225-a66a-2b6b46cb4d32.parquet",
			"data/_day=2026-01-01/00000-0-8ed9efb3-5eb4-4225-a66a-2b6b46cb4d32.parquet"},
		{"file: absolute", "duckdb__map_stats",
			"file:/elsewhere/map_stats/data/_day=2026-01-01/00000-0-8ed9efb3-5eb4-4225-a66a-2b6b46cb4d32.parquet",
			"data/_day=2026-01-01/00000-0-8ed9efb3-5eb4-4225-a66a-2b6b46cb4d32.parquet"},
		{"repo relative", "duckdb__uuid",
			"data/persistent/uuid/data/00000-0-dc76d6b0-77d0-4fd4-b3e9-555a901bc481-00001.parquet",
			"data/00000-0-dc76d6b0-77d0-4fd4-b3e9-555a901bc481-00001.parquet"},
		{"short relative", "duckdb__lineitem_iceberg",
			"lineitem_iceberg/data/00000-1-66fee7c2-c97c-4af9-963d-930afd99ace4-00001.parquet",
			"data/00000-1-66fee7c2-c97c-4af9-963d-930afd99ace4-00001.parquet"},
		{"dot relative", "duckdb__lineitem_iceberg",
			"./lineitem_iceberg/data/00000-1-66fee7c2-c97c-4af9-963d-930afd99ace4-00001.parquet",
			"data/00000-1-66fee7c2-c97c-4af9-963d-930afd99ace4-00001.parquet"},
		{"gs bucket", "duckdb__big_query_error",
			"gs://laura-test-test-bucket/table_name/data/bc12018c-b4ed-4ed8-adcb-a41cea51206d-3175699a3a6392ba-f-00000-of-00001.parquet",
			"data/bc12018c-b4ed-4ed8-adcb-a41cea51206d-3175699a3a6392ba-f-00000-of-00001.parquet"},
		{"sibling storage location", "impala__iceberg_multiple_storage_locations/iceberg_multiple_storage_locations",
			"/test-warehouse/iceberg_test/hadoop_catalog/ice/iceberg_multiple_storage_locations_data01/col_int=1/00001-1-7ac79643-e19f-4294-914e-7b122aff576c-00001.parquet",
			"../iceberg_multiple_storage_locations_data01/col_int=1/00001-1-7ac79643-e19f-4294-914e-7b122aff576c-00001.parquet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tableDir := filepath.Join(fx, filepath.FromSlash(tc.folder))
			fio := NewLocalIO(tableDir, root, nil)
			want := filepath.Join(tableDir, filepath.FromSlash(tc.want))
			for range 2 { // second call: from the directory cache
				got, err := fio.Resolve(tc.written)
				if err != nil || got != want {
					t.Fatalf("Resolve = %q, %v; want %q", got, err, want)
				}
			}
			f, err := fio.Open(context.Background(), tc.written)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, err := os.Stat(want)
			if err != nil || f.Size() != st.Size() {
				t.Fatalf("size %d, stat %v %v", f.Size(), st, err)
			}
			magic := make([]byte, 4)
			if _, err := f.ReadAt(magic, 0); err != nil && !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			if string(magic) != "PAR1" {
				t.Errorf("magic %q", magic)
			}
		})
	}
}

func TestResolveSpellingsCompareEqual(t *testing.T) {
	fx := fixtures.Dir(t)
	fio := NewLocalIO(filepath.Join(fx, "impala__iceberg_v2_delete_positional"), filepath.Dir(fx), nil)
	tasks := planCurrent(t, loadFixture(t, "impala__iceberg_v2_delete_positional"))
	if len(tasks) == 0 {
		t.Fatal("no tasks")
	}
	written := tasks[0].File.Path // "/test-warehouse/..."
	a, err := fio.Resolve(written)
	if err != nil {
		t.Fatal(err)
	}
	// Delete files of this table name data files with an hdfs:// prefix.
	b, err := fio.Resolve("hdfs://localhost:20500" + written)
	if err != nil || a != b {
		t.Fatalf("%q vs %q (%v)", a, b, err)
	}
	c, err := fio.Resolve("hdfs://localhost:20500" + filepath.Dir(written) + "/./" + filepath.Base(written))
	if err != nil || c != a {
		t.Fatalf("%q vs %q (%v)", c, a, err)
	}
}

func TestResolveExplicitPrefix(t *testing.T) {
	fx := fixtures.Dir(t)
	root := filepath.Dir(fx)
	fio := NewLocalIO(filepath.Join(fx, "lithium__no_partitioning"), root, map[string]string{
		"s3a://warehouse/no_partitioning/": filepath.Join("iceberg", "lithium__partition_evolution"),
		"s3a://warehouse/":                 "/nowhere",
	})
	got, err := fio.Resolve("s3a://warehouse/no_partitioning/data/x.parquet")
	if want := filepath.Join(fx, "lithium__partition_evolution", "data", "x.parquet"); err != nil || got != want {
		t.Errorf("longest prefix: %q, %v; want %q", got, err, want)
	}
	got, err = fio.Resolve("s3a://warehouse/other/y.parquet")
	if want := "/nowhere/other/y.parquet"; err != nil || got != want {
		t.Errorf("shorter prefix: %q, %v; want %q", got, err, want)
	}
}

func TestResolveMissing(t *testing.T) {
	fx := fixtures.Dir(t)
	fio := NewLocalIO(filepath.Join(fx, "lithium__no_partitioning"), filepath.Dir(fx), nil)
	const written = "s3a://warehouse/no_partitioning/nodir/missing.parquet"
	if _, err := fio.Resolve(written); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve: %v, want ErrNotFound", err)
	}
	_, err := fio.Open(context.Background(), written)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Open: %v, want ErrNotFound", err)
	}
	if !strings.Contains(err.Error(), written) {
		t.Errorf("error %q does not name %s", err, written)
	}
	// A missing file in a known directory resolves (the same way every
	// time) and fails to open.
	const inData = "s3a://warehouse/no_partitioning/data/missing.parquet"
	p, err := fio.Resolve(inData)
	if want := filepath.Join(fx, "lithium__no_partitioning", "data", "missing.parquet"); err != nil || p != want {
		t.Errorf("Resolve(%s) = %q, %v", inData, p, err)
	}
	// It is named relative to the table's directory, with 58P01.
	if _, err := fio.Open(context.Background(), inData); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"data/missing.parquet"`) ||
		pgerr.Code(err) != pgerr.UndefinedFile {
		t.Errorf("Open missing: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fio.Open(ctx, inData); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with canceled context: %v", err)
	}
}

func TestStripScheme(t *testing.T) {
	for in, want := range map[string]string{
		"s3://bucket/a/b":             "/a/b",
		"s3a://warehouse/x":           "/x",
		"hdfs://localhost:20500/t/x":  "/t/x",
		"file:///tmp/x":               "/tmp/x",
		"file:/tmp/x":                 "/tmp/x",
		"file://data/persistent/x":    "/persistent/x",
		"gs://b":                      "",
		"/plain/path":                 "/plain/path",
		"relative/path":               "relative/path",
		"./lineitem_iceberg/metadata": "./lineitem_iceberg/metadata",
		"dir/with:colon/x":            "dir/with:colon/x",
	} {
		if got := stripScheme(in); got != want {
			t.Errorf("stripScheme(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestResolveConfined: written paths never lead out of the warehouse or a
// prefix target; a table directory that is itself a symbolic link (made
// by the warehouse's owner) is read where it leads.
func TestResolveConfined(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "wh")
	real := filepath.Join(dir, "elsewhere", "t")
	for _, d := range []string{filepath.Join(root, "ns"), filepath.Join(real, "data"), filepath.Join(dir, "mapped")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(real, "data", "a.parquet"), filepath.Join(dir, "mapped", "b.parquet"), filepath.Join(dir, "secret")} {
		if err := os.WriteFile(f, []byte("PAR1"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tableDir := filepath.Join(root, "ns", "t")
	if err := os.Symlink(real, tableDir); err != nil {
		t.Fatal(err)
	}
	fio := NewLocalIO(tableDir, root, map[string]string{"s3://b/": filepath.Join(dir, "mapped")})
	ctx := context.Background()
	for _, ok := range []string{"s3://x/t/data/a.parquet", "s3://b/b.parquet"} {
		f, err := fio.Open(ctx, ok)
		if err != nil {
			t.Errorf("Open(%s): %v", ok, err)
			continue
		}
		f.Close()
	}
	for _, bad := range []string{"s3://b/../secret", "data/../../../secret", "../secret", "s3://x/t/data/../../../../secret"} {
		_, err := fio.Open(ctx, bad)
		if !errors.Is(err, ErrOutsideWarehouse) || pgerr.Code(err) != pgerr.InsufficientPrivilege {
			t.Errorf("Open(%s): %v, want 42501", bad, err)
		}
	}
}

func TestHasDotDot(t *testing.T) {
	for p, want := range map[string]bool{
		"..": true, "../a": true, "a/..": true, "a/../b": true, "/a/b/../c": true, "s3://b/x/../y": true,
		"a..b": false, "...": false, "a/...": false, "a/..b/c": false, "a/b..": false, "": false, "a/b/c": false, "..a/../b": true,
	} {
		if got := hasDotDot(p); got != want {
			t.Errorf("hasDotDot(%q) = %v, want %v", p, got, want)
		}
	}
}
