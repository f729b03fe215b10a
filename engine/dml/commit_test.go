package dml

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// layouts are the table layouts every change is tried on.
var layouts = []struct {
	version     int
	partitioned bool
}{{2, false}, {2, true}, {3, false}, {3, true}}

func layoutName(version int, partitioned bool, mode Mode) string {
	s := "v" + strconv.Itoa(version)
	if partitioned {
		s += "/partitioned"
	}
	return s + map[Mode]string{CopyOnWrite: "/cow", MergeOnRead: "/mor"}[mode]
}

// TestCommittedChanges: a delete-shaped and an update-shaped change,
// committed, leave exactly the expected rows, in both modes and every
// layout; merge-on-read adds delete files of the table's format.
func TestCommittedChanges(t *testing.T) {
	for _, l := range layouts {
		for _, mode := range []Mode{CopyOnWrite, MergeOnRead} {
			t.Run(layoutName(l.version, l.partitioned, mode), func(t *testing.T) {
				e := newTable(t, l.version, l.partitioned, nil)
				e.appendRows(t, rowsOf(span(0, 12)...))
				e.appendRows(t, rowsOf(span(12, 20)...))
				want := rowsOf(span(0, 20)...)

				// DELETE ... WHERE id % 4 = 0
				w, ch := e.change(t, mode, func(s scanned) bool { return idOf(t, s)%4 == 0 }, nil)
				checkModeFiles(t, l.version, mode, ch)
				tbl := e.commit(t, w, ch)
				want = slices.DeleteFunc(want, func(r row) bool { return r.id%4 == 0 })
				if got := rowStrings(scanTable(t, tbl)); !slices.Equal(got, wantStrings(want)) {
					t.Fatalf("after the delete\n got %v\nwant %v", got, wantStrings(want))
				}

				// UPDATE ... SET name = 'u' || id WHERE id % 5 = 0 OR id = 7
				w, ch = e.change(t, mode, nil, func(s scanned) *row {
					if id := idOf(t, s); id%5 == 0 || id == 7 {
						return &row{id: id, part: int32(id % 3), name: "u" + strconv.FormatInt(id, 10)}
					}
					return nil
				})
				checkModeFiles(t, l.version, mode, ch)
				if len(ch.AddedDataFiles) == 0 {
					t.Error("the update added no data file")
				}
				tbl = e.commit(t, w, ch)
				for i, r := range want {
					if r.id%5 == 0 || r.id == 7 {
						want[i].name = "u" + strconv.FormatInt(r.id, 10)
					}
				}
				if got := rowStrings(scanTable(t, tbl)); !slices.Equal(got, wantStrings(want)) {
					t.Fatalf("after the update\n got %v\nwant %v", got, wantStrings(want))
				}
			})
		}
	}
}

// checkModeFiles checks the kinds of files a change adds and removes:
// copy-on-write only data files; merge-on-read delete files of the
// format's kind (v2 position delete files, v3 deletion vectors).
func checkModeFiles(t *testing.T, version int, mode Mode, ch *catalog.Change) {
	t.Helper()
	if mode == CopyOnWrite {
		if len(ch.AddedDeleteFiles) != 0 || len(ch.RemovedDeleteFiles) != 0 {
			t.Errorf("copy-on-write change has delete files: added %d, removed %d", len(ch.AddedDeleteFiles), len(ch.RemovedDeleteFiles))
		}
		if len(ch.RemovedDataFiles) != len(ch.ReferencedDataFiles) {
			t.Errorf("copy-on-write removed %d of %d affected files", len(ch.RemovedDataFiles), len(ch.ReferencedDataFiles))
		}
		return
	}
	if len(ch.AddedDeleteFiles) == 0 {
		t.Error("merge-on-read change added no delete file")
	}
	for _, d := range ch.AddedDeleteFiles {
		if d.Content != catalog.ContentPositionDelete || (version >= 3) != (d.Format == catalog.FormatPuffin) {
			t.Errorf("v%d delete file %s has content %d, format %s", version, d.Path, d.Content, d.Format)
		}
	}
}

