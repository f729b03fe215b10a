package scan

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// DefaultBatchSize is the number of rows per batch when Options leave it 0.
const DefaultBatchSize = 8192

// Options tune a scan.
type Options struct {
	// Alloc allocates the batches' buffers (default memory.DefaultAllocator).
	Alloc memory.Allocator
	// BatchSize is the largest number of rows per batch (default 8192).
	BatchSize int
	// Parallelism is how many files are read at once (default GOMAXPROCS).
	Parallelism int
	// Shards > 1 makes this scan one of Shards that together read the
	// table once: it reads the Parquet row groups whose index is Shard
	// modulo Shards, and files of other formats only when Shard is 0.
	// Parallel plans run one scan per shard when a table has fewer files
	// than CPUs. A Parquet file whose column chunks have offset indexes
	// is split by rows instead (see shardRange): each shard reads about
	// 1/Shards of its rows, whatever the sizes of its row groups.
	Shard, Shards int
	// SplitFiles lets a scan with fewer files than Parallelism split each
	// Parquet file among its workers as Shards would, so that all of them
	// decode; batches then come in no particular order, even within a
	// file. Ignored when Shards > 1.
	SplitFiles bool

	// Totals, when set, receives the scan's ScanStats when it closes.
	Totals *Totals

	// generalNested reads every nested column through the general
	// level-assembly path (tests compare it with the struct fast path).
	generalNested bool
	// noDictFilter leaves every exact conjunct to the RowFilter (tests
	// compare it with conjuncts judged by dictionary code).
	noDictFilter bool
	// dictEveryCost judges conjuncts by dictionary code whatever their
	// cost (tests of the fixed-width readers).
	dictEveryCost bool
	// RecycleBuffers makes the scan allocate the value buffers of
	// fixed-width columns from a free list that batches return to when
	// they are released (Alloc then serves the other buffers), sparing
	// the Go heap a fresh, cleared buffer per batch. Only for consumers
	// that stop reading a batch's memory when they release it: one that
	// keeps a slice of the values past Release (as a Parquet writer that
	// buffers byte slices does) would see them overwritten.
	RecycleBuffers bool

	// Columns, when set, keeps the decoded columns of small Parquet row
	// groups for later scans (see ColumnCache). Ignored with
	// RecycleBuffers: cached arrays must outlive the batches.
	Columns *ColumnCache
	// Footers, when set, keeps the parsed footers of Parquet data files
	// for later scans, which then open a file only when they read from
	// it (see FooterCache).
	Footers *FooterCache

	// builders reads top-level columns through Arrow builders rather than
	// straight into arrays (tests compare the two).
	builders bool
}

// Scan is the operator that reads a table: it implements engine.Operator.
type Scan struct {
	spec   engine.ScanSpec
	opts   Options
	schema *arrow.Schema
	// schemaErr is an error found while building the schema (an unknown
	// field id), returned by Open.
	schemaErr error
	// whereErr is the error compiling spec.Exact gave (WhereErr).
	whereErr error
	// compiled is the filter New compiled to find whereErr, handed to
	// the first worker that asks (a RowFilter serves one goroutine), so a
	// scan of one file compiles its filter once.
	compiled atomic.Pointer[exec.RowFilter]

	ctx    context.Context
	cancel context.CancelFunc
	out    chan arrow.RecordBatch
	done   chan struct{} // closed when every worker has returned
	cur    arrow.RecordBatch

	mu  sync.Mutex
	err error // first worker error

	counters *scanCounters // what the workers read and skipped (Stats)
	// filtered counts the rows spec.Exact removed, over every Open.
	filtered atomic.Int64
	// unread flags the output columns returned all NULL: those of
	// spec.FilterOnly that are not metadata columns (nil when none).
	unread []bool
}

var _ engine.Operator = (*Scan)(nil)

