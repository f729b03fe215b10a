package write

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// The batches accepted and not yet written are bounded by count and by
// size: enough that the caller runs on while the pipe's goroutine waits
// for a core (the machine busy with other work), few enough to bound the
// memory held. One batch is always accepted, whatever its size.
const (
	pipeDepth = 64
	pipeBytes = 16 << 20
)

// filePipe runs a Writer's file work (partition routing, sorting buffer,
// Parquet or Avro encoding, compression, rolling) on a goroutine of its
// own, in the order the batches were accepted. The Writer's caller only
// checks each batch and hands it over, so producing rows and encoding them
// overlap. Everything the file work touches (open files, created paths,
// the sort buffer) belongs to the goroutine until stop returns.
type filePipe struct {
	w    *Writer
	jobs chan pipeJob
	done chan struct{} // closed when the goroutine has ended

	mu     sync.Mutex
	room   *sync.Cond // signalled when queued shrinks or the goroutine ends
	err    error      // the first error of the file work
	queued int64      // bytes of the batches accepted and not yet written
	ended  bool       // the goroutine has ended

	stopped bool
}

// pipeJob is one accepted batch: its columns, retained for the pipe.
type pipeJob struct {
	cols  []arrow.Array
	n     int
	bytes int64
}

func startPipe(w *Writer) *filePipe {
	p := &filePipe{w: w, jobs: make(chan pipeJob, pipeDepth), done: make(chan struct{})}
	p.room = sync.NewCond(&p.mu)
	go p.run()
	return p
}

func (p *filePipe) run() {
	defer func() {
		p.mu.Lock()
		p.ended = true
		p.room.Broadcast()
		p.mu.Unlock()
		close(p.done)
	}()
	ctx := p.w.ctx
	for {
		select {
		case j, ok := <-p.jobs:
			if !ok {
				return
			}
			if p.failed() == nil {
				if err := p.w.writeCols(j.cols, j.n); err != nil {
					p.setErr(err)
				}
			}
			j.release()
			p.mu.Lock()
			p.queued -= j.bytes
			p.room.Broadcast()
			p.mu.Unlock()
		case <-ctx.Done():
			p.setErr(ctx.Err())
			return
		}
	}
}

func (j pipeJob) release() {
	for _, c := range j.cols {
		c.Release()
	}
}

func (p *filePipe) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *filePipe) setErr(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
	}
}

// send hands the n rows of cols to the goroutine (retaining the columns),
// waiting while pipeDepth batches or pipeBytes are queued. It returns the
// error of an earlier batch's file work, if any.
func (p *filePipe) send(cols []arrow.Array, n int) error {
	var size int64
	for _, c := range cols {
		size += arraySize(c.Data())
	}
	p.mu.Lock()
	for p.queued > 0 && p.queued+size > pipeBytes && !p.ended && p.err == nil {
		p.room.Wait()
	}
	err := p.err
	if err == nil {
		p.queued += size
	}
	p.mu.Unlock()
	if err != nil {
		return err
	}
	kept := make([]arrow.Array, len(cols))
	for k, c := range cols {
		c.Retain()
		kept[k] = c
	}
	j := pipeJob{cols: kept, n: n, bytes: size}
	select {
	case p.jobs <- j:
		return nil
	case <-p.done:
		j.release()
		if err := p.failed(); err != nil {
			return err
		}
		return p.w.ctx.Err()
	}
}

// stop waits until every accepted batch has been written (or dropped
// after an error) and the goroutine has ended; it returns the first error
// of the file work. Calling it again returns that error again.
func (p *filePipe) stop() error {
	if !p.stopped {
		p.stopped = true
		close(p.jobs)
		<-p.done
		for j := range p.jobs { // left queued when the context ended
			j.release()
		}
	}
	return p.failed()
}
