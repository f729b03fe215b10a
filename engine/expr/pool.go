package expr

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Buffer reuse. A program evaluating batch after batch builds the same
// intermediate arrays each time (the 1 - l_discount of l_extendedprice *
// (1 - l_discount)) and releases them before Eval returns. Allocating them
// afresh costs the garbage collector the bytes of every batch; instead a
// program keeps the buffers its evaluations released and hands them out
// again.
//
// The ownership rule: a buffer goes back to the program's pool only when
// it is released during the Eval that allocated it, that is when no
// array outlives that Eval holding it. The buffers still referenced when
// Eval returns (the result's, and any an intermediate shared with it) are
// the caller's for good: their release later, whenever and wherever it
// happens, hands them to the garbage collector, never to the pool. So an
// operator may keep a result (sort, materialize) or read it after Eval as
// long as Arrow's reference counts say it may.
//
// Pooling applies under the default allocator only: an allocator set with
// WithAllocator (tests check theirs for leaks) sees every allocation as
// before.

// bufPool is the allocator of one evaluation at a time (a program holds
// several in a sync.Pool, so evaluations on several goroutines each have
// their own). Its buffers come from memory.DefaultAllocator.
type bufPool struct {
	mu sync.Mutex
	// free holds released buffers by size class: class k has capacity
	// 64<<k.
	free  [poolClasses][][]byte
	bytes int // the bytes free holds
	// live is every buffer allocated by the Eval running now and not
	// released yet, by address, with its size class. The slices handed
	// out have capacity = length, as Arrow's builders expect of an
	// allocator.
	live map[*byte]int
}

const (
	poolClasses = 24      // up to 64<<23 = 512 MiB a buffer
	poolBytes   = 8 << 20 // the most a pool keeps free
	// poolMinRows: a batch of fewer rows is evaluated without the pool.
	// Its buffers are a few hundred bytes, while taking a pool costs a
	// program evaluated once (a prepared point query's filter, compiled
	// per Execute) the pool itself, its per-processor slots and its map.
	poolMinRows = 256
)

func newBufPool() *bufPool { return &bufPool{live: map[*byte]int{}} }

func poolClass(size int) int {
	if size <= 64 {
		return 0
	}
	return bits.Len(uint(size-1)) - 6
}

func (p *bufPool) Allocate(size int) []byte {
	if size == 0 {
		return memory.DefaultAllocator.Allocate(0)
	}
	k := poolClass(size)
	if k >= poolClasses {
		return memory.DefaultAllocator.Allocate(size)
	}
	p.mu.Lock()
	var b []byte
	if fl := p.free[k]; len(fl) > 0 {
		b = fl[len(fl)-1]
		p.free[k] = fl[:len(fl)-1]
		p.bytes -= cap(b)
		clear(b[:cap(b)])
	} else {
		b = memory.DefaultAllocator.Allocate(64 << k)
	}
	p.live[unsafe.SliceData(b)] = k
	p.mu.Unlock()
	return b[:size:size]
}

func (p *bufPool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size:size]
	}
	if cap(b) > 0 {
		p.mu.Lock()
		k, ok := p.live[unsafe.SliceData(b)]
		p.mu.Unlock()
		if ok && size <= 64<<k {
			// Within the buffer's size class: grow in place.
			return unsafe.Slice(unsafe.SliceData(b), size)
		}
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

func (p *bufPool) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	addr := unsafe.SliceData(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.live[addr]
	if !ok {
		return // not this Eval's: the garbage collector's
	}
	delete(p.live, addr)
	if p.bytes+64<<k > poolBytes {
		return
	}
	p.free[k] = append(p.free[k], unsafe.Slice(addr, 64<<k))
	p.bytes += 64 << k
}

// endEval gives the buffers still referenced to their holders for good.
func (p *bufPool) endEval() {
	p.mu.Lock()
	clear(p.live)
	p.mu.Unlock()
}
