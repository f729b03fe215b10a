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
	// released yet, by address.
	live map[*byte]struct{}
}

const (
	poolClasses = 24      // up to 64<<23 = 512 MiB a buffer
	poolBytes   = 8 << 20 // the most a pool keeps free
)

func newBufPool() *bufPool { return &bufPool{live: map[*byte]struct{}{}} }

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
	p.live[unsafe.SliceData(b)] = struct{}{}
	p.mu.Unlock()
	return b[:size]
}

func (p *bufPool) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
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
	if _, ok := p.live[addr]; !ok {
		return // not this Eval's: the garbage collector's
	}
	delete(p.live, addr)
	if p.bytes+cap(b) > poolBytes {
		return
	}
	k := poolClass(cap(b))
	p.free[k] = append(p.free[k], b[:cap(b)])
	p.bytes += cap(b)
}

// endEval gives the buffers still referenced to their holders for good.
func (p *bufPool) endEval() {
	p.mu.Lock()
	clear(p.live)
	p.mu.Unlock()
}