// TestMergeOnReadRounds deletes from one data file in rounds: v2 adds a
// position delete file of the new positions each time, v3 replaces the
// file's deletion vector with one holding all positions; past the
// rewrite threshold the file is rewritten and its deletes dropped.
func TestMergeOnReadRounds(t *testing.T) {
	for _, version := range []int{2, 3} {
		t.Run("v"+strconv.Itoa(version), func(t *testing.T) {
			e := newTable(t, version, false, nil)
			e.appendRows(t, rowsOf(span(0, 10)...))
			e.appendRows(t, rowsOf(span(10, 12)...))
			want := rowsOf(span(0, 12)...)
			var liveDeletes []string // the delete files of the first file
			rounds := [][]int64{{1}, {2, 3}, {4}, {0}, {5}}
			for i, ids := range rounds {
				w, ch := e.change(t, MergeOnRead, func(s scanned) bool { return slices.Contains(ids, idOf(t, s)) }, nil)
				want = slices.DeleteFunc(want, func(r row) bool { return slices.Contains(ids, r.id) })
				deleted := 10 - int64(len(want)-2)
				var removedDeletes []string
				for _, d := range ch.RemovedDeleteFiles {
					removedDeletes = append(removedDeletes, d.Path)
				}
				sort.Strings(removedDeletes)
				sort.Strings(liveDeletes)
				if i == len(rounds)-1 {
					// 6 of 10 rows deleted: past the 0.5 threshold.
					if len(ch.RemovedDataFiles) != 1 || len(ch.AddedDeleteFiles) != 0 || len(ch.AddedDataFiles) != 1 ||
						ch.AddedDataFiles[0].RecordCount != 4 || !slices.Equal(removedDeletes, liveDeletes) {
						t.Fatalf("round %d: rewrite expected, change %s", i, describe(ch))
					}
				} else {
					if len(ch.RemovedDataFiles) != 0 || len(ch.AddedDataFiles) != 0 || len(ch.AddedDeleteFiles) != 1 {
						t.Fatalf("round %d: one delete file expected, change %s", i, describe(ch))
					}
					added := ch.AddedDeleteFiles[0]
					switch version {
					case 2:
						if len(removedDeletes) != 0 || added.RecordCount != int64(len(ids)) {
							t.Errorf("round %d: v2 change %s, want %d new positions and nothing removed", i, describe(ch), len(ids))
						}
						liveDeletes = append(liveDeletes, added.Path)
					case 3:
						if added.RecordCount != deleted || !slices.Equal(removedDeletes, liveDeletes) {
							t.Errorf("round %d: v3 change %s, want a vector of %d positions replacing %v", i, describe(ch), deleted, liveDeletes)
						}
						liveDeletes = []string{added.Path}
					}
				}
				tbl := e.commit(t, w, ch)
				if got := rowStrings(scanTable(t, tbl)); !slices.Equal(got, wantStrings(want)) {
					t.Fatalf("round %d\n got %v\nwant %v", i, got, wantStrings(want))
				}
			}
			tasks, err := catalog.PlanFiles(e.ctx, e.load(t), e.load(t).Metadata.CurrentSnapshot())
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range tasks {
				if len(task.Deletes) != 0 {
					t.Errorf("data file %s still has %d delete files", task.File.Path, len(task.Deletes))
				}
			}
		})
	}
}

// TestRemoveWholeFile: deleting every live row of a file removes it and
// its delete files, in both modes.
func TestRemoveWholeFile(t *testing.T) {
	for _, version := range []int{2, 3} {
		for _, mode := range []Mode{CopyOnWrite, MergeOnRead} {
			t.Run(layoutName(version, false, mode), func(t *testing.T) {
				e := newTable(t, version, false, map[string]string{PropRewriteThreshold: "1"})
				e.appendRows(t, rowsOf(span(0, 3)...))
				e.appendRows(t, rowsOf(span(3, 5)...))
				w, ch := e.change(t, MergeOnRead, func(s scanned) bool { return idOf(t, s) == 1 }, nil)
				old := ch.AddedDeleteFiles
				e.commit(t, w, ch)
				w, ch = e.change(t, mode, func(s scanned) bool { return idOf(t, s) < 3 }, nil)
				if len(ch.RemovedDataFiles) != 1 || ch.RemovedDataFiles[0].RecordCount != 3 || len(ch.AddedDataFiles) != 0 ||
					len(ch.AddedDeleteFiles) != 0 || len(ch.RemovedDeleteFiles) != 1 || ch.RemovedDeleteFiles[0].Path != old[0].Path {
					t.Fatalf("change %s, want the 3-row file and its delete file removed, nothing added", describe(ch))
				}
				tbl := e.commit(t, w, ch)
				if got := rowStrings(scanTable(t, tbl)); !slices.Equal(got, wantStrings(rowsOf(3, 4))) {
					t.Errorf("rows %v", got)
				}
			})
		}
	}
}

