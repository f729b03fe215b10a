package catalog

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// attachedDeletes gives, for fixtures where it differs from the number of
// live delete files, how many distinct delete files apply to some data file.
var attachedDeletes = map[string]map[string]int{
	// README quirk 5: dangling position deletes apply to nothing.
	"lithium__dangling_deletes":                             {},
	"impala__iceberg_spark_compaction_with_dangling_delete": {},
	// Flink commits each batch's data file with its equality deletes at one
	// sequence number: the newest equality delete has no older data file
	// (in its partition) to apply to.
	"impala__iceberg_v2_delete_both_eq_and_pos":              {"position_delete": 1, "equality_delete": 1},
	"impala__iceberg_v2_delete_equality":                     {"equality_delete": 2},
	"impala__iceberg_v2_delete_equality_partition_evolution": {"equality_delete": 1},
	"impala__iceberg_v2_delete_equality_partitioned":         {"equality_delete": 2},
	"impala__iceberg_v2_delete_pos_and_multi_eq_ids":         {"position_delete": 1, "equality_delete": 2},
}

func TestPlanEveryFixture(t *testing.T) {
	fx := fixtures.Dir(t)
	tables := loadFixtureTables(t)
	cat, err := NewFilesystem("fixtures", filepath.Dir(fx), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	ctx := context.Background()
	for _, name := range names {
		ft := tables[name]
		t.Run(name, func(t *testing.T) {
			tbl, err := cat.LoadTable(ctx, fixtureIdent(name, ft))
			if err != nil {
				t.Fatalf("LoadTable: %v", err)
			}
			if !strings.HasSuffix(tbl.MetadataLocation, filepath.FromSlash(ft.CurrentMetadata)) {
				t.Errorf("metadata %s, want .../%s", tbl.MetadataLocation, ft.CurrentMetadata)
			}
			if tbl.Metadata.FormatVersion != ft.FormatVersion {
				t.Errorf("format version %d, want %d", tbl.Metadata.FormatVersion, ft.FormatVersion)
			}
			snap := tbl.Metadata.CurrentSnapshot()
			switch {
			case ft.CurrentSnapshotID == nil && snap != nil:
				t.Fatalf("current snapshot %d, want none", snap.SnapshotID)
			case ft.CurrentSnapshotID != nil && snap == nil:
				t.Fatalf("no current snapshot, want %d", *ft.CurrentSnapshotID)
			case snap != nil && snap.SnapshotID != *ft.CurrentSnapshotID:
				t.Fatalf("current snapshot %d, want %d", snap.SnapshotID, *ft.CurrentSnapshotID)
			}
			tasks, err := PlanFiles(ctx, tbl, snap)
			if err != nil {
				t.Fatalf("PlanFiles: %v", err)
			}
			var records int64
			deletes := map[*DataFile]bool{}
			kinds := map[string]int{}
			for _, task := range tasks {
				records += task.File.RecordCount
				if task.Spec == nil {
					t.Errorf("task %s has no spec", task.File.Path)
				} else if len(task.File.Partition) != len(task.Spec.Fields) {
					t.Errorf("task %s: %d partition values for %d spec fields", task.File.Path, len(task.File.Partition), len(task.Spec.Fields))
				}
				if _, err := tbl.IO.Resolve(task.File.Path); err != nil {
					t.Errorf("data file does not resolve: %v", err)
				}
				for _, d := range task.Deletes {
					if !deletes[d] {
						deletes[d] = true
						kinds[deleteKind(d)]++
						if _, err := tbl.IO.Resolve(d.Path); err != nil {
							t.Errorf("delete file does not resolve: %v", err)
						}
					}
				}
			}
			if len(tasks) != ft.CurrentLiveFiles["data"] {
				t.Errorf("%d tasks, want %d live data files", len(tasks), ft.CurrentLiveFiles["data"])
			}
			if records != ft.CurrentRecordCounts["data"] {
				t.Errorf("%d records, want %d", records, ft.CurrentRecordCounts["data"])
			}
			live := liveDeleteKinds(t, tbl, snap)
			for _, kind := range []string{"position_delete", "equality_delete", "deletion_vector"} {
				if live[kind] != ft.CurrentLiveFiles[kind] {
					t.Errorf("%d live %s files in manifests, want %d", live[kind], kind, ft.CurrentLiveFiles[kind])
				}
				want := ft.CurrentLiveFiles[kind]
				if override, ok := attachedDeletes[name]; ok {
					want = override[kind]
				}
				if kinds[kind] != want {
					t.Errorf("%d distinct %s files attached, want %d", kinds[kind], kind, want)
				}
			}
		})
	}
}

func deleteKind(d *DataFile) string {
	switch {
	case d.Content == ContentEqualityDelete:
		return "equality_delete"
	case d.Format == FormatPuffin:
		return "deletion_vector"
	}
	return "position_delete"
}

// liveDeleteKinds counts the live delete files of snap's delete manifests.
func liveDeleteKinds(t *testing.T, tbl *Table, snap *Snapshot) map[string]int {
	t.Helper()
	out := map[string]int{}
	if snap == nil {
		return out
	}
	ctx := context.Background()
	list, err := ReadManifestList(ctx, tbl.IO, snap)
	if err != nil {
		t.Fatal(err)
	}
	for i := range list {
		m, err := ReadManifest(ctx, tbl.IO, &list[i])
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range m.Entries {
			if e.Status != StatusDeleted && e.File.Content != ContentData {
				out[deleteKind(e.File)]++
			}
		}
	}
	return out
}

// TestPlanEverySnapshot plans every snapshot of every fixture (time travel):
// live data files and their record counts match tables.json, and a snapshot
// whose manifest list is missing (README quirk 7) fails with ErrNotFound.
func TestPlanEverySnapshot(t *testing.T) {
	fx := fixtures.Dir(t)
	tables := loadFixtureTables(t)
	cat, err := NewFilesystem("fixtures", filepath.Dir(fx), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, ft := range tables {
		tbl, err := cat.LoadTable(ctx, fixtureIdent(name, ft))
		if err != nil {
			t.Fatalf("%s: LoadTable: %v", name, err)
		}
		for _, ps := range ft.PerSnapshot {
			snap := tbl.Metadata.SnapshotByID(ps.SnapshotID)
			if snap == nil {
				// README quirk 1: the metadata JSON holds a rounded id.
				continue
			}
			if snap.SequenceNumber != ps.SequenceNumber {
				t.Errorf("%s@%d: sequence number %d, want %d", name, ps.SnapshotID, snap.SequenceNumber, ps.SequenceNumber)
			}
			tasks, err := PlanFiles(ctx, tbl, snap)
			if name == "duckdb__equality_deletes_mytable" && ps.SnapshotID == 7342794868382145167 {
				if !errors.Is(err, ErrNotFound) {
					t.Errorf("%s@%d: err %v, want ErrNotFound", name, ps.SnapshotID, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s@%d: %v", name, ps.SnapshotID, err)
				continue
			}
			var records int64
			for _, task := range tasks {
				records += task.File.RecordCount
			}
			if len(tasks) != ps.LiveFiles["data"] || records != ps.RecordCounts["data"] {
				t.Errorf("%s@%d: %d tasks / %d records, want %d / %d", name, ps.SnapshotID, len(tasks), records, ps.LiveFiles["data"], ps.RecordCounts["data"])
			}
		}
	}
}

// TestPlanRemovedSpec: README quirk 6 generalized. With the spec its files
// were written with removed from metadata, planning still returns every
// task, with the spec the manifest header records.
func TestPlanRemovedSpec(t *testing.T) {
	tbl := loadFixture(t, "lithium__partition_evolution")
	meta := *tbl.Metadata
	meta.PartitionSpecs = []*PartitionSpec{tbl.Metadata.SpecByID(1)}
	trimmed := *tbl
	trimmed.Metadata = &meta
	tasks := planCurrent(t, &trimmed)
	if len(tasks) != 7 {
		t.Fatalf("%d tasks, want 7", len(tasks))
	}
	var fromHeader int
	for _, task := range tasks {
		if task.Spec == nil {
			t.Fatalf("task %s without spec", task.File.Path)
		}
		if task.File.SpecID == 0 {
			fromHeader++
			want := []PartitionField{
				{SourceID: 1, FieldID: 1000, Name: "c1", Transform: Transform{Name: "identity"}},
				{SourceID: 2, FieldID: 1001, Name: "c2", Transform: Transform{Name: "identity"}},
			}
			if task.Spec.ID != 0 || !slices.Equal(task.Spec.Fields, want) || len(task.File.Partition) != 2 {
				t.Errorf("spec from header %+v, partition %v", task.Spec, task.File.Partition)
			}
		}
	}
	if fromHeader != 6 {
		t.Errorf("%d files of the removed spec, want 6", fromHeader)
	}
}
