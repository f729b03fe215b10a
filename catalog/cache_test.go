package catalog

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// TestRepeatedPlanReadsNoManifests: after a first LoadTable + PlanFiles,
// planning the unchanged table again is served from the catalog's cache,
// shown by removing the manifest lists and manifests in between.
func TestRepeatedPlanReadsNoManifests(t *testing.T) {
	root := t.TempDir()
	dst := filepath.Join(root, "ns", "refdeletes3")
	copyTree(t, filepath.Join(fixtures.Dir(t), "lithium__refdeletes3"), dst)
	cat, err := NewFilesystem("tmp", root, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id := Identifier{Namespace: []string{"ns"}, Name: "refdeletes3"}
	plan := func() (int, int) {
		tbl, err := cat.LoadTable(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
		if err != nil {
			t.Fatal(err)
		}
		var deletes int
		for _, task := range tasks {
			deletes += len(task.Deletes)
		}
		return len(tasks), deletes
	}
	tasks1, deletes1 := plan()
	if tasks1 != 6 || deletes1 != 6 {
		t.Fatalf("first plan: %d tasks, %d deletes; want 6, 6", tasks1, deletes1)
	}
	avros, _ := filepath.Glob(filepath.Join(dst, "metadata", "*.avro"))
	if len(avros) == 0 {
		t.Fatal("no manifests copied")
	}
	for _, p := range avros {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if tasks2, deletes2 := plan(); tasks2 != tasks1 || deletes2 != deletes1 {
		t.Errorf("cached plan: %d tasks, %d deletes; want %d, %d", tasks2, deletes2, tasks1, deletes1)
	}

	// A fresh catalog has no cache: the missing manifest list is reported.
	fresh, err := NewFilesystem("tmp", root, nil)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fresh.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot()); err == nil || !strings.Contains(err.Error(), "snap-") {
		t.Errorf("plan without manifests: %v, want ErrNotFound naming the manifest list", err)
	} else if !errors.Is(err, ErrNotFound) {
		t.Errorf("plan without manifests: %v is not ErrNotFound", err)
	}
}

func TestFileCacheEvicts(t *testing.T) {
	c := newFileCache(2)
	c.put("a", 1)
	c.put("b", 2)
	if v, ok := c.get("a"); !ok || v != 1 {
		t.Fatalf("a = %v, %v", v, ok)
	}
	c.put("c", 3) // evicts b, the least recently used
	if _, ok := c.get("b"); ok {
		t.Error("b not evicted")
	}
	if _, ok := c.get("a"); !ok {
		t.Error("a evicted")
	}
	if c.len() != 2 {
		t.Errorf("len %d", c.len())
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentPlans plans tables from several goroutines sharing one
// catalog (and its caches).
func TestConcurrentPlans(t *testing.T) {
	fx := fixtures.Dir(t)
	cat, err := NewFilesystem("fixtures", filepath.Dir(fx), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"lithium__refdeletes3", "impala__iceberg_v2_delete_positional", "lithium__identity_partitioning", "duckdb__lineitem_iceberg_gz"}
	errs := make(chan error, 4*len(names))
	for range 4 {
		for _, n := range names {
			go func() {
				tbl, err := cat.LoadTable(context.Background(), Identifier{Namespace: []string{"iceberg"}, Name: n})
				if err == nil {
					_, err = PlanFiles(context.Background(), tbl, tbl.Metadata.CurrentSnapshot())
				}
				errs <- err
			}()
		}
	}
	for range 4 * len(names) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
