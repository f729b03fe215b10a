package scan

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is the allocator of the value buffers a scan fills completely
// (Options.RecycleBuffers): a buffer freed when the batch holding it is
// released goes back to a free list of its size class and serves a later
// batch, so a scan does not ask the Go heap for (and clear) fresh memory
// for every batch. Its buffers are not cleared: only code that writes
// every byte it hands out may allocate from it.
type recycler struct {
	classes [recycleClasses]sync.Pool // class c holds buffers of 1<<(c+recycleMinShift) bytes
}

const (
	recycleMinShift = 6  // 64 bytes
	recycleClasses  = 20 // up to 32 MiB
)

var _ memory.Allocator = (*recycler)(nil)

// class returns the size class of a request of size bytes, or -1 when
// buffers of that size are not recycled.
func recycleClass(size int) int {
	if size <= 0 {
		return -1
	}
	c := max(bits.Len(uint(size-1)), recycleMinShift) - recycleMinShift
	if c >= recycleClasses {
		return -1
	}
	return c
}

// Allocate implements memory.Allocator; the bytes are not cleared.
func (r *recycler) Allocate(size int) []byte {
	c := recycleClass(size)
	if c < 0 {
		return make([]byte, size)
	}
	if b, ok := r.classes[c].Get().(*[]byte); ok {
		return (*b)[:size]
	}
	return make([]byte, size, 1<<(c+recycleMinShift))
}

// Reallocate implements memory.Allocator.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

// Free implements memory.Allocator.
func (r *recycler) Free(b []byte) {
	c := recycleClass(cap(b))
	if c < 0 || cap(b) != 1<<(c+recycleMinShift) {
		return
	}
	b = b[:cap(b)]
	r.classes[c].Put(&b)
}
