package changelog

import (
	"context"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/pgerr"
)

// What one snapshot S changed is the difference of the live rows of its
// parent P and of S, over the data files S touched: a row (file,
// position) live in S but not in P was inserted, one live in P but not
// in S deleted. A file S added contributes all its live rows as INSERTs,
// a file S removed all the rows live in P as DELETEs, and a file live in
// both whose deletes changed (new position deletes, a new deletion
// vector, equality deletes) the positions one side has and the other
// lacks. A snapshot that only added data files is read from its own
// manifests alone: its new files are its INSERTs.

// changePart is a set of files read for one kind of change of one step:
// every live row of the tasks except, per file, the positions in skip.
type changePart struct {
	kind  string // changeTypeInsert / changeTypeDelete
	step  changeStep
	tasks []catalog.FileScanTask
	skip  map[string]*roaring64.Bitmap // by data file path
}

// changePlanner plans the parts of each step, keeping the last snapshot
// planned (the next step's parent).
type changePlanner struct {
	table  *catalog.Table
	schema *catalog.Schema
	last   *catalog.Snapshot
	tasks  []catalog.FileScanTask
}

// parts returns the parts of one step: its DELETEs, then its INSERTs.
func (p *changePlanner) parts(ctx context.Context, st changeStep) ([]changePart, error) {
	added, ok, err := p.appendedFiles(ctx, st.snap)
	if err != nil {
		return nil, err
	}
	if ok {
		if len(added) == 0 {
			return nil, nil
		}
		return []changePart{{kind: changeTypeInsert, step: st, tasks: added}}, nil
	}
	s := st.snap
	if st.parent == nil && s.ParentSnapshotID != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "the changes of snapshot %d of table \"%s\" cannot be computed: its parent %d has expired",
			s.SnapshotID, p.table.Ident.Name, *s.ParentSnapshotID)
	}
	var before []catalog.FileScanTask
	if st.parent != nil {
		if before, err = p.plan(ctx, st.parent); err != nil {
			return nil, err
		}
	}
	after, err := p.plan(ctx, s)
	if err != nil {
		return nil, err
	}
	inBefore := make(map[string]int, len(before))
	for i, t := range before {
		inBefore[t.File.Path] = i
	}
	inAfter := make(map[string]bool, len(after))
	del := changePart{kind: changeTypeDelete, step: st, skip: map[string]*roaring64.Bitmap{}}
	ins := changePart{kind: changeTypeInsert, step: st, skip: map[string]*roaring64.Bitmap{}}
	for _, t := range after {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		inAfter[t.File.Path] = true
		i, ok := inBefore[t.File.Path]
		if !ok {
			ins.tasks = append(ins.tasks, t)
			continue
		}
		old := before[i]
		if sameDeletes(old.Deletes, t.Deletes) {
			continue
		}
		livePrev, err := p.livePositions(ctx, old)
		if err != nil {
			return nil, err
		}
		liveNow, err := p.livePositions(ctx, t)
		if err != nil {
			return nil, err
		}
		if roaring64.AndNot(livePrev, liveNow).GetCardinality() > 0 {
			del.tasks = append(del.tasks, old)
			del.skip[t.File.Path] = liveNow
		}
		if roaring64.AndNot(liveNow, livePrev).GetCardinality() > 0 {
			ins.tasks = append(ins.tasks, t)
			ins.skip[t.File.Path] = livePrev
		}
	}
	for _, t := range before {
		if !inAfter[t.File.Path] {
			del.tasks = append(del.tasks, t)
		}
	}
	var out []changePart
	if len(del.tasks) > 0 {
		out = append(out, del)
	}
	if len(ins.tasks) > 0 {
		out = append(out, ins)
	}
	return out, nil
}

// plan lists the live files of snap (the last one planned is kept: it is
// the parent of the next step).
func (p *changePlanner) plan(ctx context.Context, snap *catalog.Snapshot) ([]catalog.FileScanTask, error) {
	if p.last != nil && p.last.SnapshotID == snap.SnapshotID {
		return p.tasks, nil
	}
	tasks, err := catalog.PlanFiles(ctx, p.table, snap)
	if err != nil {
		if pgerr.As(err) != nil {
			return nil, err
		}
		return nil, pgerr.Wrap(err, pgerr.IOError, "plan changes of %s at snapshot %d: %v", p.table.Ident.Name, snap.SnapshotID, err)
	}
	p.last, p.tasks = snap, tasks
	return tasks, nil
}

