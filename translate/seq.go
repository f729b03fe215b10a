package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Sequences. A sequence is a catalog table of its own name, with no rows,
// whose properties hold what it is and where it stands:
//
//	icegate.sequence        = its options as JSON (seqOptions)
//	icegate.sequence.state  = "<last_value> <is_called>", as PostgreSQL's
//	                          sequence row: "1 false" before the first nextval
//
// nextval takes values by a commit of the sequence table that moves the
// state forward, asserting the state it read (catalog.AssertProperty): the
// catalog's atomic commit is the compare-and-swap, so two sessions, or two
// icegate processes on one warehouse, never take the same value; the loser
// of a race reloads and tries again. To spare a commit per row, a session
// takes max(CACHE, rows left in the batch being evaluated) values at once
// and hands them out from memory (seqSession); values a session took but
// did not use are lost, as in PostgreSQL with CACHE > 1. Changes of a
// sequence are not transactional (nor are they in PostgreSQL).
const (
	seqOptionsProp = "icegate.sequence"
	seqStateProp   = "icegate.sequence.state"
)

// seqOptions are a sequence's parameters.
type seqOptions struct {
	Type      string `json:"type"` // smallint, integer, bigint
	Start     int64  `json:"start"`
	Increment int64  `json:"increment"`
	Min       int64  `json:"min"`
	Max       int64  `json:"max"`
	Cache     int64  `json:"cache"`
	Cycle     bool   `json:"cycle"`
	// OwnerTable and OwnerField name the column the sequence belongs to
	// (OWNED BY, serial and identity columns): a table of the sequence's
	// namespace and a field id. DROP TABLE drops it with the table.
	OwnerTable string `json:"owner-table,omitempty"`
	OwnerField int    `json:"owner-field,omitempty"`
}

// seqState is the sequence's row: the last value taken and whether it was
// taken (false: the next nextval returns last itself).
type seqState struct {
	Last   int64
	Called bool
}

func (st seqState) String() string {
	return strconv.FormatInt(st.Last, 10) + " " + strconv.FormatBool(st.Called)
}

func parseSeqState(s string) (seqState, error) {
	a, b, ok := strings.Cut(s, " ")
	last, err := strconv.ParseInt(a, 10, 64)
	called, berr := strconv.ParseBool(b)
	if !ok || err != nil || berr != nil {
		return seqState{}, fmt.Errorf("invalid sequence state %q", s)
	}
	return seqState{Last: last, Called: called}, nil
}

// isSequence reports whether a catalog table is a sequence.
func isSequence(t *catalog.Table) bool {
	return t != nil && t.Metadata != nil && t.Metadata.Properties[seqOptionsProp] != ""
}

// readSequence reads a sequence table's options and state.
func readSequence(t *catalog.Table) (seqOptions, seqState, error) {
	var o seqOptions
	props := t.Metadata.Properties
	if err := json.Unmarshal([]byte(props[seqOptionsProp]), &o); err != nil {
		return o, seqState{}, pgerr.New(pgerr.DataCorrupted, "sequence \"%s\" has invalid options: %v", t.Ident.Name, err)
	}
	st, err := parseSeqState(props[seqStateProp])
	if err != nil {
		return o, st, pgerr.New(pgerr.DataCorrupted, "sequence \"%s\": %v", t.Ident.Name, err)
	}
	return o, st, nil
}

