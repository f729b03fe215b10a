package catalog

import (
	"context"
	"errors"
	"testing"
)

// TestChangeRefusesLiveFile: no commit path lists a file twice in a table
// state. A change adding a data file (or a delete file, a DV blob) that
// is live at the branch head, or adding one file twice, is refused before
// anything is committed: ErrFileLive, or a validation conflict when the
// file went live after the change's base. Removing a file and adding it
// back in one change leaves it listed once and is allowed.
func TestChangeRefusesLiveFile(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		change func(b *validationBase) *Change
		want   error // nil: the change commits
	}{
		{"append of a live data file", func(b *validationBase) *Change {
			return &Change{AddedDataFiles: []*DataFile{b.a1}, Operation: "append"}
		}, ErrFileLive},
		{"append of a new and a live file", func(b *validationBase) *Change {
			return &Change{AddedDataFiles: []*DataFile{fakeData(b.tbl, "n1", "red", 1), b.a2}}
		}, ErrFileLive},
		{"one file added twice", func(b *validationBase) *Change {
			n := fakeData(b.tbl, "n1", "green", 1)
			return &Change{AddedDataFiles: []*DataFile{n, n}}
		}, ErrFileLive},
		{"overwrite adding a live file", func(b *validationBase) *Change {
			return &Change{RemovedDataFiles: []*DataFile{b.a1}, RemovedDeleteFiles: []*DataFile{b.d0},
				AddedDataFiles: []*DataFile{b.a2}, ReferencedDataFiles: []string{b.a1.Path}, BaseSnapshotID: b.base}
		}, ErrFileLive},
		{"live delete file added again", func(b *validationBase) *Change {
			return &Change{AddedDeleteFiles: []*DataFile{b.d0}, ReferencedDataFiles: []string{b.a1.Path}, BaseSnapshotID: b.base}
		}, ErrFileLive},
		{"a combined transaction adding one file twice", func(b *validationBase) *Change {
			n := fakeData(b.tbl, "n1", "green", 1)
			return Combine([]*Change{{AddedDataFiles: []*DataFile{n}}, {AddedDataFiles: []*DataFile{n}}})
		}, ErrFileLive},
		{"removed and added back", func(b *validationBase) *Change {
			return &Change{RemovedDataFiles: []*DataFile{b.a2}, AddedDataFiles: []*DataFile{b.a2},
				ReferencedDataFiles: []string{b.a2.Path}, BaseSnapshotID: b.base}
		}, nil},
		{"a new file", func(b *validationBase) *Change {
			return &Change{AddedDataFiles: []*DataFile{fakeData(b.tbl, "n1", "red", 1)}}
		}, nil},
	}
	for _, version := range []int{2, 3} {
		for _, tc := range cases {
			t.Run(tc.name+"/v"+itoa64(int64(version)), func(t *testing.T) {
				b := newValidationBase(t, version)
				before := planned(t, b.tbl)
				ch := tc.change(b)
				// Staged (a transaction's statement) and committed alike.
				out, err := b.cat.NewOutput(b.tbl)
				if err != nil {
					t.Fatal(err)
				}
				st, serr := StageChange(ctx, out, b.tbl, ch)
				if serr == nil {
					st.Discard(ctx)
				}
				tbl, err := CommitChange(ctx, b.cat, b.id, ch)
				for what, e := range map[string]error{"stage": serr, "commit": err} {
					switch {
					case tc.want == nil && e != nil:
						t.Errorf("%s: %v", what, e)
					case tc.want != nil && !errors.Is(e, tc.want):
						t.Errorf("%s: %v, want %v", what, e, tc.want)
					}
				}
				if tc.want == nil {
					return
				}
				tbl, err = b.cat.LoadTable(ctx, b.id)
				if err != nil {
					t.Fatal(err)
				}
				if got := planned(t, tbl); !equalStrings(got, before) {
					t.Errorf("table changed: %v, was %v", got, before)
				}
			})
		}
	}
}

// TestChangeRefusesFileLiveSinceBase: a file that went live after the
// change's base (another writer added it) is a conflict with that writer:
// a validation error, 40001 to clients.
func TestChangeRefusesFileLiveSinceBase(t *testing.T) {
	ctx := context.Background()
	b := newValidationBase(t, 2)
	n := fakeData(b.tbl, "n1", "red", 1)
	mustCommit(t, b.cat, b.id, &Change{AddedDataFiles: []*DataFile{n}})
	_, err := CommitChange(ctx, b.cat, b.id, &Change{RemovedDataFiles: []*DataFile{b.a2}, AddedDataFiles: []*DataFile{n},
		ReferencedDataFiles: []string{b.a2.Path}, BaseSnapshotID: b.base, Isolation: SnapshotIsolation})
	if !isValidationConflict(err) {
		t.Fatalf("commit: %v, want a validation conflict", err)
	}
}
