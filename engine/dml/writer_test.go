package dml

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestDeleteBookkeeping: Delete reports a row removed twice, finds a file
// by another spelling of its path, and rejects unknown files and
// positions outside the file.
func TestDeleteBookkeeping(t *testing.T) {
	e := newTable(t, 2, false, nil)
	e.appendRows(t, rowsOf(span(0, 4)...))
	e.appendRows(t, rowsOf(span(4, 6)...))
	tbl := e.load(t)
	rows := scanTable(t, tbl)
	w := e.newWriter(t, tbl, CopyOnWrite)
	defer w.Abort()
	var file string
	for _, r := range rows {
		if idOf(t, r) == 0 {
			file = r.file // the file of ids 0-3
		}
	}
	steps := []struct {
		path string
		pos  int64
		want bool
		code string
	}{
		{file, 1, true, ""},
		{file, 1, false, ""},
		{"file://" + file, 1, false, ""},
		{file, 3, true, ""},
		{file, 4, false, pgerr.InternalError},
		{file, -1, false, pgerr.InternalError},
		{"/nowhere/data/x.parquet", 0, false, pgerr.InternalError},
	}
	for i, s := range steps {
		got, err := w.Delete(s.path, s.pos)
		if s.code != "" {
			wantCode(t, err, s.code)
			continue
		}
		if err != nil || got != s.want {
			t.Errorf("step %d: Delete(%s, %d) = %v, %v; want %v", i, s.path, s.pos, got, err, s.want)
		}
	}
	ch, err := w.Finish(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ch.ReferencedDataFiles, []string{file}) {
		t.Errorf("referenced %v, want [%s]", ch.ReferencedDataFiles, file)
	}
	if ch.BaseSnapshotID == nil || *ch.BaseSnapshotID != tbl.Metadata.CurrentSnapshot().SnapshotID {
		t.Errorf("base snapshot %v, want %d", ch.BaseSnapshotID, tbl.Metadata.CurrentSnapshot().SnapshotID)
	}
	if got := rowStrings(scanChanged(t, tbl, ch)); !slices.Equal(got, wantStrings(rowsOf(0, 2, 4, 5))) {
		t.Errorf("rows after the change %v", got)
	}
}

