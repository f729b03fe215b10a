package translate

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/icegate/icegate/syscat"
)

// runningCopies are the COPY statements running in a backend's sessions,
// listed by pg_stat_progress_copy. A COPY registers when it starts,
// updates its counts as rows pass, and leaves when it ends, however it
// ends. The zero value is ready.
type runningCopies struct {
	mu   sync.Mutex
	next int64
	m    map[int64]*copyProgress
}

// copyProgress is one running COPY; its counts are read by other sessions.
type copyProgress struct {
	r             *runningCopies
	id            int64
	info          syscat.CopyProgress // the fixed part
	bytes, tuples atomic.Int64
	// counter, when set, gives the bytes read (COPY FROM); any goroutine
	// may call it.
	counter CopyByteCounter
}

// CopyByteCounter is implemented by a CopySource that knows how many bytes
// of the client's stream it has read (pg_stat_progress_copy's
// bytes_processed of COPY FROM). Other sessions' goroutines call it.
type CopyByteCounter interface {
	BytesProcessed() int64
}

// CopyBytesSink is implemented by the Rows of COPY TO: wire reports the
// bytes of COPY data it sent (bytes_processed of COPY TO).
type CopyBytesSink interface {
	CopyBytesSent(n int64)
}

// start registers a COPY of the session on table (namespace, name; empty
// for a query), reading its bytes from counter when not nil, and returns
// its progress.
func (r *runningCopies) start(s *session, command string, table [2]string, counter CopyByteCounter) *copyProgress {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[int64]*copyProgress{}
	}
	r.next++
	p := &copyProgress{r: r, id: r.next, info: syscat.CopyProgress{PID: s.pid, Database: s.database,
		Namespace: table[0], Table: table[1], Command: command}, counter: counter}
	r.m[p.id] = p
	return p
}

// end removes the COPY; it may be called more than once.
func (p *copyProgress) end() {
	if p == nil {
		return
	}
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	delete(p.r.m, p.id)
}

// list returns the running COPYs, oldest first.
func (r *runningCopies) list() []syscat.CopyProgress {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]syscat.CopyProgress, 0, len(r.m))
	for _, p := range r.m {
		c := p.info
		c.Bytes, c.Tuples = p.bytes.Load(), p.tuples.Load()
		if p.counter != nil {
			c.Bytes = p.counter.BytesProcessed()
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b syscat.CopyProgress) int { return int(a.PID - b.PID) })
	return out
}

// copyTable is the (namespace, name) a COPY names, its namespace the
// current schema when unqualified.
func (s *session) copyTable(ctx context.Context, ns []string, name string) [2]string {
	if len(ns) > 0 {
		return [2]string{ns[len(ns)-1], name}
	}
	return [2]string{s.CurrentSchema(ctx), name}
}
