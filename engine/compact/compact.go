package compact

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
)

// Strategy is how a group's rows are laid out in the new files.
type Strategy int

const (
	// Binpack concatenates the rows of a group's files.
	Binpack Strategy = iota
	// Sort writes the rows of each new file in SortOrder (or by ZOrder).
	Sort
)

// Spec says what RewriteDataFiles rewrites.
type Spec struct {
	Catalog catalog.MutableCatalog
	// Table is the table as loaded; its main branch's head is rewritten.
	Table    *catalog.Table
	Strategy Strategy
	// SortOrder is the order of the Sort strategy (nil: the table's
	// default sort order; a table without one and no ZOrder is an error
	// the caller reports). Its ID is the table's when it equals one of the
	// table's orders, else 0: files then claim no order.
	SortOrder *catalog.SortOrder
	// ZOrder are the field ids of a z-order (Sort strategy).
	ZOrder []int
	// Filter selects the candidate files: those that may hold rows
	// matching every predicate (nil: every file).
	Filter  []catalog.Predicate
	Options Options
	// Scan tunes the reads.
	Scan scan.Options
	// Progress, when set, is told of each group's rewrite and each commit.
	Progress func(msg string)
}

// Result counts what RewriteDataFiles did (Spark's result columns).
type Result struct {
	RewrittenDataFiles int
	AddedDataFiles     int
	RewrittenBytes     int64
	FailedDataFiles    int
	RemovedDeleteFiles int
	// RewrittenRows are the live rows read from the rewritten files.
	RewrittenRows int64
}

// group is a set of files of one partition rewritten together.
type group struct {
	key   string
	tasks []catalog.FileScanTask
	bytes int64

	// Filled by the rewrite.
	added   []*catalog.DataFile
	rows    int64
	written *write.Writer
}

// RewriteDataFiles compacts the table's data files: the candidates (per
// Filter) whose size is outside [MinFileSize, MaxFileSize], that carry at
// least DeleteFileThreshold delete files or whose deletes remove at least
// DeleteRatioThreshold of their rows (every candidate with RewriteAll) are grouped by partition (files of older partition specs
// together, written into the current spec), each group with enough files
// or bytes is read with its deletes applied and written into new files of
// about TargetFileSize with the table's write properties, and the change
// is committed as one "replace" snapshot (PartialProgress: up to
// MaxCommits) that removes the old files and the delete files that
// applied only to them.
//
// The commit is validated against what was committed since the snapshot
// read: a rewritten file that was removed or got new deletes meanwhile
// (a concurrent DELETE, UPDATE or MERGE) fails the commit with an error
// wrapping catalog.ErrValidation, never bringing deleted rows back. On any
// error, and when ctx is cancelled, the files written are removed and the
// table is left as it was (with PartialProgress, the commits made before
// the failure stay).
func RewriteDataFiles(ctx context.Context, spec Spec) (Result, error) {
	var res Result
	tbl := spec.Table
	m := tbl.Metadata
	snap := m.CurrentSnapshot()
	if snap == nil {
		return res, nil
	}
	all, err := catalog.PlanFiles(ctx, tbl, snap)
	if err != nil {
		return res, err
	}
	candidates := all
	if len(spec.Filter) > 0 {
		if candidates, _, err = catalog.PlanFilesFiltered(ctx, tbl, snap, spec.Filter); err != nil {
			return res, err
		}
	}
	outSpec := m.DefaultSpecID
	if id := spec.Options.OutputSpecID; id != nil {
		if m.SpecByID(*id) == nil {
			return res, pgerr.New(pgerr.InvalidParameterValue, "option %s: table %s has no partition spec %d", OptOutputSpecID, tbl.Ident.Name, *id)
		}
		outSpec = *id
	}
	groups := planGroups(outSpec, candidates, spec.Options)
	if len(groups) == 0 {
		return res, nil
	}
	orderGroups(groups, spec.Options.JobOrder)
	liveDeletes, err := liveDeleteFiles(ctx, tbl, snap)
	if err != nil {
		return res, err
	}
	w, err := newRewriter(ctx, spec)
	if err != nil {
		return res, err
	}
	batches := commitBatches(groups, spec.Options)
	base := snap.SnapshotID
	var firstErr error
	for bi, batch := range batches {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if err := w.rewriteGroups(ctx, batch); err != nil {
			w.abort(batch)
			if !spec.Options.PartialProgress || ctx.Err() != nil {
				return res, err
			}
			firstErr = errors.Join(firstErr, err)
			countFailed(&res, batch)
			continue
		}
		ch := changeOf(base, batch, all, liveDeletes, spec.Options.RemoveDanglingDeletes && bi == 0)
		if len(ch.AddedDataFiles) == 0 && len(ch.RemovedDataFiles) == 0 {
			continue
		}
		spec.progress("rewrite_data_files: committing %d rewritten files as %d new files", len(ch.RemovedDataFiles), len(ch.AddedDataFiles))
		if err := commit(ctx, spec.Catalog, tbl.Ident, ch); err != nil {
			w.abort(batch)
			if !spec.Options.PartialProgress || ctx.Err() != nil {
				return res, err
			}
			slog.Warn("rewrite_data_files: a commit of partial progress failed", "table", tbl.Ident.Name, "error", err)
			firstErr = errors.Join(firstErr, err)
			countFailed(&res, batch)
			continue
		}
		for _, g := range batch {
			res.RewrittenDataFiles += len(g.tasks)
			res.AddedDataFiles += len(g.added)
			res.RewrittenBytes += g.bytes
			res.RewrittenRows += g.rows
		}
		res.RemovedDeleteFiles += len(ch.RemovedDeleteFiles)
	}
	if res.RewrittenDataFiles == 0 && firstErr != nil {
		return res, firstErr // nothing succeeded: report why
	}
	return res, nil
}