// seqTypeRange is the range of a sequence's data type.
func seqTypeRange(typ string) (int64, int64) {
	switch typ {
	case "smallint":
		return math.MinInt16, math.MaxInt16
	case "integer":
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// take takes up to n values from state st: the first, how many (at least
// one, fewer than n when the range ends first) and the state after them.
func (o seqOptions) take(name string, st seqState, n int64) (first, count int64, next seqState, err error) {
	inc := o.Increment
	first = st.Last
	if st.Called {
		switch {
		case inc > 0 && st.Last > o.Max-inc:
			if !o.Cycle {
				return 0, 0, st, pgerr.New(pgerr.SequenceGeneratorLimitExceeded, "nextval: reached maximum value of sequence \"%s\" (%d)", name, o.Max)
			}
			first = o.Min
		case inc < 0 && st.Last < o.Min-inc:
			if !o.Cycle {
				return 0, 0, st, pgerr.New(pgerr.SequenceGeneratorLimitExceeded, "nextval: reached minimum value of sequence \"%s\" (%d)", name, o.Min)
			}
			first = o.Max
		default:
			first = st.Last + inc
		}
	}
	var room uint64 // values from first to the end of the range, minus one
	if inc > 0 {
		room = uint64(o.Max-first) / uint64(inc)
	} else {
		room = uint64(first-o.Min) / uint64(-inc)
	}
	count = n
	if n < 1 {
		count = 1
	}
	if room < uint64(count-1) {
		count = int64(room) + 1
	}
	return first, count, seqState{Last: first + (count-1)*inc, Called: true}, nil
}

// seqSession is a session's side of sequences: the values it took and has
// not handed out, and what currval and lastval return.
type seqSession struct {
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
	return pinKey(t.Ident) + "\x02" + t.Metadata.TableUUID
}

// seqCatalog is the catalog sequence state is committed through: directly,
// outside any transaction block's staging.
func (s *session) seqCatalog(what string) (catalog.MutableCatalog, error) {
	mc, err := s.mutableCatalog(what)
	if err != nil {
		return nil, err
	}
	return underWriteCatalog(mc), nil
}

// nextval hands out the next value of sequence t; want is how many more
// the caller is about to ask for (the rows left in its batch).
func (s *session) nextval(ctx context.Context, t *catalog.Table, want int64) (int64, error) {
	q := &s.seq
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
func (s *session) allocate(ctx context.Context, t *catalog.Table, want int64) (first, count, inc int64, err error) {
	if tt := s.sequenceOfBlock(t); tt != nil {
		return s.allocateInBlock(tt, t, want)
	}
	mc, err := s.seqCatalog("nextval()")
	if err != nil {
		return 0, 0, 0, err
	}
	for attempt := 0; ; attempt++ {
		cur, err := mc.LoadTable(ctx, t.Ident)
		if err != nil || cur.Metadata.TableUUID != t.Metadata.TableUUID || !isSequence(cur) {
			if err != nil && !errors.Is(err, catalog.ErrNotFound) {
				return 0, 0, 0, catalogError(err, kindTable, t.Ident.Name)
			}
			return 0, 0, 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", t.Ident.Name)
		}
		o, st, err := readSequence(cur)
		if err != nil {
			return 0, 0, 0, err
		}
		first, count, next, err := o.take(t.Ident.Name, st, max(o.Cache, want))
		if err != nil {
			return 0, 0, 0, err
		}
		_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{
			catalog.AssertTableUUID{UUID: t.Metadata.TableUUID},
			catalog.AssertProperty{Key: seqStateProp, Value: st.String()},
		}, []catalog.Update{catalog.SetProperties{Updates: map[string]string{seqStateProp: next.String()}}})
		if errors.Is(err, catalog.ErrCommitConflict) && attempt < 1000 {
			if err := ctx.Err(); err != nil {
				return 0, 0, 0, err
			}
			continue
		}
		if err != nil {
			return 0, 0, 0, catalogError(err, kindTable, t.Ident.Name)
		}
		return first, count, o.Increment, nil
	}
}

// currval is the value nextval last returned for t in this session.
func (s *session) currval(t *catalog.Table) (int64, error) {
	q := &s.seq
	q.mu.Lock()
	defer q.mu.Unlock()
	v, ok := q.curr[seqKey(t)]
	if !ok {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "currval of sequence \"%s\" is not yet defined in this session", t.Ident.Name)
	}
	return v, nil
}

// lastval is the value nextval last returned in this session.
func (s *session) lastval() (int64, error) {
	q := &s.seq
	q.mu.Lock()
	defer q.mu.Unlock()
	v, ok := q.curr[q.lastKey]
	if q.lastKey == "" || !ok {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
	}
	return v, nil
}

// forget drops the values this session holds of sequence t (after setval,
// ALTER SEQUENCE, DROP).
func (q *seqSession) forget(t *catalog.Table) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.cached, seqKey(t))
}

