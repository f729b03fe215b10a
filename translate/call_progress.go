package translate

import (
	"slices"
	"sync"
	"time"

	"github.com/icegate/icegate/syscat"
)

// runningProcedures are the CALLs running in a backend's sessions, listed
// by pg_stat_progress_procedure: each registers when its arguments are
// bound, reports its progress messages (the NOTICE lines its caller sees),
// and leaves when it ends, however it ends. The zero value is ready.
type runningProcedures struct {
	mu   sync.Mutex
	next int64
	m    map[int64]*syscat.ProcedureProgress
}

// start registers a running procedure and returns its key.
func (r *runningProcedures) start(p syscat.ProcedureProgress) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[int64]*syscat.ProcedureProgress{}
	}
	r.next++
	r.m[r.next] = &p
	return r.next
}

// phase records the last progress message of procedure id.
func (r *runningProcedures) phase(id int64, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p := r.m[id]; p != nil {
		p.Phase = msg
	}
}

// end removes procedure id.
func (r *runningProcedures) end(id int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, id)
}

// list returns copies of the running procedures, oldest first.
func (r *runningProcedures) list() []syscat.ProcedureProgress {
	r.mu.Lock()
	out := make([]syscat.ProcedureProgress, 0, len(r.m))
	for _, p := range r.m {
		out = append(out, *p)
	}
	r.mu.Unlock()
	slices.SortFunc(out, func(a, b syscat.ProcedureProgress) int {
		if c := a.Started.Compare(b.Started); c != 0 {
			return c
		}
		return int(a.PID - b.PID)
	})
	return out
}

// progressEntry is what a CALL registers about itself: the session, the
// procedure and the table of its table argument, resolved as Spark writes
// it ('t', 'db.t', 'catalog.db.t'; an unqualified name in the current
// schema).
func (s *session) progressEntry(procName string, table []string, currentSchema string, now time.Time) syscat.ProcedureProgress {
	p := syscat.ProcedureProgress{PID: s.pid, User: s.CurrentUser(), Procedure: procName, Started: now}
	switch {
	case len(table) >= 2:
		p.Namespace, p.Table = table[len(table)-2], table[len(table)-1]
	case len(table) == 1:
		p.Namespace, p.Table = currentSchema, table[0]
	}
	return p
}
