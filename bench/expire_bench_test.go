package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
)

// expireSnapshots is how many snapshots BenchmarkExpireSnapshots expires.
const expireSnapshots = 1000

// BenchmarkExpireSnapshots times expire_snapshots (catalog.ExpireSnapshots,
// what the procedure runs) of a table with 1,001 snapshots down to its
// last: the commit of the new metadata, then reading every expired
// snapshot's manifest list and manifests and the remaining snapshot's
// manifests, and deleting what only the expired ones reached. The table
// is built once, untimed, through catalog commits: 1,000 commits of one
// small data file each, where every tenth commit also removes the file
// committed five commits before it (so 100 data files become
// unreachable), then one last append; each iteration expires a fresh copy
// of it (the copy is untimed). Metadata files are pruned as written
// (previous-versions-max 5, delete-after-commit). It reports
// snapshots/s and the files deleted.
func BenchmarkExpireSnapshots(b *testing.B) {
	ctx := context.Background()
	template := filepath.Join(b.TempDir(), "template")
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "hist"}
	start := time.Now()
	buildHistory(b, template, id)
	b.Logf("built %d snapshots in %v", expireSnapshots+1, time.Since(start))
	var deleted int64
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		root := filepath.Join(b.TempDir(), fmt.Sprint("run", i))
		if out, err := exec.Command("cp", "-a", template, root).CombinedOutput(); err != nil {
			b.Fatalf("copy the table: %v: %s", err, out)
		}
		cat, err := catalog.NewFilesystem("icegate", root, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cat.LoadTable(ctx, id); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := catalog.ExpireSnapshots(ctx, cat, id, catalog.ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if len(res.ExpiredSnapshots) != expireSnapshots {
			b.Fatalf("expired %d snapshots, want %d", len(res.ExpiredSnapshots), expireSnapshots)
		}
		if res.DeletedDataFiles != expireSnapshots/10 || res.DeletedManifestLists != expireSnapshots {
			b.Fatalf("result %+v", res)
		}
		deleted = res.DeletedDataFiles + res.DeletedManifests + res.DeletedManifestLists
		b.StartTimer()
	}
	b.ReportMetric(float64(expireSnapshots)*float64(b.N)/b.Elapsed().Seconds(), "snapshots/s")
	b.ReportMetric(float64(deleted), "files_deleted")
}

// buildHistory creates table id under root with the history described at
// BenchmarkExpireSnapshots.
func buildHistory(b *testing.B, root string, id catalog.Identifier) {
	b.Helper()
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("icegate", root, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, id.Namespace, nil); err != nil {
		b.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, id, catalog.TableSpec{
		Schema: &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "id", Type: &catalog.PrimitiveType{ID: catalog.TLong}}}},
		Properties: map[string]string{
			catalog.PropPreviousVersionsMax: "5",
			catalog.PropDeleteAfterCommit:   "true",
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(root, "db", "hist")
	var files []*catalog.DataFile
	for i := range expireSnapshots + 1 {
		name := fmt.Sprintf("f%04d.parquet", i)
		if err := os.WriteFile(filepath.Join(dir, "data", name), []byte("PAR1"), 0o644); err != nil {
			b.Fatal(err)
		}
		f := &catalog.DataFile{Content: catalog.ContentData, Path: tbl.Metadata.Location + "/data/" + name,
			Format: catalog.FormatParquet, RecordCount: 1, FileSizeInBytes: 4}
		c := &catalog.Change{AddedDataFiles: []*catalog.DataFile{f}}
		if head := tbl.Metadata.CurrentSnapshot(); head != nil {
			id := head.SnapshotID
			c.BaseSnapshotID = &id
		}
		if i%10 == 9 && i < expireSnapshots {
			old := files[i-5]
			c.RemovedDataFiles = []*catalog.DataFile{old}
			c.ReferencedDataFiles = []string{old.Path}
		}
		if tbl, err = catalog.CommitChange(ctx, cat, id, c); err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
	}
	if err := cat.Close(ctx); err != nil {
		b.Fatal(err)
	}
}
