package roles

import (
	"context"
	"fmt"
)

// A transaction block's changes of roles and privileges are staged: Stage
// gives a Store whose Update applies a change to a private copy of the
// state, which its own Current returns, and records the change; Commit
// replays every recorded change onto the newest shared state and
// publishes the result as one version, so other sessions see all of the
// block's changes or none. Dropping the staged Store is the rollback.
type staging struct {
	base    *Store
	changes []func(*State) error
	// view is the shared state of version viewOf with changes applied
	// (nil: to be made again).
	view   *State
	viewOf int64
}

// Stage returns a Store for one transaction block over s. Until its first
// change its Current is s's.
func (s *Store) Stage() *Store {
	return &Store{dir: s.dir, bootstrap: s.bootstrap, hash: s.hash, check: s.check, staged: &staging{base: s}}
}

// Staged reports whether s is a block's staged Store.
func (s *Store) Staged() bool { return s.staged != nil }

// current is the newest shared state with the staged changes applied
// again when another gateway published a version since the last time.
func (g *staging) current(ctx context.Context) (*State, error) {
	cur, err := g.base.Current(ctx)
	if err != nil || len(g.changes) == 0 {
		return cur, err
	}
	if g.view != nil && g.viewOf == cur.Version {
		return g.view, nil
	}
	next := cur.clone()
	for _, c := range g.changes {
		if err := c(next); err != nil {
			return nil, fmt.Errorf("apply the block's changes of roles and privileges again: %w", err)
		}
	}
	g.view, g.viewOf = next, cur.Version
	return next, nil
}

func (g *staging) update(ctx context.Context, change func(*State) error) (*State, error) {
	cur, err := g.current(ctx)
	if err != nil {
		return nil, err
	}
	next := cur.clone()
	if err := change(next); err != nil {
		return nil, err
	}
	g.changes = append(g.changes, change)
	g.view, g.viewOf = next, cur.Version
	return next, nil
}

// Mark is how many changes s has staged (for a savepoint); 0 for a nil
// or shared Store.
func (s *Store) Mark() int {
	if s == nil || s.staged == nil {
		return 0
	}
	return len(s.staged.changes)
}

// RollbackTo drops the changes staged after mark (nothing on a nil or
// shared Store).
func (s *Store) RollbackTo(mark int) {
	if s == nil || s.staged == nil || mark >= len(s.staged.changes) {
		return
	}
	g := s.staged
	g.changes, g.view = g.changes[:mark], nil
}

// Commit publishes the staged changes as one version of the shared
// store, replayed onto its newest state (another gateway's change since
// the block's first one is kept; a staged change that no longer applies,
// such as creating a role another session created meanwhile, fails the
// commit and publishes nothing). A Store that staged nothing commits
// nothing.
func (s *Store) Commit(ctx context.Context) error {
	g := s.staged
	if g == nil || len(g.changes) == 0 {
		return nil
	}
	changes := g.changes
	_, err := g.base.Update(ctx, func(st *State) error {
		for _, c := range changes {
			if err := c(st); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	g.changes, g.view = nil, nil
	return nil
}
