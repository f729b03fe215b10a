package scan

import (
	"math/bits"
	"strings"
	"sync"
	"unsafe"

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

// noZeroAllocator allocates value buffers from the Go heap without
// clearing them, for the scans that cannot recycle buffers (a consumer may
// keep a batch's memory past its release, so the garbage collector decides
// when the memory is free): a fresh buffer from the heap is otherwise
// cleared, and then every byte of it written again by the decoder. As with
// the recycler, only code that writes every byte it hands out may use it.
type noZeroAllocator struct{}

var _ memory.Allocator = noZeroAllocator{}

// valueAllocator is the allocator of the value buffers a direct reader
// fills completely when its caller asked for mem: mem itself unless mem is
// Arrow's default Go allocator, whose clearing only costs time here (any
// other allocator, such as a checked one, is kept to keep its accounting).
func valueAllocator(mem memory.Allocator) memory.Allocator {
	if mem == memory.DefaultAllocator {
		return noZeroAllocator{}
	}
	return mem
}

// Allocate implements memory.Allocator; the bytes are not cleared.
func (noZeroAllocator) Allocate(size int) []byte {
	return makeNoZero(size)
}

// Reallocate implements memory.Allocator.
func (noZeroAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := makeNoZero(size)
	copy(nb, b)
	return nb
}

// Free implements memory.Allocator: the garbage collector frees the
// buffer once nothing refers to it.
func (noZeroAllocator) Free([]byte) {}

// makeNoZero returns n bytes of new heap memory whose contents are
// unspecified. strings.Builder.Grow is the standard library's way to
// allocate without clearing: the builder's capacity, which Grow
// guarantees to be at least n, is reached through the first byte's
// address; the builder and its string are not used again.
func makeNoZero(n int) []byte {
	if n <= 0 {
		return []byte{}
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0)
	return unsafe.Slice(unsafe.StringData(sb.String()), n)
}