// extraCommitRounds is how many more times commit calls
// catalog.CommitChange after it gave up on lost races: with many writers
// at once its retries can run out while the change is still valid. A
// change another writer made invalid fails at once.
const extraCommitRounds = 8

func commit(ctx context.Context, cat catalog.MutableCatalog, id catalog.Identifier, ch *catalog.Change) error {
	_, err := catalog.CommitChange(ctx, cat, id, ch)
	for round := 0; round < extraCommitRounds && ctx.Err() == nil &&
		errors.Is(err, catalog.ErrCommitConflict) && !errors.Is(err, catalog.ErrValidation); round++ {
		_, err = catalog.CommitChange(ctx, cat, id, ch)
	}
	return err
}

func countFailed(res *Result, batch []*group) {
	for _, g := range batch {
		res.FailedDataFiles += len(g.tasks)
	}
}

func (s *Spec) progress(format string, args ...any) {
	if s.Progress != nil {
		s.Progress(fmt.Sprintf(format, args...))
	}
}

// otherSpecs is the group key of the files written with a partition spec
// other than the current one: their rows may belong to several partitions
// of the current spec, so they are rewritten together and routed anew.
const otherSpecs = "other-specs"

// planGroups picks the files to rewrite and groups them.
func planGroups(outSpec int, tasks []catalog.FileScanTask, o Options) []*group {
	byKey := map[string][]catalog.FileScanTask{}
	var keys []string
	for _, t := range tasks {
		f := t.File
		selected := o.RewriteAll || f.FileSizeInBytes < o.MinFileSize || f.FileSizeInBytes > o.MaxFileSize ||
			deleteIssues(t, o)
		if !selected {
			continue
		}
		k := otherSpecs
		if f.SpecID == outSpec {
			k = partitionKey(f.SpecID, f.Partition)
		}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], t)
	}
	var out []*group
	for _, k := range keys {
		var cur *group
		for _, t := range byKey[k] {
			if cur == nil || (cur.bytes+t.File.FileSizeInBytes > o.MaxFileGroupSize && len(cur.tasks) > 0) {
				cur = &group{key: k}
				out = append(out, cur)
			}
			cur.tasks = append(cur.tasks, t)
			cur.bytes += t.File.FileSizeInBytes
		}
	}
	kept := out[:0]
	for _, g := range out {
		if shouldRewrite(g, o) {
			kept = append(kept, g)
		}
	}
	return kept
}

