package exec

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// MemoryLimit caps the memory one statement's operators hold at once:
// the batches a sort, window or hash-join build side buffers, the groups
// of a hash aggregation, the rows of set operations and recursive
// queries. Operators account for what they keep (not for batches that
// stream through); when a statement would pass its limit the operator
// fails with SQLSTATE 53200 instead of letting the process run out of
// memory. One MemoryLimit is shared by all operators (and parallel
// workers) of a statement.
type MemoryLimit struct {
	limit   int64
	setting string // the setting that sets it, for the error message
	used    atomic.Int64
}

// NewMemoryLimit returns a limit of bytes (<= 0: no limit). setting names
// the setting users raise, for the error message.
func NewMemoryLimit(bytes int64, setting string) *MemoryLimit {
	return &MemoryLimit{limit: bytes, setting: setting}
}

// Used is the memory accounted now.
func (m *MemoryLimit) Used() int64 { return m.used.Load() }

type memLimitKey struct{}

// WithMemoryLimit returns a context whose operators account against m,
// and whose expressions check the values they build against it.
func WithMemoryLimit(ctx context.Context, m *MemoryLimit) context.Context {
	return expr.WithMemoryBudget(context.WithValue(ctx, memLimitKey{}, m), m)
}

// Fits reports whether n bytes more than the operators hold fit in the
// limit: 53200 when not. Expressions call it for the values they build
// for a batch, which stream on and are not held.
func (m *MemoryLimit) Fits(n int64, what string) error {
	if m.limit <= 0 || m.used.Load()+n <= m.limit {
		return nil
	}
	return m.exceeded(what)
}

func (m *MemoryLimit) exceeded(what string) error {
	return pgerr.New(pgerr.OutOfMemory, "out of memory").
		WithDetail("The statement needs more than %s = %s to hold the %s.",
			m.setting, FormatBytes(m.limit), what).
		WithHint("Raise %s, or make the statement hold less at once (filter earlier, fewer groups, smaller values).", m.setting)
}

func memoryLimitOf(ctx context.Context) *MemoryLimit {
	m, _ := ctx.Value(memLimitKey{}).(*MemoryLimit)
	return m
}

// memAccount is one operator's share of its statement's MemoryLimit.
// The zero value (no limit in the context) accounts nothing.
type memAccount struct {
	lim  *MemoryLimit
	what string // "sort", "hash join", ... for the error
	held int64
}

func newMemAccount(ctx context.Context, what string) memAccount {
	return memAccount{lim: memoryLimitOf(ctx), what: what}
}

// grow accounts n more bytes; past the limit it gives them back and
// returns 53200.
func (a *memAccount) grow(n int64) error { return a.growTo(n, false) }

// growSpill is grow for an operator that spills when it fails: it fails
// at three quarters of the limit, leaving the rest to the values the
// statement's expressions build for the batches in flight, which cannot
// spill.
func (a *memAccount) growSpill(n int64) error { return a.growTo(n, true) }

func (a *memAccount) growTo(n int64, spilling bool) error {
	if a.lim == nil || n <= 0 {
		return nil
	}
	used := a.lim.used.Add(n)
	a.held += n
	limit := a.lim.limit
	if spilling {
		limit -= limit / 4
	}
	if a.lim.limit > 0 && used > limit {
		a.lim.used.Add(-n)
		a.held -= n
		return pgerr.New(pgerr.OutOfMemory, "out of memory").
			WithDetail("The statement needs more than %s = %s to hold the rows of its %s.",
				a.lim.setting, FormatBytes(a.lim.limit), a.what).
			WithHint("Raise %s, or make the statement hold fewer rows at once (filter earlier, fewer groups, a smaller build side).", a.lim.setting)
	}
	return nil
}

// batchBytes is the memory of a batch's rows (dataBytes of its columns).
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		n += dataBytes(c.Data())
	}
	return n
}

