package translate

import (
	"context"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// fetchAll is FETCH ALL's count, as the parser gives it.
const fetchAll = math.MaxInt64

// cursor is an open SQL cursor (DECLARE). Its rows come from the query's
// stream as FETCH and MOVE need them; a FETCH 2048 of a large query reads
// only the batches those rows are in.
//
// Positions follow PostgreSQL's portals: the scan position sp is 0 before
// the first row, k on row k, and one past the last row once a forward scan
// ran off the end; portalPos, atStart and atEnd are the portal's own
// bookkeeping, from which FETCH ABSOLUTE and MOVE counts are computed.
type cursor struct {
	name   string
	cols   []pgtypes.Column
	binary bool
	scroll bool // SCROLL: backward moves allowed
	hold   bool // WITH HOLD
	// held is set once the rows are materialized (a WITH HOLD cursor at
	// COMMIT): the cursor then survives the ends of later blocks.
	held bool
	// implicit marks a cursor declared outside a block in a query string
	// of several statements: it ends with that string.
	implicit bool
	// depth is the number of savepoints open when it was declared: ROLLBACK
	// TO an older savepoint closes it.
	depth int

	src     Rows // the query's stream; nil once drained
	srcDone bool
	// store holds retained batches read from src: every one for SCROLL and
	// held cursors, else only the one the position is in. first[i] is the
	// row number of store[i]'s first row; loaded counts the rows read.
	store  []arrow.RecordBatch
	first  []int64
	loaded int64

	sp             int64
	portalPos      int64
	atStart, atEnd bool
	// keepAll keeps every batch read (SCROLL, or once materialized).
	keepAll bool
}

func newCursor(name string, cols []pgtypes.Column, src Rows, binary, scroll, hold bool) *cursor {
	return &cursor{name: name, cols: cols, src: src, binary: binary, scroll: scroll, hold: hold,
		keepAll: scroll, atStart: true}
}

// close releases the cursor's stream and rows.
func (c *cursor) close() {
	if c.src != nil {
		_ = c.src.Close()
		c.src = nil
	}
	for _, b := range c.store {
		b.Release()
	}
	c.store, c.first = nil, nil
}

// load reads from src until row target is stored or the rows end.
func (c *cursor) load(ctx context.Context, target int64) error {
	for c.loaded < target && !c.srcDone {
		if c.src == nil {
			return pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", c.name)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := c.src.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			c.srcDone = true
			_ = c.src.Close()
			c.src = nil
			break
		}
		if b.NumRows() == 0 {
			continue
		}
		b.Retain()
		if !c.keepAll {
			// Forward-only: rows before the position are never read again.
			for _, old := range c.store {
				old.Release()
			}
			c.store, c.first = c.store[:0], c.first[:0]
		}
		c.store = append(c.store, b)
		c.first = append(c.first, c.loaded+1)
		c.loaded += b.NumRows()
	}
	return nil
}

// batchOf returns the stored batch holding row k and k's offset in it.
func (c *cursor) batchOf(k int64) (arrow.RecordBatch, int64) {
	i := sort.Search(len(c.first), func(i int) bool { return c.first[i] > k }) - 1
	if i < 0 {
		return nil, 0
	}
	b := c.store[i]
	off := k - c.first[i]
	if off >= b.NumRows() {
		return nil, 0
	}
	return b, off
}

// forward returns the next up to max rows after the position (a slice the
// caller releases) and moves onto the last of them; nil, with the position
// past the end, when there are none.
func (c *cursor) forward(ctx context.Context, max int64) (arrow.RecordBatch, error) {
	target := c.sp + 1
	if err := c.load(ctx, target); err != nil {
		return nil, err
	}
	if target > c.loaded {
		c.sp = c.loaded + 1
		return nil, nil
	}
	b, off := c.batchOf(target)
	if b == nil {
		return nil, pgerr.New(pgerr.InternalError, "cursor \"%s\" lost row %d", c.name, target)
	}
	n := min(max, b.NumRows()-off)
	c.sp += n
	return b.NewSlice(off, off+n), nil
}

// backward returns the row before the position as a one-row slice and
// moves onto it; nil, with the position before the first row, when there
// is none.
func (c *cursor) backward() (arrow.RecordBatch, error) {
	target := c.sp - 1
	if target < 1 {
		c.sp = 0
		return nil, nil
	}
	b, off := c.batchOf(target)
	if b == nil {
		return nil, pgerr.New(pgerr.InternalError, "cursor \"%s\" lost row %d", c.name, target)
	}
	c.sp = target
	return b.NewSlice(off, off+1), nil
}

// skip moves count rows (0: all) without returning them and reports how
// many rows it passed.
func (c *cursor) skip(ctx context.Context, fwd bool, count int64) (int64, error) {
	var n int64
	for count == 0 || n < count {
		want := int64(math.MaxInt64)
		if count > 0 {
			want = count - n
		}
		if !fwd {
			// Every row before the position is stored: jump.
			step := min(want, c.sp-1)
			if step <= 0 {
				c.sp = 0
				break
			}
			c.sp -= step
			n += step
			continue
		}
		if c.keepAll && c.sp+1 <= c.loaded {
			step := min(want, c.loaded-c.sp)
			c.sp += step
			n += step
			continue
		}
		b, err := c.forward(ctx, want)
		if err != nil {
			return n, err
		}
		if b == nil {
			break
		}
		n += b.NumRows()
		b.Release()
	}
	return n, nil
}

// run is the start of one PostgreSQL PortalRunSelect: it checks the
// direction and reports whether the scan moves and the executor's count
// (0: all). finish does the bookkeeping once the rows are through.
func (c *cursor) run(fwd bool, count int64) (moves bool, execCount int64, err error) {
	if fwd {
		if c.atEnd || count <= 0 {
			return false, 0, nil
		}
	} else {
		if !c.scroll {
			return false, 0, forwardOnly()
		}
		if c.atStart || count <= 0 {
			return false, 0, nil
		}
	}
	if count == fetchAll {
		count = 0
	}
	return true, count, nil
}

func (c *cursor) finish(fwd bool, execCount, n int64) {
	if fwd {
		if n > 0 {
			c.atStart = false
		}
		if execCount == 0 || n < execCount {
			c.atEnd = true
		}
		c.portalPos += n
		return
	}
	if n > 0 && c.atEnd {
		c.atEnd = false
		c.portalPos++
	}
	if execCount == 0 || n < execCount {
		c.atStart = true
		c.portalPos = 0
	} else {
		c.portalPos -= n
	}
}

// move runs a whole PortalRunSelect whose rows are discarded.
func (c *cursor) move(ctx context.Context, fwd bool, count int64) (int64, error) {
	moves, execCount, err := c.run(fwd, count)
	if err != nil || !moves {
		return 0, err
	}
	n, err := c.skip(ctx, fwd, execCount)
	if err != nil {
		return n, err
	}
	c.finish(fwd, execCount, n)
	return n, nil
}

// rewind goes back before the first row (DoPortalRewind).
func (c *cursor) rewind() error {
	if c.atStart && !c.atEnd {
		return nil
	}
	if !c.scroll {
		return forwardOnly()
	}
	c.sp, c.portalPos, c.atStart, c.atEnd = 0, 0, true, false
	return nil
}

func forwardOnly() error {
	return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cursor can only scan forward").
		WithHint("Declare it with SCROLL option to enable backward scan.")
}

// fetchPlan is what remains of a FETCH once its preliminary moves are
// done: one PortalRunSelect whose rows go to the client.
type fetchPlan struct {
	fwd   bool
	count int64
	// result is MOVE's count when known without running (MOVE 0, MOVE
	// BACKWARD ALL); -1 otherwise.
	result int64
}

// position runs the moves of FETCH/MOVE direction count (PostgreSQL's
// DoPortalRunFetch) up to the last PortalRunSelect, which it returns. ismove
// matters where MOVE and FETCH differ (a count of 0).
func (c *cursor) position(ctx context.Context, dir string, count int64, ismove bool) (fetchPlan, error) {
	switch dir {
	case "absolute":
		switch {
		case count > 0:
			if c.portalPos == math.MaxInt64 || count-1 < c.portalPos/2 {
				if err := c.rewind(); err != nil {
					return fetchPlan{}, err
				}
				if count > 1 {
					if _, err := c.move(ctx, true, count-1); err != nil {
						return fetchPlan{}, err
					}
				}
			} else {
				pos := c.portalPos
				if c.atEnd {
					pos++
				}
				if count <= pos {
					if _, err := c.move(ctx, false, pos-count+1); err != nil {
						return fetchPlan{}, err
					}
				} else if count > pos+1 {
					if _, err := c.move(ctx, true, count-pos-1); err != nil {
						return fetchPlan{}, err
					}
				}
			}
			return fetchPlan{fwd: true, count: 1, result: -1}, nil
		case count < 0:
			if _, err := c.move(ctx, true, fetchAll); err != nil {
				return fetchPlan{}, err
			}
			if count < -1 {
				if _, err := c.move(ctx, false, -count-1); err != nil {
					return fetchPlan{}, err
				}
			}
			return fetchPlan{fwd: false, count: 1, result: -1}, nil
		default:
			if err := c.rewind(); err != nil {
				return fetchPlan{}, err
			}
			return fetchPlan{fwd: true, count: 0, result: -1}, nil
		}
	case "relative":
		switch {
		case count > 0:
			if count > 1 {
				if _, err := c.move(ctx, true, count-1); err != nil {
					return fetchPlan{}, err
				}
			}
			return fetchPlan{fwd: true, count: 1, result: -1}, nil
		case count < 0:
			if count < -1 {
				if _, err := c.move(ctx, false, -count-1); err != nil {
					return fetchPlan{}, err
				}
			}
			return fetchPlan{fwd: false, count: 1, result: -1}, nil
		}
		dir = "forward"
	}
	fwd := dir == "forward"
	if count < 0 {
		fwd, count = !fwd, -count
	}
	if count == 0 {
		onRow := !c.atStart && !c.atEnd
		if ismove {
			if onRow {
				return fetchPlan{result: 1}, nil
			}
			return fetchPlan{result: 0}, nil
		}
		if onRow {
			if _, err := c.move(ctx, false, 1); err != nil {
				return fetchPlan{}, err
			}
			count, fwd = 1, true
		}
	}
	if !fwd && count == fetchAll && ismove {
		result := c.portalPos
		if result > 0 && !c.atEnd {
			result--
		}
		if err := c.rewind(); err != nil {
			return fetchPlan{}, err
		}
		return fetchPlan{result: result}, nil
	}
	return fetchPlan{fwd: fwd, count: count, result: -1}, nil
}

// materialize reads every remaining row into the store and ends the
// query's stream: a WITH HOLD cursor at COMMIT.
func (c *cursor) materialize(ctx context.Context) error {
	c.keepAll = true
	if err := c.load(ctx, math.MaxInt64); err != nil {
		return err
	}
	c.held = true
	return nil
}
