package translate

import (
	"context"
	"errors"
	"sync"

	"github.com/icegate/icegate/catalog"

	"github.com/icegate/icegate/translate/bind"
)

// advisoryLocks are the server's advisory locks (pg_advisory_lock and
// its family) when its catalog cannot share them: held by sessions of this
// process only. A catalog that can (catalog.AdvisoryLocker: the SQL
// catalog on PostgreSQL) holds them instead, for every gateway on it; see
// catalogAdvisory.
//
// As in PostgreSQL, a lock is held in exclusive or shared mode; a session
// may take a lock it holds again (each hold is released separately), and
// holds taken for the transaction (the _xact_ forms) are released when it
// ends, those taken for the session when released or when it ends.
type advisoryLocks struct {
	mu    sync.Mutex
	locks map[bind.AdvisoryKey]*advisoryLock
}

type advisoryLock struct {
	// holds counts each session's holds: exclusive and shared, session
	// and transaction level apart.
	holds map[advisoryHolder]int
	// changed is closed (and replaced) whenever a hold is released, waking
	// the sessions waiting for the lock.
	changed chan struct{}
}

type advisoryHolder struct {
	pid    int32
	shared bool
	xact   bool
}

// free reports whether pid may take the lock in the mode asked: nobody
// else holds it exclusively, and for an exclusive hold nobody else holds
// it at all.
func (l *advisoryLock) free(pid int32, shared bool) bool {
	for h, n := range l.holds {
		if n == 0 || h.pid == pid {
			continue
		}
		if !h.shared || !shared {
			return false
		}
	}
	return true
}

func (a *advisoryLocks) lock(ctx context.Context, pid int32, key bind.AdvisoryKey, shared, xact, wait bool) (bool, error) {
	for {
		a.mu.Lock()
		if a.locks == nil {
			a.locks = map[bind.AdvisoryKey]*advisoryLock{}
		}
		l := a.locks[key]
		if l == nil {
			l = &advisoryLock{holds: map[advisoryHolder]int{}, changed: make(chan struct{})}
			a.locks[key] = l
		}
		if l.free(pid, shared) {
			l.holds[advisoryHolder{pid, shared, xact}]++
			a.mu.Unlock()
			return true, nil
		}
		changed := l.changed
		a.mu.Unlock()
		if !wait {
			return false, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false, context.Cause(ctx)
		}
	}
}

// unlock releases one session-level hold of key by pid.
func (a *advisoryLocks) unlock(pid int32, key bind.AdvisoryKey, shared bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.locks[key]
	if l == nil {
		return false
	}
	h := advisoryHolder{pid, shared, false}
	if l.holds[h] == 0 {
		return false
	}
	l.holds[h]--
	if l.holds[h] == 0 {
		delete(l.holds, h)
	}
	a.released(key, l)
	return true
}

// releaseAll releases pid's transaction-level holds (xact) or its
// session-level ones.
func (a *advisoryLocks) releaseAll(pid int32, xact bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for key, l := range a.locks {
		gone := false
		for h := range l.holds {
			if h.pid == pid && h.xact == xact {
				delete(l.holds, h)
				gone = true
			}
		}
		if gone {
			a.released(key, l)
		}
	}
}

// released wakes the waiters of l and forgets it once nobody holds it.
func (a *advisoryLocks) released(key bind.AdvisoryKey, l *advisoryLock) {
	close(l.changed)
	l.changed = make(chan struct{})
	if len(l.holds) == 0 {
		delete(a.locks, key)
	}
}

// xactHold is a transaction-level hold a session took in its catalog's
// shared advisory locks, released when the transaction ends.
type xactHold struct {
	key    bind.AdvisoryKey
	shared bool
}

// catalogAdvisory returns the session's advisory locks in its catalog's
// database, opened at the first lock, or nil when the catalog keeps none
// (the locks are then this process's).
func (s *session) catalogAdvisory(ctx context.Context) (catalog.AdvisorySession, error) {
	if s.advisory != nil || s.advisoryLocal {
		return s.advisory, nil
	}
	l, ok := s.base.(catalog.AdvisoryLocker)
	if !ok {
		s.advisoryLocal = true
		return nil, nil
	}
	a, err := l.AdvisorySession(ctx)
	if errors.Is(err, catalog.ErrUnsupported) {
		s.advisoryLocal = true
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.advisory = a
	return a, nil
}

// releaseAdvisory releases the session's transaction-level advisory
// holds (xact) or, at the session's end, every hold.
func (s *session) releaseAdvisory(xact bool) {
	s.backend.advisory.releaseAll(s.pid, xact)
	if s.advisory == nil {
		return
	}
	if !xact {
		s.advisory.Close()
		s.advisory, s.xactAdvisory = nil, nil
		return
	}
	for _, h := range s.xactAdvisory {
		s.advisory.Unlock(context.Background(), h.key.Key, h.key.Pair, h.shared)
	}
	s.xactAdvisory = nil
}