// New returns the operator that scans spec. Its schema has one column per
// spec.FieldIDs entry, typed by engine.ArrowField.
func New(spec engine.ScanSpec, opts Options) engine.Operator {
	if opts.Alloc == nil {
		opts.Alloc = memory.DefaultAllocator
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = runtime.GOMAXPROCS(0)
	}
	s := &Scan{spec: spec, opts: opts}
	fields := make([]arrow.Field, 0, len(spec.FieldIDs))
	for _, id := range spec.FieldIDs {
		f := topField(spec, id)
		if f == nil {
			s.schemaErr = pgerr.New(pgerr.UndefinedColumn, "column with field id %d does not exist in the read schema", id)
			continue
		}
		fields = append(fields, engine.ArrowField(*f))
	}
	s.schema = arrow.NewSchema(fields, nil)
	if len(spec.Exact) > 0 {
		s.unread = unreadColumns(spec)
	}
	if s.schemaErr == nil && len(spec.Exact) > 0 {
		var rf *exec.RowFilter
		rf, s.whereErr = s.rowFilter()
		s.compiled.Store(rf)
	}
	return s
}

// unreadColumns is which output columns of spec come out all NULL
// (ScanSpec.FilterOnly but metadata and lineage columns); nil when none.
func unreadColumns(spec engine.ScanSpec) []bool {
	var out []bool
	for i, id := range spec.FieldIDs {
		if i >= len(spec.FilterOnly) || !spec.FilterOnly[i] || IsMetadataField(id) || IsLineageField(id) {
			continue
		}
		if out == nil {
			out = make([]bool, len(spec.FieldIDs))
		}
		out[i] = true
	}
	return out
}

// rowFilter compiles spec.Exact over the scan's output (nil without
// them): each worker evaluates its own, the first the one New compiled.
func (s *Scan) rowFilter() (*exec.RowFilter, error) {
	if len(s.spec.Exact) == 0 {
		return nil, nil
	}
	if rf := s.compiled.Swap(nil); rf != nil {
		return rf, nil
	}
	return exec.NewRowFilter(s.schema, exactPred(s.spec.Exact), s.spec.ExactOptions)
}

// exactPred is the AND of the conjuncts cs.
func exactPred(cs []expr.Expr) expr.Expr {
	if len(cs) == 1 {
		return cs[0]
	}
	return &expr.Call{Fn: "and", Args: cs, T: expr.Bool}
}

// taskFilter is how one worker applies spec.Exact: the conjuncts judged
// per column (by dictionary code where the files allow, dictfilter.go)
// and a RowFilter of the others (zero without conjuncts).
type taskFilter struct {
	rf  *exec.RowFilter
	sel *rowSel
}

func (s *Scan) taskFilter() (taskFilter, error) {
	if len(s.spec.Exact) == 0 {
		return taskFilter{}, nil
	}
	var cols []colConj
	rest := s.spec.Exact
	// _deleted keeps deleted rows flagged: the rows the conjuncts drop go
	// through the RowFilter then.
	if !s.opts.noDictFilter && !newMetaColumns(s.spec).markDeleted {
		cols, rest = splitExact(s.spec.Exact, s.spec.FieldIDs, s.schema, s.spec.ExactOptions, s.opts.dictEveryCost)
	}
	if len(cols) == 0 {
		rf, err := s.rowFilter()
		if rf != nil {
			rf.SetUnread(s.schema, s.unread)
		}
		return taskFilter{rf: rf}, err
	}
	rf, err := exec.NewRowFilterOf(s.schema, rest, s.spec.ExactOptions)
	if err != nil {
		return taskFilter{}, err
	}
	rf.SetUnread(s.schema, s.unread)
	// a column nothing else reads need not be built where its conjuncts
	// are judged by code
	for i := range cols {
		out := cols[i].out
		cols[i].unread = out < len(s.unread) && s.unread[out] && !rf.Reads()[out]
	}
	sel, err := newRowSel(cols, s.spec.ExactOptions)
	if err != nil {
		return taskFilter{}, err
	}
	sel.mem = s.opts.Alloc
	return taskFilter{rf: rf, sel: sel}, nil
}

// WhereErr is the error compiling ScanSpec.Exact gave (Open returns it
// too): the one a Filter operator over the scan would have given.
func (s *Scan) WhereErr() error { return s.whereErr }

// RowsFiltered is the rows the scan read and did not return because a
// conjunct of ScanSpec.Exact rejected them, over all its runs.
func (s *Scan) RowsFiltered() int64 { return s.filtered.Load() }

