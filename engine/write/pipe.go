package write

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// pipeDepth is how many accepted batches may wait for the pipe's
// goroutine: enough to absorb the caller's uneven pace, few enough to
// bound the memory held.
const pipeDepth = 2

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

	mu  sync.Mutex
	err error // the first error of the file work

	stopped bool
}

// pipeJob is one accepted batch: its columns, retained for the pipe.
type pipeJob struct {
	cols []arrow.Array
	n    int
}

func startPipe(w *Writer) *filePipe {
	p := &filePipe{w: w, jobs: make(chan pipeJob, pipeDepth), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *filePipe) run() {
	defer close(p.done)
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
// waiting while pipeDepth batches are queued. It returns the error of an
// earlier batch's file work, if any.
func (p *filePipe) send(cols []arrow.Array, n int) error {
	if err := p.failed(); err != nil {
		return err
	}
	kept := make([]arrow.Array, len(cols))
	for k, c := range cols {
		c.Retain()
		kept[k] = c
	}
	j := pipeJob{cols: kept, n: n}
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
