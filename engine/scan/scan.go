package scan

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
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
	// than CPUs.
	Shard, Shards int

	// generalNested reads every nested column through the general
	// level-assembly path (tests compare it with the struct fast path).
	generalNested bool
}

// Scan is the operator that reads a table: it implements engine.Operator.
type Scan struct {
	spec   engine.ScanSpec
	opts   Options
	schema *arrow.Schema
	// schemaErr is an error found while building the schema (an unknown
	// field id), returned by Open.
	schemaErr error

	ctx    context.Context
	cancel context.CancelFunc
	out    chan arrow.RecordBatch
	done   chan struct{} // closed when every worker has returned
	cur    arrow.RecordBatch

	mu  sync.Mutex
	err error // first worker error

	counters *scanCounters // what the workers read and skipped (Stats)
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
	return s
}

// Schema implements engine.Operator.
func (s *Scan) Schema() *arrow.Schema { return s.schema }

// Open starts the workers; the first batch may be ready before Next is
// called.
func (s *Scan) Open(ctx context.Context) error {
	if s.schemaErr != nil {
		return s.schemaErr
	}
	if s.spec.Schema == nil {
		return fmt.Errorf("scan: no read schema")
	}
	run, err := newScanRun(s.spec, s.opts)
	if err != nil {
		return err
	}
	s.counters = run.counters
	s.ctx, s.cancel = context.WithCancel(ctx)
	workers := min(s.opts.Parallelism, len(s.spec.Tasks))
	s.out = make(chan arrow.RecordBatch, max(workers, 1))
	s.done = make(chan struct{})
	tasks := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range tasks {
				if err := run.runTask(s.ctx, &s.spec.Tasks[i], s.emit); err != nil {
					s.fail(err)
					return
				}
			}
		}()
	}
	go func() {
		defer close(tasks)
		for i := range s.spec.Tasks {
			select {
			case tasks <- i:
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