// orderGroups sorts the groups by the job order (stable: "none" keeps
// the partitions' order).
func orderGroups(groups []*group, order string) {
	key := func(g *group) int64 {
		switch order {
		case "bytes-asc":
			return g.bytes
		case "bytes-desc":
			return -g.bytes
		case "files-asc":
			return int64(len(g.tasks))
		case "files-desc":
			return -int64(len(g.tasks))
		}
		return 0
	}
	slices.SortStableFunc(groups, func(a, b *group) int { return cmp.Compare(key(a), key(b)) })
}

// shouldRewrite: enough files, more bytes than one target file, too many
// bytes for one file, or a file with too many deletes.
func shouldRewrite(g *group, o Options) bool {
	n := len(g.tasks)
	if o.RewriteAll && n > 0 {
		return true
	}
	if (n > 1 && n >= o.MinInputFiles) || (n > 1 && g.bytes > o.TargetFileSize) || g.bytes > o.MaxFileSize {
		return true
	}
	for _, t := range g.tasks {
		if deleteIssues(t, o) {
			return true
		}
	}
	return false
}

// deleteIssues: a file with at least DeleteFileThreshold delete files, or
// whose file-scoped deletes remove at least DeleteRatioThreshold of its
// rows (the counts of other deletes are not known per file).
func deleteIssues(t catalog.FileScanTask, o Options) bool {
	if len(t.Deletes) == 0 {
		return false
	}
	if len(t.Deletes) >= o.DeleteFileThreshold {
		return true
	}
	if t.File.RecordCount <= 0 {
		return false
	}
	var deleted int64
	for _, d := range t.Deletes {
		if d.Content != catalog.ContentPositionDelete {
			continue
		}
		// Planning matched a file-scoped delete to this very file.
		if _, ok := scopedTo(d); ok {
			deleted += d.RecordCount
		}
	}
	return float64(min(deleted, t.File.RecordCount))/float64(t.File.RecordCount) >= o.DeleteRatioThreshold
}

// commitBatches splits the groups into the commits that carry them: one,
// or with partial progress up to MaxCommits of about equal size.
func commitBatches(groups []*group, o Options) [][]*group {
	if !o.PartialProgress || len(groups) <= 1 {
		return [][]*group{groups}
	}
	n := min(o.MaxCommits, len(groups))
	per := (len(groups) + n - 1) / n
	var out [][]*group
	for i := 0; i < len(groups); i += per {
		out = append(out, groups[i:min(i+per, len(groups))])
	}
	return out
}

// partitionKey identifies a partition of a spec.
func partitionKey(specID int, values []any) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(specID))
	for _, v := range values {
		b.WriteByte('|')
		switch x := v.(type) {
		case nil:
			b.WriteString("null")
		case catalog.Decimal:
			fmt.Fprintf(&b, "d%s/%d", x.Unscaled.String(), x.Scale)
		case []byte:
			fmt.Fprintf(&b, "x%x", x)
		case string:
			b.WriteString("s" + strconv.Quote(x))
		default:
			fmt.Fprintf(&b, "%T:%v", v, v)
		}
	}
	return b.String()
}

// deleteKey identifies a delete file (a deletion vector by its blob).
func deleteKey(d *catalog.DataFile) string {
	if d.ContentOffset != nil {
		return d.Path + "@" + strconv.FormatInt(*d.ContentOffset, 10)
	}
	return d.Path
}