// Spec is what the scan reads.
func (s *Scan) Spec() engine.ScanSpec { return s.spec }

// Schema implements engine.Operator.
func (s *Scan) Schema() *arrow.Schema { return s.schema }

// Open starts the workers; the first batch may be ready before Next is
// called.
func (s *Scan) Open(ctx context.Context) error {
	if s.schemaErr != nil {
		return s.schemaErr
	}
	if s.whereErr != nil {
		return s.whereErr
	}
	if s.spec.Schema == nil {
		return fmt.Errorf("scan: no read schema")
	}
	run, err := newScanRun(s.spec, s.opts)
	if err != nil {
		return err
	}
	run.filtered = &s.filtered
	s.counters = run.counters
	s.ctx, s.cancel = context.WithCancel(ctx)
	units := s.units()
	workers := min(s.opts.Parallelism, len(units))
	s.out = make(chan arrow.RecordBatch, max(workers, 1))
	s.done = make(chan struct{})
	work := make(chan scanUnit)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rf, err := s.taskFilter()
			if err != nil {
				s.fail(err)
				return
			}
			if rec, ok := run.vals.(*recycler); ok && s.opts.RecycleBuffers && rf.rf != nil {
				// the consumer is done with a batch when it releases it:
				// the rows kept are copied into recycled buffers too
				rf.rf.GatherInto(rec)
			}
			for u := range work {
				if err := run.runTask(s.ctx, &s.spec.Tasks[u.task], u.part, rf, s.emit); err != nil {
					s.fail(err)
					return
				}
			}
		}()
	}
	go func() {
		defer close(work)
		for _, u := range units {
			select {
			case work <- u:
			case <-s.ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(s.out)
		close(s.done)
	}()
	return nil
}

// scanUnit is what one worker reads at a time: a part of a task's file.
type scanUnit struct {
	task int
	part fileShard
}

// units lists the work of the scan: each task, or with SplitFiles and
// fewer tasks than workers, each Parquet task in Parallelism shards.
func (s *Scan) units() []scanUnit {
	split := s.opts.SplitFiles && s.opts.Shards <= 1 && s.opts.Parallelism > 1 &&
		len(s.spec.Tasks) < s.opts.Parallelism
	var out []scanUnit
	for i := range s.spec.Tasks {
		f := s.spec.Tasks[i].File
		if !split || f == nil || catalog.FileFormat(strings.ToUpper(string(f.Format))) != catalog.FormatParquet {
			out = append(out, scanUnit{task: i, part: fileShard{shard: s.opts.Shard, shards: s.opts.Shards}})
			continue
		}
		for k := range s.opts.Parallelism {
			out = append(out, scanUnit{task: i, part: fileShard{shard: k, shards: s.opts.Parallelism}})
		}
	}
	return out
}

// emit hands a batch to the consumer, or releases it when the scan ends.
func (s *Scan) emit(rec arrow.RecordBatch) error {
	select {
	case s.out <- rec:
		return nil
	case <-s.ctx.Done():
		rec.Release()
		return s.ctx.Err()
	}
}

func (s *Scan) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
	s.cancel()
}

// Next implements engine.Operator.
func (s *Scan) Next() (arrow.RecordBatch, error) {
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
	if s.out == nil {
		return nil, fmt.Errorf("scan: Next before Open")
	}
	rec, ok := <-s.out
	if !ok {
		s.mu.Lock()
		err := s.err
		s.mu.Unlock()
		if err == nil {
			err = s.ctx.Err()
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			if perr := context.Cause(s.ctx); perr != nil {
				err = perr
			}
		}
		return nil, err
	}
	s.cur = rec
	return rec, nil
}

// Close stops the workers, waits for them and releases what is buffered.
func (s *Scan) Close() error {
	if t := s.opts.Totals; t != nil {
		s.opts.Totals = nil // once
		defer func() { t.addScan(s.Stats()) }()
	}
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
	if s.cancel == nil {
		return nil
	}
	s.cancel()
	for rec := range s.out {
		rec.Release()
	}
	<-s.done
	return nil
}
