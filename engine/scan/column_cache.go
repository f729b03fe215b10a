package scan

import (
	"container/list"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ColumnCache keeps the decoded columns of small Parquet row groups, so
// that queries reading the same small table again (a prepared point query
// run thousands of times a second) do not decompress and decode its pages
// each time. Data files are immutable: an entry is keyed by the file's
// location and size, the row group, the file column and the Arrow type it
// was read as, and is never stale. Entries are evicted least recently used
// beyond a byte bound. It is safe for concurrent use.
type ColumnCache struct {
	mu    sync.Mutex
	limit int64 // bytes
	used  int64
	order *list.List // front = most recently used; values are *columnEntry
	byKey map[columnKey]*list.Element
}

// columnKey names one decoded column chunk.
type columnKey struct {
	path  string
	size  int64
	group int
	leaf  int // the file's leaf column
	field int // the read field's id
	typ   string
}

type columnEntry struct {
	key   columnKey
	arr   arrow.Array
	bytes int64
	// index, built on the first equality lookup of an integer column,
	// finds the rows holding a value (see intIndex).
	index *intIndex
}

// Groups with more rows than this are not cached: the cache is for small
// tables, big ones are read once per query anyway.
const maxCachedGroupRows = 1 << 16

// NewColumnCache returns a cache holding up to limit bytes of decoded
// columns (limit <= 0: nothing is cached).
func NewColumnCache(limit int64) *ColumnCache {
	return &ColumnCache{limit: limit, order: list.New(), byKey: make(map[columnKey]*list.Element)}
}

// get returns the cached array for k, retained for the caller, or nil.
func (c *ColumnCache) get(k columnKey) arrow.Array {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		return nil
	}
	c.order.MoveToFront(el)
	a := el.Value.(*columnEntry).arr
	a.Retain()
	return a
}

// put caches a (retaining it) under k unless it is too big a share of
// the bound, evicting the least recently used entries over the bound.
func (c *ColumnCache) put(k columnKey, a arrow.Array) {
	n := arrayBytes(a.Data())
	if c.limit <= 0 || n > c.limit/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[k]; ok { // another reader decoded it meanwhile
		c.order.MoveToFront(el)
		return
	}
	a.Retain()
	c.byKey[k] = c.order.PushFront(&columnEntry{key: k, arr: a, bytes: n})
	c.used += n
	for c.used > c.limit {
		old := c.order.Back()
		e := old.Value.(*columnEntry)
		c.order.Remove(old)
		delete(c.byKey, e.key)
		c.used -= e.bytes
		e.arr.Release()
	}
}

// lookup returns the rows of k's cached integer column a holding one of
// vals, ascending, building the column's index on first use; ok is false
// when k is not cached (then the caller reads every row).
func (c *ColumnCache) lookup(k columnKey, a arrow.Array, vals []int64) (rows []int32, ok bool) {
	c.mu.Lock()
	el, found := c.byKey[k]
	var ix *intIndex
	if found {
		ix = el.Value.(*columnEntry).index
	}
	c.mu.Unlock()
	if !found {
		return nil, false
	}
	if ix == nil {
		if ix = newIntIndex(a); ix == nil {
			return nil, false
		}
		c.mu.Lock()
		if el, found := c.byKey[k]; found { // still cached: keep the index with it
			e := el.Value.(*columnEntry)
			if e.index == nil {
				e.index = ix
				e.bytes += ix.bytes()
				c.used += ix.bytes()
			}
		}
		c.mu.Unlock()
	}
	return ix.find(vals), true
}

// Len returns the number of cached columns.
func (c *ColumnCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// arrayBytes is the memory an array's buffers hold.
func arrayBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, ch := range d.Children() {
		n += arrayBytes(ch)
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += arrayBytes(dict)
	}
	return n
}
