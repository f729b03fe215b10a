package catalog

import (
	"context"
	"strings"
	"testing"
)

// validationBase is the table every validation case starts from: a1 (red,
// 3 rows) and a2 (blue, 4 rows) appended, then d0, a position delete file
// of a1. base is the snapshot the case's change was computed from.
type validationBase struct {
	cat    *Filesystem
	id     Identifier
	tbl    *Table
	a1, a2 *DataFile
	d0     *DataFile
	base   *int64
}

func newValidationBase(t *testing.T, version int) *validationBase {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "v", version, nil)
	b := &validationBase{cat: cat, id: id, a1: fakeData(tbl, "a1", "red", 3), a2: fakeData(tbl, "a2", "blue", 4)}
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{b.a1, b.a2}})
	if version >= 3 {
		b.d0 = fakeDV(tbl, "p0", 4, b.a1, 1)
	} else {
		b.d0 = fakePosDeletes(tbl, "d0", b.a1, 1)
	}
	b.tbl = mustCommit(t, cat, id, &Change{AddedDeleteFiles: []*DataFile{b.d0}, ReferencedDataFiles: []string{b.a1.Path}, BaseSnapshotID: headID(tbl)})
	b.base = headID(b.tbl)
	return b
}

// TestValidateChange commits concurrent changes after a base and checks a
// change computed from the base against them, rule by rule.
func TestValidateChange(t *testing.T) {
	type changeOf func(b *validationBase) *Change
	snapshotIso := func(c *Change) *Change { c.Isolation = SnapshotIsolation; return c }
	removeA1 := func(b *validationBase) *Change {
		return snapshotIso(&Change{RemovedDataFiles: []*DataFile{b.a1}, RemovedDeleteFiles: []*DataFile{b.d0}, ReferencedDataFiles: []string{b.a1.Path}})
	}
	deleteFrom := func(name string, of func(*validationBase) *DataFile) changeOf {
		return func(b *validationBase) *Change {
			f := of(b)
			if b.tbl.Metadata.FormatVersion >= 3 {
				return snapshotIso(&Change{AddedDeleteFiles: []*DataFile{fakeDV(b.tbl, name, 4, f, 1)}, ReferencedDataFiles: []string{f.Path}})
			}
			return snapshotIso(&Change{AddedDeleteFiles: []*DataFile{fakePosDeletes(b.tbl, name, f, 1)}, ReferencedDataFiles: []string{f.Path}})
		}
	}
	a1 := func(b *validationBase) *DataFile { return b.a1 }
	a2 := func(b *validationBase) *DataFile { return b.a2 }
	refsOnly := func(of func(*validationBase) *DataFile) changeOf {
		return func(b *validationBase) *Change {
			return snapshotIso(&Change{AddedDeleteFiles: []*DataFile{fakePartitionDeletes(b.tbl, "mine", of(b).Partition[0].(string))}, ReferencedDataFiles: []string{of(b).Path}})
		}
	}
	removeCOW := func(of func(*validationBase) *DataFile) changeOf {
		return func(b *validationBase) *Change {
			f := of(b)
			return snapshotIso(&Change{RemovedDataFiles: []*DataFile{f}, AddedDataFiles: []*DataFile{fakeData(b.tbl, "rewritten", f.Partition[0].(string), 1)}, ReferencedDataFiles: []string{f.Path}})
		}
	}
	appendGreen := func(b *validationBase) *Change {
		return &Change{AddedDataFiles: []*DataFile{fakeData(b.tbl, "g1", "green", 5)}}
	}
	serializable := func(filter []Predicate, c changeOf) changeOf {
		return func(b *validationBase) *Change {
			ch := c(b)
			ch.Isolation, ch.ConflictFilter = Serializable, filter
			return ch
		}
	}
	category := func(v string) []Predicate { return []Predicate{{FieldID: 2, Op: OpEq, Values: []any{v}}} }
	cases := []struct {
		name       string
		version    int
		concurrent []changeOf
		change     changeOf
		conflict   string // a file name the error names; "" no conflict
	}{
		{"removed data file deleted from", 2, []changeOf{removeA1}, deleteFrom("mine", a1), "a1.parquet"},
		{"removed data file removed too", 2, []changeOf{removeA1}, removeCOW(a1), "a1.parquet"},
		{"removed other data file", 2, []changeOf{removeA1}, deleteFrom("mine", a2), ""},
		{"new file-scoped deletes", 2, []changeOf{deleteFrom("theirs", a1)}, refsOnly(a1), "theirs-deletes.parquet"},
		{"new file-scoped deletes of another file", 2, []changeOf{deleteFrom("theirs", a1)}, deleteFrom("mine", a2), ""},
		{"new deletes of a rewritten file", 2, []changeOf{deleteFrom("theirs", a2)}, removeCOW(a2), "theirs-deletes.parquet"},
		{"partition deletes, same partition", 2, []changeOf{func(b *validationBase) *Change {
			return &Change{AddedDeleteFiles: []*DataFile{fakePartitionDeletes(b.tbl, "theirs", "red")}}
		}}, removeCOW(a1), "theirs-deletes.parquet"},
		{"partition deletes, other partition", 2, []changeOf{func(b *validationBase) *Change {
			return &Change{AddedDeleteFiles: []*DataFile{fakePartitionDeletes(b.tbl, "theirs", "red")}}
		}}, removeCOW(a2), ""},
		{"partition deletes, partition unknown", 2, []changeOf{func(b *validationBase) *Change {
			return &Change{AddedDeleteFiles: []*DataFile{fakePartitionDeletes(b.tbl, "theirs", "red")}}
		}}, func(b *validationBase) *Change {
			return snapshotIso(&Change{AddedDeleteFiles: []*DataFile{fakePartitionDeletes(b.tbl, "mine", "blue")}, ReferencedDataFiles: []string{b.a2.Path}})
		}, "theirs-deletes.parquet"},
		{"equality deletes, same partition", 2, []changeOf{func(b *validationBase) *Change {
			return &Change{AddedDeleteFiles: []*DataFile{fakeEqDeletes(b.tbl, "theirs", "red")}}
		}}, deleteFrom("mine", a1), "theirs-eq.parquet"},
		{"equality deletes, other partition", 2, []changeOf{func(b *validationBase) *Change {
			return &Change{AddedDeleteFiles: []*DataFile{fakeEqDeletes(b.tbl, "theirs", "red")}}
		}}, deleteFrom("mine", a2), ""},
		{"removed delete file removed too", 2, []changeOf{func(b *validationBase) *Change {
			return &Change{RemovedDeleteFiles: []*DataFile{b.d0}}
		}}, func(b *validationBase) *Change {
			return snapshotIso(&Change{RemovedDeleteFiles: []*DataFile{b.d0}, AddedDeleteFiles: []*DataFile{fakePosDeletes(b.tbl, "merged", b.a1, 2)}, ReferencedDataFiles: []string{b.a1.Path}})
		}, "d0-deletes.parquet"},
		{"v3: new DV of the same file", 3, []changeOf{deleteFrom("theirs", a1)}, deleteFrom("mine", a1), "theirs.puffin"},
		{"v3: replaced DV replaced again", 3, []changeOf{func(b *validationBase) *Change {
			return snapshotIso(&Change{RemovedDeleteFiles: []*DataFile{b.d0}, AddedDeleteFiles: []*DataFile{fakeDV(b.tbl, "theirs", 4, b.a1, 2)}, ReferencedDataFiles: []string{b.a1.Path}})
		}}, func(b *validationBase) *Change {
			return snapshotIso(&Change{RemovedDeleteFiles: []*DataFile{b.d0}, AddedDeleteFiles: []*DataFile{fakeDV(b.tbl, "mine", 4, b.a1, 2)}, ReferencedDataFiles: []string{b.a1.Path}})
		}, "theirs.puffin"},
		{"v3: DV of another file", 3, []changeOf{deleteFrom("theirs", a2)}, deleteFrom("mine", a1), ""},
		{"serializable, no filter, concurrent append", 2, []changeOf{appendGreen}, serializable(nil, deleteFrom("mine", a2)), "g1.parquet"},
		{"serializable, filter rules the append out", 2, []changeOf{appendGreen}, serializable(category("blue"), deleteFrom("mine", a2)), ""},
		{"serializable, filter matches the append", 2, []changeOf{appendGreen}, serializable(category("green"), deleteFrom("mine", a2)), "g1.parquet"},
		{"serializable, filter on metrics", 2, []changeOf{appendGreen}, serializable([]Predicate{{FieldID: 2, Op: OpGt, Values: []any{"zzz"}}}, deleteFrom("mine", a2)), ""},
		{"serializable, compaction adds no rows", 2, []changeOf{func(b *validationBase) *Change {
			return &Change{Operation: "replace", AddedDataFiles: []*DataFile{fakeData(b.tbl, "g1", "green", 5)}, RemovedDataFiles: []*DataFile{fakeData(b.tbl, "a1", "red", 3)}, RemovedDeleteFiles: []*DataFile{b.d0}}
		}}, serializable(nil, deleteFrom("mine", a2)), ""},
		{"snapshot isolation ignores appends", 2, []changeOf{appendGreen}, deleteFrom("mine", a2), ""},
		{"appends are not validated", 2, []changeOf{removeA1}, serializable(nil, appendGreen), ""},
		{"conflict after unrelated snapshots", 2, []changeOf{appendGreen, deleteFrom("other", a2), removeA1}, deleteFrom("mine", a1), "a1.parquet"},
		{"base no longer an ancestor", 2, nil, func(b *validationBase) *Change {
			c := deleteFrom("mine", a1)(b)
			gone := int64(12345)
			c.BaseSnapshotID = &gone
			return c
		}, "12345"},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newValidationBase(t, tc.version)
			tbl := b.tbl
			for _, c := range tc.concurrent {
				ch := c(b)
				ch.BaseSnapshotID = headID(tbl)
				tbl = mustCommit(t, b.cat, b.id, ch)
			}
			change := tc.change(b)
			if change.BaseSnapshotID == nil {
				change.BaseSnapshotID = b.base
			}
			err := ValidateChange(ctx, tbl, change)
			if tc.conflict == "" {
				if err != nil {
					t.Fatalf("unexpected conflict: %v", err)
				}
				// Validation passing, the commit lands.
				mustCommit(t, b.cat, b.id, change)
				return
			}
			if !isValidationConflict(err) {
				t.Fatalf("error %v, want a validation conflict", err)
			}
			if !strings.Contains(err.Error(), tc.conflict) || (len(tc.concurrent) > 0 && !strings.Contains(err.Error(), "snapshot ")) {
				t.Errorf("error %q does not name %s and the snapshot", err, tc.conflict)
			}
			if _, err := CommitChange(ctx, b.cat, b.id, change); !isValidationConflict(err) {
				t.Errorf("commit: error %v, want a validation conflict", err)
			}
		})
	}
}