// appendedFiles returns the data files snap added, read from the
// manifests it wrote, when it added nothing but data files (ok false
// otherwise: it removed files or added deletes).
func (p *changePlanner) appendedFiles(ctx context.Context, snap *catalog.Snapshot) ([]catalog.FileScanTask, bool, error) {
	fail := func(err error) ([]catalog.FileScanTask, bool, error) {
		if pgerr.As(err) != nil {
			return nil, false, err
		}
		return nil, false, pgerr.Wrap(err, pgerr.IOError, "read the changes of %s at snapshot %d: %v", p.table.Ident.Name, snap.SnapshotID, err)
	}
	list, err := catalog.ReadManifestList(ctx, p.table.IO, snap)
	if err != nil {
		return fail(err)
	}
	var out []catalog.FileScanTask
	for i := range list {
		mf := &list[i]
		if !writtenBy(mf, snap) {
			continue // an older snapshot's manifest: nothing of snap's
		}
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		m, err := catalog.ReadManifest(ctx, p.table.IO, mf)
		if err != nil {
			return fail(err)
		}
		spec := p.table.Metadata.SpecByID(m.SpecID)
		if spec == nil {
			spec = m.Spec
		}
		for _, e := range m.Entries {
			// A manifest a snapshot writes marks ADDED only the files it
			// adds and DELETED only those it removes; the files it carries
			// over are EXISTING.
			if e.Status == catalog.StatusExisting || (mf.AddedSnapshotID == 0 && e.File.SnapshotID != snap.SnapshotID) {
				continue
			}
			if e.Status == catalog.StatusDeleted || e.File.Content != catalog.ContentData {
				return nil, false, nil
			}
			out = append(out, catalog.FileScanTask{File: e.File, Spec: spec})
		}
	}
	return out, true, nil
}

// writtenBy reports whether snap wrote the manifest mf: from format v2
// on, by the sequence number they share (snapshot ids are not compared:
// some writers round them to a double in the metadata JSON, not in the
// manifests), in v1 by the manifest's added snapshot id (0 when unknown:
// its entries' snapshot ids decide).
func writtenBy(mf *catalog.ManifestFile, snap *catalog.Snapshot) bool {
	if snap.SequenceNumber > 0 {
		return mf.SequenceNumber == snap.SequenceNumber
	}
	return mf.AddedSnapshotID == snap.SnapshotID || mf.AddedSnapshotID == 0
}

// sameDeletes reports whether two lists name the same delete files.
func sameDeletes(a, b []*catalog.DataFile) bool {
	if len(a) != len(b) {
		return false
	}
	pa := make([]string, len(a))
	pb := make([]string, len(b))
	for i := range a {
		pa[i], pb[i] = deleteKey(a[i]), deleteKey(b[i])
	}
	slices.Sort(pa)
	slices.Sort(pb)
	return slices.Equal(pa, pb)
}

// deleteKey identifies a delete file: its path, and for a deletion
// vector the blob's offset (several share one Puffin file).
func deleteKey(d *catalog.DataFile) string {
	if d.ContentOffset != nil {
		return fmt.Sprintf("%s@%d", d.Path, *d.ContentOffset)
	}
	return d.Path
}

// livePositions reads the positions of the rows of task's file that its
// deletes leave.
func (p *changePlanner) livePositions(ctx context.Context, task catalog.FileScanTask) (*roaring64.Bitmap, error) {
	sc := scan.New(engine.ScanSpec{Table: p.table, Tasks: []catalog.FileScanTask{task}, Schema: p.schema, FieldIDs: []int{scan.FieldIDPos}}, scan.Options{})
	defer sc.Close()
	if err := sc.Open(ctx); err != nil {
		return nil, err
	}
	bm := roaring64.New()
	for {
		b, err := sc.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			return bm, nil
		}
		pos, ok := b.Column(0).(*array.Int64)
		if !ok {
			return nil, pgerr.New(pgerr.InternalError, "_pos column is %s", b.Column(0).DataType())
		}
		for _, v := range pos.Int64Values() {
			bm.Add(uint64(v))
		}
	}
}