// setval sets t's state to (v, called): setval(seq, v [, is_called]).
func (s *session) setval(ctx context.Context, t *catalog.Table, v int64, called bool) error {
	tt := s.sequenceOfBlock(t)
	var mc catalog.MutableCatalog
	var cur *catalog.Table
	if tt != nil {
		if cur = tt.view(); cur == nil {
			return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", t.Ident.Name)
		}
	} else {
		var err error
		if mc, err = s.seqCatalog("setval()"); err != nil {
			return err
		}
		if cur, err = mc.LoadTable(ctx, t.Ident); err != nil {
			return catalogError(err, kindTable, t.Ident.Name)
		}
	}
	o, _, err := readSequence(cur)
	if err != nil {
		return err
	}
	if v < o.Min || v > o.Max {
		return pgerr.New(pgerr.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence \"%s\" (%d..%d)", v, t.Ident.Name, o.Min, o.Max)
	}
	state := seqState{Last: v, Called: called}
	if tt != nil {
		err = tt.setSequenceState(state)
	} else {
		_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: t.Metadata.TableUUID}},
			[]catalog.Update{catalog.SetProperties{Updates: map[string]string{seqStateProp: state.String()}}})
	}
	if err != nil {
		return catalogError(err, kindTable, t.Ident.Name)
	}
	s.seq.forget(t)
	if called {
		s.seq.mu.Lock()
		if s.seq.curr == nil {
			s.seq.curr = map[string]int64{}
		}
		s.seq.curr[seqKey(t)] = v
		s.seq.mu.Unlock()
	}
	return nil
}

// A sequence the open transaction block created (a serial column's, with
// its CREATE TABLE) is staged with the block: no other session can reach
// it, so its values are taken from the block's view of it, and COMMIT
// publishes it where the block left it. Its state is not a staged change
// of the block: a ROLLBACK TO SAVEPOINT does not give values back, as in
// PostgreSQL; ROLLBACK removes the sequence with the rest of the block.

// sequenceOfBlock is the block's entry for sequence t when the block
// created it, else nil.
func (s *session) sequenceOfBlock(t *catalog.Table) *txTable {
	if s.tx == nil {
		return nil
	}
	tt := s.tx.tables[pinKey(t.Ident)]
	if tt == nil || !tt.created {
		return nil
	}
	return tt
}

// allocateInBlock takes max(CACHE, want) values of a sequence the block
// created.
func (s *session) allocateInBlock(tt *txTable, t *catalog.Table, want int64) (first, count, inc int64, err error) {
	cur := tt.view()
	if cur == nil || cur.Metadata.TableUUID != t.Metadata.TableUUID || !isSequence(cur) {
		return 0, 0, 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", t.Ident.Name)
	}
	o, st, err := readSequence(cur)
	if err != nil {
		return 0, 0, 0, err
	}
	first, count, next, err := o.take(t.Ident.Name, st, max(o.Cache, want))
	if err != nil {
		return 0, 0, 0, err
	}
	if err := tt.setSequenceState(next); err != nil {
		return 0, 0, 0, err
	}
	return first, count, o.Increment, nil
}

// setSequenceState sets the state of a sequence the block created in
// every version of it the block holds (the staged table and the tables
// after its staged schema changes), so that no ROLLBACK TO takes it back.
func (t *txTable) setSequenceState(st seqState) error {
	return t.setSequenceProps(map[string]string{seqStateProp: st.String()})
}

// setSequenceProps sets properties of a sequence the block created (its
// options and state: ALTER SEQUENCE, nextval, setval) in every version of
// it the block holds, as setSequenceState does.
func (t *txTable) setSequenceProps(props map[string]string) error {
	set := func(tab *catalog.Table) (*catalog.Table, error) {
		if tab == nil {
			return nil, nil
		}
		b := catalog.NewMetadataBuilderFrom(tab.Metadata, tab.MetadataLocation)
		if err := b.Apply(catalog.SetProperties{Updates: props}); err != nil {
			return nil, fmt.Errorf("set the state of sequence %s: %w", t.id.Name, err)
		}
		meta, err := b.Build()
		if err != nil {
			return nil, fmt.Errorf("set the state of sequence %s: %w", t.id.Name, err)
		}
		next := *tab
		next.Metadata = meta
		return &next, nil
	}
	base, err := set(t.base)
	if err != nil {
		return err
	}
	writes := slices.Clone(t.writes)
	for i := range writes {
		if writes[i].staged != nil {
			return fmt.Errorf("set the state of sequence %s: it has staged data changes", t.id.Name)
		}
		if writes[i].table, err = set(writes[i].table); err != nil {
			return err
		}
	}
	t.base, t.writes = base, writes
	return nil
}