// arraysBytes is the memory of arrays' rows.
func arraysBytes(as []arrow.Array) int64 {
	var n int64
	for _, a := range as {
		if a != nil {
			n += dataBytes(a.Data())
		}
	}
	return n
}

// growBatch accounts a batch the operator keeps.
func (a *memAccount) growBatch(b arrow.RecordBatch) error {
	if a.lim == nil {
		return nil
	}
	var n int64
	for _, c := range b.Columns() {
		n += dataBytes(c.Data())
	}
	return a.grow(n)
}

// growArray accounts an array the operator keeps.
func (a *memAccount) growArray(arr arrow.Array) error {
	if a.lim == nil {
		return nil
	}
	return a.grow(dataBytes(arr.Data()))
}

// resize sets what the account holds to exactly the bytes of batches
// and arrays, without checking the limit: for an operator whose buffer
// just shrank (a TopN compaction, a sort replacing its input by its
// output).
func (a *memAccount) resize(batches []arrow.RecordBatch, arrays ...[]arrow.Array) {
	if a.lim == nil {
		return
	}
	var n int64
	for _, b := range batches {
		for _, c := range b.Columns() {
			n += dataBytes(c.Data())
		}
	}
	for _, as := range arrays {
		for _, x := range as {
			if x != nil {
				n += dataBytes(x.Data())
			}
		}
	}
	a.lim.used.Add(n - a.held)
	a.held = n
}

// release gives back everything the account holds.
func (a *memAccount) release() {
	if a.lim != nil && a.held != 0 {
		a.lim.used.Add(-a.held)
	}
	a.held = 0
}

// FormatBytes prints a byte count as PostgreSQL prints memory settings
// (the largest unit that divides it: 4GB, 512MB, 64kB).
func FormatBytes(n int64) string {
	units := []struct {
		s string
		b int64
	}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}}
	for _, u := range units {
		if n >= u.b && n%u.b == 0 {
			return fmt.Sprintf("%d%s", n/u.b, u.s)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// dataBytes is the memory an array's rows take: what its own rows use
// of its buffers. A slice counts its share, not the whole buffers it
// shares with its siblings: operators that emit slices of one batch
// (sort, aggregation) would otherwise be counted once per slice.
func dataBytes(d arrow.ArrayData) int64 {
	a := array.MakeFromData(d)
	defer a.Release()
	return arrayBytes(a)
}

func arrayBytes(a arrow.Array) int64 {
	n := int64(a.Len())
	bytes := (n + 7) / 8 // validity
	switch a := a.(type) {
	case *array.String:
		if n > 0 {
			bytes += 4*(n+1) + int64(a.ValueOffset(int(n)-1)+len(a.Value(int(n)-1))-a.ValueOffset(0))
		}
		return bytes
	case *array.Binary:
		if n > 0 {
			o := a.ValueOffsets()
			bytes += 4*(n+1) + int64(o[n]-o[0])
		}
		return bytes
	case *array.LargeString, *array.LargeBinary:
		for _, b := range a.Data().Buffers() {
			if b != nil {
				bytes += int64(b.Len())
			}
		}
		return bytes
	case *array.List:
		if n > 0 {
			start, _ := a.ValueOffsets(0)
			_, end := a.ValueOffsets(int(n) - 1)
			child := array.NewSlice(a.ListValues(), start, end)
			bytes += 4*(n+1) + arrayBytes(child)
			child.Release()
		}
		return bytes
	case *array.Struct:
		for i := 0; i < a.NumField(); i++ {
			bytes += arrayBytes(a.Field(i))
		}
		return bytes
	case *array.Dictionary:
		return bytes + arrayBytes(a.Indices()) + arrayBytes(a.Dictionary())
	}
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok {
		return bytes + (n*int64(fw.BitWidth())+7)/8
	}
	for _, b := range a.Data().Buffers() {
		if b != nil {
			bytes += int64(b.Len())
		}
	}
	return bytes
}