// TestEmptyAndInsertOnly: a Writer that deletes nothing plans nothing; an
// empty table has no base snapshot and no live file to delete from.
func TestEmptyAndInsertOnly(t *testing.T) {
	e := newTable(t, 2, true, nil)
	tbl := e.load(t)
	w := e.newWriter(t, tbl, MergeOnRead)
	if _, err := w.Delete("/x/data/f.parquet", 0); err == nil {
		t.Error("deleting from an empty table succeeded")
	} else {
		wantCode(t, err, pgerr.InternalError)
	}
	b := batchOf(rowsOf(1, 2, 3))
	defer b.Release()
	if err := w.Insert(b); err != nil {
		t.Fatal(err)
	}
	ch, err := w.Finish(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ch.BaseSnapshotID != nil || len(ch.ReferencedDataFiles) != 0 || len(ch.RemovedDataFiles) != 0 || len(ch.AddedDeleteFiles) != 0 {
		t.Errorf("insert-only change %+v", ch)
	}
	if len(ch.AddedDataFiles) != 3 {
		t.Errorf("%d data files added, want one per partition (3)", len(ch.AddedDataFiles))
	}
	if got := rowStrings(scanChanged(t, tbl, ch)); !slices.Equal(got, wantStrings(rowsOf(1, 2, 3))) {
		t.Errorf("rows after the change %v", got)
	}

	e.appendRows(t, rowsOf(1, 2))
	tbl = e.load(t)
	w = e.newWriter(t, tbl, CopyOnWrite)
	if ch, err = w.Finish(e.ctx); err != nil {
		t.Fatal(err)
	}
	if len(ch.AddedDataFiles)+len(ch.RemovedDataFiles)+len(ch.ReferencedDataFiles) != 0 || w.tasks != nil {
		t.Errorf("a change of nothing %+v (planned: %v)", ch, w.tasks != nil)
	}
}

// TestCopyOnWriteChange: deletes and updates rewrite exactly the affected
// files, without their removed rows, in every layout.
func TestCopyOnWriteChange(t *testing.T) {
	for _, version := range []int{2, 3} {
		for _, partitioned := range []bool{false, true} {
			t.Run("v"+strconv.Itoa(version)+map[bool]string{false: "", true: "/partitioned"}[partitioned], func(t *testing.T) {
				e := newTable(t, version, partitioned, nil)
				e.appendRows(t, rowsOf(span(0, 12)...))
				e.appendRows(t, rowsOf(span(12, 20)...))
				tbl := e.load(t)
				before := len(filesUnder(t, e.dir))
				w, ch := e.change(t, CopyOnWrite,
					func(s scanned) bool { return idOf(t, s)%4 == 0 },
					func(s scanned) *row {
						if id := idOf(t, s); id%5 == 0 && id%4 != 0 {
							return &row{id: id, part: int32(id % 3), name: "u" + strconv.FormatInt(id, 10)}
						}
						return nil
					})
				defer w.Abort()
				var want []row
				for _, r := range rowsOf(span(0, 20)...) {
					switch {
					case r.id%4 == 0:
						continue
					case r.id%5 == 0:
						r.name = "u" + strconv.FormatInt(r.id, 10)
					}
					want = append(want, r)
				}
				if got := rowStrings(scanChanged(t, tbl, ch)); !slices.Equal(got, wantStrings(want)) {
					t.Errorf("rows after the change\n got %v\nwant %v", got, wantStrings(want))
				}
				if len(ch.AddedDeleteFiles) != 0 || len(ch.RemovedDeleteFiles) != 0 {
					t.Errorf("copy-on-write wrote or removed delete files: %+v", ch)
				}
				var removed []string
				for _, f := range ch.RemovedDataFiles {
					removed = append(removed, f.Path)
				}
				if !slices.Equal(removed, ch.ReferencedDataFiles) || len(removed) == 0 {
					t.Errorf("removed %v, referenced %v", removed, ch.ReferencedDataFiles)
				}
				if got := len(filesUnder(t, e.dir)); got != before+len(ch.AddedDataFiles) {
					t.Errorf("%d files in the table directory, want %d + %d added", got, before, len(ch.AddedDataFiles))
				}
				w.Abort()
				if got := len(filesUnder(t, e.dir)); got != before {
					t.Errorf("%d files after Abort, want %d", got, before)
				}
			})
		}
	}
}

// TestFinishCanceled: Finish under a canceled context fails with the
// context's error and removes what the Writer had written.
func TestFinishCanceled(t *testing.T) {
	for _, mode := range []Mode{CopyOnWrite, MergeOnRead} {
		t.Run(layoutName(2, true, mode), func(t *testing.T) {
			e := newTable(t, 2, true, nil)
			e.appendRows(t, rowsOf(span(0, 9)...))
			before := filesUnder(t, e.dir)
			tbl := e.load(t)
			w := e.newWriter(t, tbl, mode)
			rows := scanTable(t, tbl)
			if _, err := w.Delete(rows[0].file, rows[0].pos); err != nil {
				t.Fatal(err)
			}
			b := batchOf(rowsOf(span(100, 2100)...))
			defer b.Release()
			if err := w.Insert(b); err != nil {
				t.Fatal(err)
			}
			// The new rows' file is created behind Insert (engine/write
			// encodes on a goroutine of its own): whether it exists yet or
			// not, a failed Finish must leave none behind.
			ctx, cancel := context.WithCancel(e.ctx)
			cancel()
			if _, err := w.Finish(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("Finish under a canceled context: %v", err)
			}
			if after := filesUnder(t, e.dir); !slices.Equal(after, before) {
				t.Errorf("files after a failed Finish\n got %v\nwant %v", after, before)
			}
			if _, err := w.Finish(e.ctx); err == nil {
				t.Error("Finish after a failed Finish succeeded")
			}
		})
	}
}
