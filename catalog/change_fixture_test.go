package catalog

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// TestChangeFixtureCopies changes copies of fixture tables written by other
// engines (changeFixtureSample: v1, v2, v3, foreign path prefixes, every
// kind of deletes, evolved specs, several storage locations):
// in v2+ a delete file for a live data file (v3: a DV, replacing the one
// the file has), then the removal of that data file with its new delete
// file, named by its local path (a different spelling where the fixture's
// paths have a foreign prefix). The other files keep their deletes,
// snapshot ids, sequence numbers and row ids.
func TestChangeFixtureCopies(t *testing.T) {
	ctx := context.Background()
	fx := fixtures.Dir(t)
	tables := loadFixtureTables(t)
	for _, folder := range changeFixtureSample(tables) {
		t.Run(folder, func(t *testing.T) {
			ft := tables[folder]
			root := filepath.Join(t.TempDir(), "wh")
			copyTree(t, filepath.Join(fx, folder), filepath.Join(root, "iceberg", folder))
			cat, err := NewFilesystem("copy", root, nil)
			if err != nil {
				t.Fatal(err)
			}
			id := fixtureIdent(folder, ft)
			tbl, err := cat.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			before := planCurrent(t, tbl)
			if len(before) == 0 {
				t.Fatal("fixture has no live files")
			}
			src := before[0].File
			local, err := tbl.IO.Resolve(src.Path)
			if err != nil {
				t.Fatal(err)
			}
			version := tbl.Metadata.FormatVersion
			var added *DataFile
			if version >= 2 {
				change := &Change{ReferencedDataFiles: []string{local}, BaseSnapshotID: headID(tbl), Isolation: SnapshotIsolation}
				if version >= 3 {
					added = fakeDV(tbl, "change-dv", 4, src, 1)
					for _, d := range before[0].Deletes {
						if isDV(d) {
							change.RemovedDeleteFiles = append(change.RemovedDeleteFiles, d)
						}
					}
				} else {
					added = fakePosDeletes(tbl, "change", src, 1)
				}
				change.AddedDeleteFiles = []*DataFile{added}
				tbl = mustCommit(t, cat, id, change)
				found := false
				for _, task := range planCurrent(t, tbl) {
					if task.File.Path == src.Path {
						found = slices.ContainsFunc(task.Deletes, func(d *DataFile) bool { return d.Path == added.Path })
						want := len(before[0].Deletes) + 1 - len(change.RemovedDeleteFiles)
						if len(task.Deletes) != want {
							t.Errorf("%d deletes for the changed file, want %d", len(task.Deletes), want)
						}
					}
				}
				if !found {
					t.Fatal("the new delete file is not planned for its data file")
				}
			}
			removed := *src
			removed.Path = local
			change := &Change{RemovedDataFiles: []*DataFile{&removed}, ReferencedDataFiles: []string{local}, BaseSnapshotID: headID(tbl), Isolation: SnapshotIsolation}
			if added != nil {
				change.RemovedDeleteFiles = []*DataFile{added}
			}
			parent := tbl.Metadata.CurrentSnapshot()
			tbl = mustCommit(t, cat, id, change)
			snap := tbl.Metadata.CurrentSnapshot()
			if tbl.Metadata.FormatVersion != ft.FormatVersion {
				t.Errorf("format version %d, want %d", tbl.Metadata.FormatVersion, ft.FormatVersion)
			}
			wantSummary(t, snap, map[string]string{"operation": "delete", "deleted-data-files": "1", "deleted-records": strconv.FormatInt(src.RecordCount, 10)})
			if prev, err := strconv.ParseInt(parent.Summary["total-records"], 10, 64); err == nil {
				wantSummary(t, snap, map[string]string{"total-records": strconv.FormatInt(prev-src.RecordCount, 10)})
			}
			after := planCurrent(t, tbl)
			if len(after) != len(before)-1 {
				t.Fatalf("%d live files after removing one of %d", len(after), len(before))
			}
			was := map[string]FileScanTask{}
			for _, task := range before[1:] {
				was[task.File.Path] = task
			}
			for _, task := range after {
				old, ok := was[task.File.Path]
				f := task.File
				switch {
				case !ok:
					t.Errorf("%s is live but was not", f.Path)
				case len(task.Deletes) != len(old.Deletes):
					t.Errorf("%s: %d deletes, was %d", f.Path, len(task.Deletes), len(old.Deletes))
				case f.SnapshotID != old.File.SnapshotID || f.DataSequenceNumber != old.File.DataSequenceNumber || f.FileSequenceNumber != old.File.FileSequenceNumber:
					t.Errorf("%s: snapshot %d seq %d/%d, was %d seq %d/%d", f.Path, f.SnapshotID, f.DataSequenceNumber, f.FileSequenceNumber,
						old.File.SnapshotID, old.File.DataSequenceNumber, old.File.FileSequenceNumber)
				case (f.FirstRowID == nil) != (old.File.FirstRowID == nil) || (f.FirstRowID != nil && *f.FirstRowID != *old.File.FirstRowID):
					t.Errorf("%s: first row id %v, was %v", f.Path, f.FirstRowID, old.File.FirstRowID)
				}
			}
		})
	}
}

// changeFixtureSample picks the fixtures TestChangeFixtureCopies changes
// (copying all of them takes long): the first three of each kind (format
// version and the kinds of files live), and those whose names tell of
// evolved specs and schemas, migrated tables, dangling deletes and several
// storage locations. TestAppendToFixtureCopies walks them all.
func changeFixtureSample(tables map[string]fixtureTable) []string {
	folders := make([]string, 0, len(tables))
	for f := range tables {
		folders = append(folders, f)
	}
	slices.Sort(folders)
	perKind := map[string]int{}
	var out []string
	for _, f := range folders {
		ft := tables[f]
		kinds := make([]string, 0, len(ft.CurrentLiveFiles))
		for k := range ft.CurrentLiveFiles {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		kind := strconv.Itoa(ft.FormatVersion) + strings.Join(kinds, ",")
		perKind[kind]++
		special := false
		for _, word := range []string{"evolution", "migrated", "dangling", "multiple_storage"} {
			special = special || strings.Contains(f, word)
		}
		if perKind[kind] <= 3 || special {
			out = append(out, f)
		}
	}
	return out
}
