package catalog

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestCommitChangeLostRace: a rival commits between staging and commit.
// A rival that does not conflict is retried past; one that invalidates the
// change fails it at once with a validation error; either way no metadata
// file of a failed attempt stays behind. The context's CommitObserver
// hears a retry then the commit, or the conflict.
func TestCommitChangeLostRace(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name      string
		rival     func(b *validationBase) *Change
		isolation IsolationLevel
		filter    []Predicate
		want      error // nil: the change lands
		avro      int   // Avro files in metadata/ afterwards
	}{
		{"unrelated append, snapshot isolation", func(b *validationBase) *Change {
			return &Change{AddedDataFiles: []*DataFile{fakeData(b.tbl, "g1", "green", 1)}}
		}, SnapshotIsolation, nil, nil, 4 + 2 + 2},
		{"append ruled out by the filter", func(b *validationBase) *Change {
			return &Change{AddedDataFiles: []*DataFile{fakeData(b.tbl, "g1", "green", 1)}}
		}, Serializable, []Predicate{{FieldID: 2, Op: OpEq, Values: []any{"red"}}}, nil, 4 + 2 + 2},
		{"append the filter matches", func(b *validationBase) *Change {
			return &Change{AddedDataFiles: []*DataFile{fakeData(b.tbl, "r9", "red", 1)}}
		}, Serializable, []Predicate{{FieldID: 2, Op: OpEq, Values: []any{"red"}}}, ErrValidation, 4 + 2},
		{"removal of the file", func(b *validationBase) *Change {
			return &Change{RemovedDataFiles: []*DataFile{b.a1}, ReferencedDataFiles: []string{b.a1.Path}}
		}, SnapshotIsolation, nil, ErrValidation, 4 + 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newValidationBase(t, 2)
			if _, err := b.cat.CommitTable(ctx, b.id, nil, []Update{SetProperties{Updates: map[string]string{PropCommitNumRetries: "3", PropCommitMinWaitMs: "1"}}}); err != nil {
				t.Fatal(err)
			}
			rivalCalls := 0
			racing := &racingCatalog{Filesystem: b.cat, rival: func() error {
				rivalCalls++
				if rivalCalls > 1 {
					return nil
				}
				c := tc.rival(b)
				c.BaseSnapshotID = b.base
				c.Isolation = SnapshotIsolation
				_, err := CommitChange(ctx, b.cat, b.id, c)
				return err
			}}
			d := fakePosDeletes(b.tbl, "mine", b.a1, 1)
			change := &Change{AddedDeleteFiles: []*DataFile{d}, ReferencedDataFiles: []string{b.a1.Path}, BaseSnapshotID: b.base, Isolation: tc.isolation, ConflictFilter: tc.filter}
			var events recordedCommits
			tbl, err := CommitChange(WithCommitObserver(ctx, &events), racing, b.id, change)
			wantEvents := []string{CommitRetried, CommitCommitted}
			if tc.want != nil {
				wantEvents = []string{CommitRetried, CommitConflict} // the race lost, then the re-validation fails
			}
			if !slices.Equal(events, wantEvents) {
				t.Errorf("observed %q, want %q", events, wantEvents)
			}
			if tc.want == nil && err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if rivalCalls < 1 {
				t.Fatal("the rival never ran")
			}
			after, err := b.cat.LoadTable(ctx, b.id)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if tbl.Metadata.CurrentSnapshot().SnapshotID != after.Metadata.CurrentSnapshot().SnapshotID {
					t.Error("the returned table is not the committed one")
				}
				found := false
				for _, task := range planCurrent(t, after) {
					for _, del := range task.Deletes {
						found = found || (del.Path == d.Path && task.File.Path == b.a1.Path)
					}
				}
				if !found {
					t.Errorf("the committed plan lacks the change's delete file: %v", planned(t, after))
				}
			}
			if n := countSuffix(listDir(t, filepath.Dir(after.MetadataLocation)), ".avro"); n != tc.avro {
				t.Errorf("%d Avro files in metadata/, want %d", n, tc.avro)
			}
		})
	}
}

// TestCommitChangeConcurrent: writers deleting from distinct files all
// land, retrying lost races; writers deleting from one file conflict, and
// exactly one lands.
func TestCommitChangeConcurrent(t *testing.T) {
	ctx := context.Background()
	const writers = 6
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			cat := newWarehouse(t)
			id, tbl := newEvents(t, cat, "busy", 2, map[string]string{PropCommitNumRetries: "100", PropCommitMinWaitMs: "1", PropCommitMaxWaitMs: "10"})
			var files []*DataFile
			for i := range writers {
				files = append(files, fakeData(tbl, fmt.Sprintf("f%d", i), "c", 10))
			}
			tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: files})
			base := headID(tbl)
			errs := make([]error, writers)
			var wg sync.WaitGroup
			for i := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					target := files[i]
					if shared {
						target = files[0]
					}
					_, errs[i] = CommitChange(ctx, cat, id, &Change{
						AddedDeleteFiles:    []*DataFile{fakePosDeletes(tbl, fmt.Sprintf("w%d", i), target, 1)},
						ReferencedDataFiles: []string{target.Path}, BaseSnapshotID: base, Isolation: SnapshotIsolation,
					})
				}()
			}
			wg.Wait()
			landed := 0
			for i, err := range errs {
				switch {
				case err == nil:
					landed++
				case shared && isValidationConflict(err):
				default:
					t.Errorf("writer %d: %v", i, err)
				}
			}
			want := writers
			if shared {
				want = 1
			}
			if landed != want {
				t.Fatalf("%d writers landed, want %d", landed, want)
			}
			after, err := cat.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			deletes := 0
			for _, task := range planCurrent(t, after) {
				deletes += len(task.Deletes)
			}
			if deletes != want || len(after.Metadata.Snapshots) != want+1 {
				t.Errorf("%d delete files planned, %d snapshots; want %d and %d", deletes, len(after.Metadata.Snapshots), want, want+1)
			}
			if n := countSuffix(listDir(t, filepath.Dir(after.MetadataLocation)), ".avro"); n != 2*(want+1) {
				t.Errorf("%d Avro files in metadata/, want %d", n, 2*(want+1))
			}
		})
	}
}

// TestCommitChangeCancelled: a cancelled context stops the commit.
func TestCommitChangeCancelled(t *testing.T) {
	b := newValidationBase(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := CommitChange(ctx, b.cat, b.id, &Change{RemovedDataFiles: []*DataFile{b.a2}, ReferencedDataFiles: []string{b.a2.Path}, BaseSnapshotID: b.base})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	after, err := b.cat.LoadTable(context.Background(), b.id)
	if err != nil {
		t.Fatal(err)
	}
	if got := livePaths(t, after); !slices.Contains(got, b.a2.Path) {
		t.Errorf("a2 removed by a cancelled commit: %v", got)
	}
}

// recordedCommits is a CommitObserver that keeps the events.
type recordedCommits []string

func (r *recordedCommits) ObserveCommit(event string) { *r = append(*r, event) }