// liveDeleteFiles lists the live delete files of snap.
func liveDeleteFiles(ctx context.Context, tbl *catalog.Table, snap *catalog.Snapshot) ([]*catalog.DataFile, error) {
	list, err := catalog.ReadManifestList(ctx, tbl.IO, snap)
	if err != nil {
		return nil, err
	}
	var out []*catalog.DataFile
	for i := range list {
		if list[i].Content != catalog.ManifestDeletes {
			continue
		}
		man, err := catalog.ReadManifest(ctx, tbl.IO, &list[i])
		if err != nil {
			return nil, err
		}
		for _, e := range man.Entries {
			if e.Status != catalog.StatusDeleted && e.File.Content != catalog.ContentData {
				out = append(out, e.File)
			}
		}
	}
	return out, nil
}

// changeOf is the change of one commit: the batch's files replaced by the
// ones written, the delete files that applied only to the batch's files
// removed (with dangling, also those that applied to no file at all).
func changeOf(base int64, batch []*group, all []catalog.FileScanTask, live []*catalog.DataFile, dangling bool) *catalog.Change {
	ch := &catalog.Change{
		BaseSnapshotID: &base,
		Operation:      "replace",
		Isolation:      catalog.SnapshotIsolation,
	}
	rewritten := map[string]bool{}
	for _, g := range batch {
		for _, t := range g.tasks {
			rewritten[t.File.Path] = true
			ch.RemovedDataFiles = append(ch.RemovedDataFiles, t.File)
			ch.ReferencedDataFiles = append(ch.ReferencedDataFiles, t.File.Path)
		}
		ch.AddedDataFiles = append(ch.AddedDataFiles, g.added...)
	}
	// A delete file goes when every live data file it applies to is
	// rewritten here; one that applies to no data file only with dangling.
	applies := map[string]bool{} // delete key -> still applies to a kept file
	for _, t := range all {
		keep := !rewritten[t.File.Path]
		for _, d := range t.Deletes {
			k := deleteKey(d)
			applies[k] = applies[k] || keep
		}
	}
	seen := map[string]bool{}
	for _, d := range live {
		k := deleteKey(d)
		if seen[k] {
			continue
		}
		seen[k] = true
		still, known := applies[k]
		if (known && !still) || (!known && dangling) {
			ch.RemovedDeleteFiles = append(ch.RemovedDeleteFiles, d)
		}
	}
	return ch
}

// rewriter reads groups with their deletes and writes their rows anew.
type rewriter struct {
	spec   Spec
	out    catalog.OutputIO
	schema *catalog.Schema
	ids    []int // field ids read
	// writeSchema is the schema written: the table's, with the row
	// lineage columns in format 3.
	writeSchema *catalog.Schema
	props       map[string]string
	outSpec     int
	order       *catalog.SortOrder
	zorderPaths [][]int
}

func newRewriter(ctx context.Context, spec Spec) (*rewriter, error) {
	tbl := spec.Table
	m := tbl.Metadata
	out, err := spec.Catalog.NewOutput(tbl)
	if err != nil {
		return nil, err
	}
	schema := m.CurrentSchema()
	r := &rewriter{spec: spec, out: out, schema: schema, writeSchema: schema, outSpec: m.DefaultSpecID}
	if spec.Options.OutputSpecID != nil {
		r.outSpec = *spec.Options.OutputSpecID
	}
	for _, f := range schema.Fields {
		r.ids = append(r.ids, f.ID)
	}
	if m.FormatVersion >= 3 {
		ws := *schema
		ws.Fields = append(append([]catalog.NestedField(nil), schema.Fields...), scan.LineageFields()...)
		r.writeSchema = &ws
		r.ids = append(r.ids, scan.FieldIDRowID, scan.FieldIDLastUpdatedSeqNum)
	}
	r.props = maps.Clone(m.Properties)
	if r.props == nil {
		r.props = map[string]string{}
	}
	r.props[propTargetFileSize] = strconv.FormatInt(spec.Options.TargetFileSize, 10)
	if spec.Strategy == Sort {
		switch {
		case len(spec.ZOrder) > 0:
			for _, id := range spec.ZOrder {
				p := fieldPath(schema, id)
				if p == nil {
					return nil, fmt.Errorf("zorder field id %d is not in the table's schema", id)
				}
				r.zorderPaths = append(r.zorderPaths, p)
			}
		case spec.SortOrder != nil:
			o := *spec.SortOrder
			o.ID = 0
			for _, to := range m.SortOrders {
				if sameOrder(to, &o) {
					o.ID = to.ID
				}
			}
			r.order = &o
		default:
			for _, to := range m.SortOrders {
				if to.ID == m.DefaultSortOrderID && len(to.Fields) > 0 {
					r.order = to
				}
			}
		}
	}
	// Check the write settings before reading anything.
	wr, err := r.newWriter(ctx)
	if err != nil {
		return nil, err
	}
	_ = wr.Abort()
	return r, nil
}

