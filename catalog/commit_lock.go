package catalog

import (
	"context"
	"sync"
)

// TableLocks serializes, within one process, the commits of each table
// of a catalog whose commits are arbitrated elsewhere (a database row, an
// object store's conditional write). Writers of one gateway then take
// turns instead of racing: each attempt starts from the metadata the
// previous one made, and only writers of other processes can make it
// lose. Eight writers of one table through one gateway committed about
// half as fast as one writer, losing 1.7 races per commit, before.
type TableLocks struct {
	mu    sync.Mutex
	locks map[string]*tableLock
}

type tableLock struct {
	sem  chan struct{}
	refs int
}

// LockCommits waits for the commit lock of table name (or for ctx to end)
// and returns its release.
func (l *TableLocks) LockCommits(ctx context.Context, name string) (func(), error) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[string]*tableLock{}
	}
	tl := l.locks[name]
	if tl == nil {
		tl = &tableLock{sem: make(chan struct{}, 1)}
		l.locks[name] = tl
	}
	tl.refs++
	l.mu.Unlock()
	drop := func() {
		l.mu.Lock()
		if tl.refs--; tl.refs == 0 {
			delete(l.locks, name)
		}
		l.mu.Unlock()
	}
	select {
	case tl.sem <- struct{}{}:
	case <-ctx.Done():
		drop()
		return nil, ctx.Err()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-tl.sem
			drop()
		})
	}, nil
}

// commitLocker is a catalog whose commits of one table take turns in this
// process.
type commitLocker interface {
	LockCommits(ctx context.Context, name string) (func(), error)
}

// lockTableCommits takes the commit lock of table id when cat (or the
// catalog it wraps) has one; release is a no-op otherwise.
func lockTableCommits(ctx context.Context, cat MutableCatalog, id Identifier) (func(), error) {
	for range 10 {
		switch c := cat.(type) {
		case commitLocker:
			return c.LockCommits(ctx, qualified(id.Namespace, id.Name))
		case Wrapper:
			cat = c.Unwrap()
			continue
		}
		break
	}
	return func() {}, nil
}
