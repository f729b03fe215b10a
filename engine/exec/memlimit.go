package exec

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

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

// WithMemoryLimit returns a context whose operators account against m.
func WithMemoryLimit(ctx context.Context, m *MemoryLimit) context.Context {
	return context.WithValue(ctx, memLimitKey{}, m)
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
func (a *memAccount) grow(n int64) error {
	if a.lim == nil || n <= 0 {
		return nil
	}
	used := a.lim.used.Add(n)
	a.held += n
	if a.lim.limit > 0 && used > a.lim.limit {
		a.lim.used.Add(-n)
		a.held -= n
		return pgerr.New(pgerr.OutOfMemory, "out of memory").
			WithDetail("The statement needs more than %s = %s to hold the rows of its %s.",
				a.lim.setting, FormatBytes(a.lim.limit), a.what).
			WithHint("Raise %s, or make the statement hold fewer rows at once (filter earlier, fewer groups, a smaller build side).", a.lim.setting)
	}
	return nil
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

// dataBytes is the size of the buffers behind an array (slices count
// their whole buffers: what keeping them keeps alive).
func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	if d.DataType().ID() == arrow.DICTIONARY {
		if dict := d.Dictionary(); dict != nil {
			n += dataBytes(dict)
		}
	}
	return n
}
