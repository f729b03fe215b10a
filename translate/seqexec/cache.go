package seqexec

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/caterr"
	"github.com/icegate/icegate/translate/sequence"
)

// Cache is a session's side of sequences: the values it took and has not
// handed out, and what currval and lastval return. The session holds one
// and hands it out through Env.Sequences.
type Cache struct {
	mu     sync.Mutex
	cached map[string]*seqCached // by seqKey
	curr   map[string]int64      // currval, by seqKey
	// lastKey is the sequence nextval last took from: lastval is its
	// currval.
	lastKey string
}

type seqCached struct {
	next, left, inc int64
}

// seqKey identifies one sequence (a dropped and recreated one is another).
func seqKey(t *catalog.Table) string {
	return strings.Join(t.Ident.Namespace, "\x00") + "\x01" + t.Ident.Name + "\x02" + t.Metadata.TableUUID
}

// nextval hands out the next value of sequence t; want is how many more
// the caller is about to ask for (the rows left in its batch).
func (s Exec) nextval(ctx context.Context, t *catalog.Table, want int64) (int64, error) {
	q := s.Sequences()
	key := seqKey(t)
	q.mu.Lock()
	defer q.mu.Unlock()
	c := q.cached[key]
	if c == nil || c.left == 0 {
		first, count, inc, err := s.allocate(ctx, t, want)
		if err != nil {
			return 0, err
		}
		if q.cached == nil {
			q.cached = map[string]*seqCached{}
		}
		c = &seqCached{next: first, left: count, inc: inc}
		q.cached[key] = c
	}
	v := c.next
	c.left--
	if c.left > 0 {
		c.next += c.inc
	}
	if q.curr == nil {
		q.curr = map[string]int64{}
	}
	q.curr[key] = v
	q.lastKey = key
	return v, nil
}

// allocate takes max(CACHE, want) values of t by a commit.
func (s Exec) allocate(ctx context.Context, t *catalog.Table, want int64) (first, count, inc int64, err error) {
	mc, err := s.SequenceCatalog("nextval()", t.Ident)
	if err != nil {
		return 0, 0, 0, err
	}
	for attempt := 0; ; attempt++ {
		cur, err := mc.LoadTable(ctx, t.Ident)
		if err != nil || cur.Metadata.TableUUID != t.Metadata.TableUUID || !sequence.Is(cur) {
			if err != nil && !errors.Is(err, catalog.ErrNotFound) {
				return 0, 0, 0, caterr.Convert(err, caterr.Table, t.Ident.Name)
			}
			return 0, 0, 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", t.Ident.Name)
		}
		o, st, err := sequence.Read(cur)
		if err != nil {
			return 0, 0, 0, err
		}
		first, count, next, err := o.Take(t.Ident.Name, st, max(o.Cache, want))
		if err != nil {
			return 0, 0, 0, err
		}
		_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{
			catalog.AssertTableUUID{UUID: t.Metadata.TableUUID},
			catalog.AssertProperty{Key: sequence.StateProp, Value: st.String()},
		}, []catalog.Update{catalog.SetProperties{Updates: map[string]string{sequence.StateProp: next.String()}}})
		if errors.Is(err, catalog.ErrCommitConflict) && attempt < 1000 {
			if err := ctx.Err(); err != nil {
				return 0, 0, 0, err
			}
			continue
		}
		if err != nil {
			return 0, 0, 0, caterr.Convert(err, caterr.Table, t.Ident.Name)
		}
		return first, count, o.Increment, nil
	}
}

// currval is the value nextval last returned for t in this session.
func (s Exec) currval(t *catalog.Table) (int64, error) {
	q := s.Sequences()
	q.mu.Lock()
	defer q.mu.Unlock()
	v, ok := q.curr[seqKey(t)]
	if !ok {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "currval of sequence \"%s\" is not yet defined in this session", t.Ident.Name)
	}
	return v, nil
}

// lastval is the value nextval last returned in this session.
func (s Exec) lastval() (int64, error) {
	q := s.Sequences()
	q.mu.Lock()
	defer q.mu.Unlock()
	v, ok := q.curr[q.lastKey]
	if q.lastKey == "" || !ok {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
	}
	return v, nil
}

// Forget drops the values this session holds of sequence t (after setval,
// ALTER SEQUENCE, DROP).
func (q *Cache) Forget(t *catalog.Table) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.cached, seqKey(t))
}

// setval sets t's state to (v, called): setval(seq, v [, is_called]).
func (s Exec) setval(ctx context.Context, t *catalog.Table, v int64, called bool) error {
	mc, err := s.SequenceCatalog("setval()", t.Ident)
	if err != nil {
		return err
	}
	cur, err := mc.LoadTable(ctx, t.Ident)
	if err != nil {
		return caterr.Convert(err, caterr.Table, t.Ident.Name)
	}
	o, _, err := sequence.Read(cur)
	if err != nil {
		return err
	}
	if v < o.Min || v > o.Max {
		return pgerr.New(pgerr.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence \"%s\" (%d..%d)", v, t.Ident.Name, o.Min, o.Max)
	}
	_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: t.Metadata.TableUUID}},
		[]catalog.Update{catalog.SetProperties{Updates: map[string]string{sequence.StateProp: sequence.State{Last: v, Called: called}.String()}}})
	if err != nil {
		return caterr.Convert(err, caterr.Table, t.Ident.Name)
	}
	q := s.Sequences()
	q.Forget(t)
	if called {
		q.mu.Lock()
		if q.curr == nil {
			q.curr = map[string]int64{}
		}
		q.curr[seqKey(t)] = v
		q.mu.Unlock()
	}
	return nil
}
