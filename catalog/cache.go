package catalog

import (
	"container/list"
	"strings"
	"sync"
)

// fileCache holds parsed immutable files (metadata JSON, manifest lists,
// manifests) keyed by resolved path, evicting the least recently used entry
// beyond a fixed count. It is safe for concurrent use.
type fileCache struct {
	// inflaters reuses deflate decompressors (each holds a 32 KiB window).
	inflaters sync.Pool

	mu    sync.Mutex
	limit int
	order *list.List // front = most recently used; values are *cacheEntry
	byKey map[string]*list.Element
}

type cacheEntry struct {
	key   string
	value any
}

func newFileCache(limit int) *fileCache {
	return &fileCache{limit: limit, order: list.New(), byKey: make(map[string]*list.Element)}
}

// get returns the cached value for key.
func (c *fileCache) get(key string) (any, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry).value, true
}

// put stores value under key, evicting the oldest entries over the limit.
func (c *fileCache) put(key string, value any) {
	if c == nil || c.limit <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		el.Value.(*cacheEntry).value = value
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, value: value})
	for c.order.Len() > c.limit {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.byKey, old.Value.(*cacheEntry).key)
	}
}

// len returns the number of cached entries.
func (c *fileCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// cachingIO is a table's FileIO together with its catalog's parsed-file
// cache, so planning reuses manifests already read.
type cachingIO struct {
	FileIO
	cache *fileCache
}

// cacheOf returns the parsed-file cache behind io, or nil.
func cacheOf(io FileIO) *fileCache {
	if c, ok := io.(*cachingIO); ok {
		return c.cache
	}
	return nil
}

// dropPrefix removes every entry whose key starts with prefix (the files of
// a dropped or renamed table, whose paths may be reused).
func (c *fileCache) dropPrefix(prefix string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, el := range c.byKey {
		if strings.HasPrefix(key, prefix) {
			c.order.Remove(el)
			delete(c.byKey, key)
		}
	}
}