// TestAbortRemovesFiles: Abort after Finish leaves the table directory as
// it was, whatever the change wrote.
func TestAbortRemovesFiles(t *testing.T) {
	for _, l := range layouts {
		for _, mode := range []Mode{CopyOnWrite, MergeOnRead} {
			t.Run(layoutName(l.version, l.partitioned, mode), func(t *testing.T) {
				e := newTable(t, l.version, l.partitioned, nil)
				e.appendRows(t, rowsOf(span(0, 30)...))
				before := filesUnder(t, e.dir)
				w, ch := e.change(t, mode, func(s scanned) bool { return idOf(t, s)%7 == 0 }, func(s scanned) *row {
					if id := idOf(t, s); id%7 == 1 {
						return &row{id: id + 100, part: int32(id % 3), name: "moved"}
					}
					return nil
				})
				if n := len(ch.AddedDataFiles) + len(ch.AddedDeleteFiles); n == 0 || len(filesUnder(t, e.dir)) == len(before) {
					t.Fatalf("the change wrote nothing to abort: %s", describe(ch))
				}
				w.Abort()
				if after := filesUnder(t, e.dir); !slices.Equal(after, before) {
					t.Errorf("files after Abort\n got %v\nwant %v", after, before)
				}
				w.Abort() // twice is harmless
			})
		}
	}
}

// TestFixtureDeletes deletes rows, in two rounds, from copies of fixture
// tables that already have position deletes, equality deletes or deletion
// vectors: copy-on-write, merge-on-read, and merge-on-read that never
// rewrites (threshold 1), so existing deletes are merged with new ones.
func TestFixtureDeletes(t *testing.T) {
	tables := []struct {
		name string
		rows int
	}{
		{"impala__iceberg_v2_delete_positional", 2},
		{"impala__iceberg_v2_delete_both_eq_and_pos", 2},
		{"impala__iceberg_v2_partitioned_position_deletes", 10},
		{"lithium__granular_deletes", 10},
		{"duckdb__equality_deletes_mytable_partitioned", 3},
		{"lithium__deletion_vectors", 8},
		{"impala__iceberg_v3_deletion_vectors", 3},
	}
	variants := []struct {
		name      string
		mode      Mode
		threshold string
	}{{"cow", CopyOnWrite, ""}, {"mor", MergeOnRead, ""}, {"mor-merge", MergeOnRead, "1"}}
	for _, tc := range tables {
		for _, v := range variants {
			t.Run(tc.name+"/"+v.name, func(t *testing.T) {
				e := fixtureEnv(t, tc.name)
				if v.threshold != "" {
					_, err := e.cat.CommitTable(e.ctx, e.id, nil, []catalog.Update{catalog.SetProperties{Updates: map[string]string{PropRewriteThreshold: v.threshold}}})
					if err != nil {
						t.Fatal(err)
					}
				}
				rows := scanTable(t, e.load(t))
				if len(rows) != tc.rows {
					t.Fatalf("fixture has %d rows, want %d", len(rows), tc.rows)
				}
				want := rows
				for round := range 2 {
					victim := want[0]
					w, ch := e.change(t, v.mode, func(s scanned) bool { return s.file == victim.file && s.pos == victim.pos }, nil)
					t.Logf("round %d: %s", round, describe(ch))
					tbl := e.commit(t, w, ch)
					want = want[1:]
					got := scanTable(t, tbl)
					if g, w := valueStrings(got), valueStrings(want); !slices.Equal(g, w) {
						t.Fatalf("round %d: rows\n got %v\nwant %v", round, g, w)
					}
					want = got
				}
			})
		}
	}
}

// valueStrings renders rows' values, sorted.
func valueStrings(rows []scanned) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r.vals)
	}
	sort.Strings(out)
	return out
}

// describe summarizes a change for failure messages.
func describe(ch *catalog.Change) string {
	names := func(fs []*catalog.DataFile) []string {
		var out []string
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s(%d rows)", f.Path[max(0, len(f.Path)-20):], f.RecordCount))
		}
		return out
	}
	return fmt.Sprintf("added data %v, added deletes %v, removed data %v, removed deletes %v",
		names(ch.AddedDataFiles), names(ch.AddedDeleteFiles), names(ch.RemovedDataFiles), names(ch.RemovedDeleteFiles))
}