func sameOrder(a, b *catalog.SortOrder) bool {
	if len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		x, y := a.Fields[i], b.Fields[i]
		if x.SourceID != y.SourceID || x.Transform.String() != y.Transform.String() || x.Direction != y.Direction || x.NullOrder != y.NullOrder {
			return false
		}
	}
	return true
}

func (r *rewriter) newWriter(ctx context.Context) (*write.Writer, error) {
	m := r.spec.Table.Metadata
	ws := write.WriterSpec{
		// Removing files after a cancel must not see the cancelled context.
		IO:            write.TableOutput(context.WithoutCancel(ctx), r.out),
		DataDir:       write.DataDir(m),
		Schema:        r.writeSchema,
		Spec:          m.SpecByID(r.outSpec),
		Properties:    r.props,
		FormatVersion: m.FormatVersion,
		SortOrder:     r.order,
	}
	if len(r.zorderPaths) > 0 {
		ws.RowOrder = zorderRows(r.zorderPaths)
	}
	return write.NewWriter(ctx, ws)
}

// rewriteGroups rewrites the groups of one commit, MaxConcurrentGroups at
// a time. On error the files of every group are removed.
func (r *rewriter) rewriteGroups(ctx context.Context, batch []*group) error {
	n := max(1, min(r.spec.Options.MaxConcurrentGroups, len(batch)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan *group)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range work {
				if err := r.rewriteGroup(ctx, g); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
				}
			}
		}()
	}
	for i, g := range batch {
		if ctx.Err() != nil {
			break
		}
		r.spec.progress("rewrite_data_files: rewriting group %d of %d (%d files, %d bytes)", i+1, len(batch), len(g.tasks), g.bytes)
		select {
		case work <- g:
		case <-ctx.Done():
		}
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// rewriteGroup reads a group's files with their deletes and writes the
// rows into new files.
func (r *rewriter) rewriteGroup(ctx context.Context, g *group) error {
	wr, err := r.newWriter(ctx)
	if err != nil {
		return err
	}
	g.written = wr
	opts := r.spec.Scan
	opts.Shard, opts.Shards = 0, 0
	op := scan.New(engine.ScanSpec{
		Table:    r.spec.Table,
		Tasks:    g.tasks,
		Schema:   r.schema,
		FieldIDs: r.ids,
	}, opts)
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return fmt.Errorf("rewrite data files of %s: %w", r.spec.Table.Ident.Name, err)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := op.Next()
		if err != nil {
			return fmt.Errorf("rewrite data files of %s: %w", r.spec.Table.Ident.Name, err)
		}
		if b == nil {
			break
		}
		g.rows += b.NumRows()
		if err := wr.Write(b); err != nil {
			return err
		}
	}
	files, err := wr.Close()
	if err != nil {
		return err
	}
	g.added = files
	return nil
}

// abort removes the files written for the batch's groups.
func (r *rewriter) abort(batch []*group) {
	for _, g := range batch {
		if g.written == nil {
			continue
		}
		if err := g.written.Abort(); err != nil {
			slog.Warn("rewrite_data_files: remove files of a failed rewrite", "table", r.spec.Table.Ident.Name, "error", err)
		}
		g.written, g.added = nil, nil
	}
}
