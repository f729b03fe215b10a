package objstore

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Cache is a bounded cache of object bytes on local disk, shared by the
// Readers of one process. An entry is one block of one version of an
// object: it is keyed by the object's canonical URI, its ETag, the block
// size and the block's index, so an object rewritten under the same name
// (a new ETag) never serves the old bytes. Entries are evicted least
// recently used first once their total size passes the bound.
//
// Entries live only as long as the process: NewCache removes the entry
// files a previous run left, since they may be half-written and the index
// that sized them is gone. A corrupt or short entry file is a miss.
//
// A nil *Cache caches nothing. A Cache is safe for concurrent use.
type Cache struct {
	dir      string
	maxBytes int64

	mu      sync.Mutex
	entries map[string]*cacheEntry // by file name
	lru     list.List              // of *cacheEntry, most recent at the front
	bytes   int64                  // total size of the entry files
	stats   CacheStats
}

// CacheStats counts what a Cache did since it was made.
type CacheStats struct {
	Hits, Misses int64 // lookups
	Puts         int64 // entries written
	Evictions    int64 // entries removed to stay within the bound
	Corrupt      int64 // entry files found short or damaged (counted as misses too)
	Entries      int64 // entries held now
	Bytes        int64 // size of the entry files held now
}

type cacheEntry struct {
	name string
	size int64  // of the file, header included
	gen  uint64 // bumped when the file is replaced
	elem *list.Element
}

// cacheKey names one block of one version of an object.
type cacheKey struct {
	uri       string // canonical
	etag      string
	blockSize int64
	index     int64
}

// Entry files: a header (magic, data length, CRC-32C of the data) then
// the data. Files being written carry cacheTmpSuffix until renamed.
const (
	cacheEntrySuffix = ".blk"
	cacheTmpSuffix   = ".blk-tmp"
	cacheEntryMagic  = "IGC1"
	cacheHeaderSize  = 4 + 8 + 4
)

var cacheCRC = crc32.MakeTable(crc32.Castagnoli)

// NewCache opens a cache of at most maxBytes in dir, creating dir if
// needed and removing the entry files a previous run left there. Other
// files in dir are left alone.
func NewCache(dir string, maxBytes int64) (*Cache, error) {
	if maxBytes <= 0 {
		return nil, fmt.Errorf("objstore: cache %s: size bound %d is not positive", dir, maxBytes)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("objstore: cache: %w", err)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("objstore: cache: %w", err)
	}
	for _, de := range des {
		n := de.Name()
		if de.Type().IsRegular() && (strings.HasSuffix(n, cacheEntrySuffix) || strings.HasSuffix(n, cacheTmpSuffix)) {
			if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("objstore: cache: removing a previous run's entry: %w", err)
			}
		}
	}
	return &Cache{dir: dir, maxBytes: maxBytes, entries: map[string]*cacheEntry{}}, nil
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	if c == nil {
		return CacheStats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries = int64(len(c.entries))
	s.Bytes = c.bytes
	return s
}

// fileName is the entry file of k: a hash of the key, so that any URI or
// ETag makes a valid name of fixed length.
func (k cacheKey) fileName() string {
	h := sha256.New()
	for _, s := range []string{k.uri, k.etag, strconv.FormatInt(k.blockSize, 10), strconv.FormatInt(k.index, 10)} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil)[:20]) + cacheEntrySuffix
}

// get returns the bytes of k, or false on a miss.
func (c *Cache) get(k cacheKey) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	name := k.fileName()
	c.mu.Lock()
	e := c.entries[name]
	if e == nil {
		c.stats.Misses++
		c.mu.Unlock()
		return nil, false
	}
	c.lru.MoveToFront(e.elem)
	gen := e.gen
	c.mu.Unlock()

	data, err := readCacheEntry(filepath.Join(c.dir, name))
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.stats.Misses++
		if !errors.Is(err, fs.ErrNotExist) {
			c.stats.Corrupt++
		}
		// Drop the entry unless it was rewritten while we read it.
		if cur := c.entries[name]; cur == e && cur.gen == gen {
			c.removeLocked(e)
		}
		return nil, false
	}
	c.stats.Hits++
	return data, true
}

func readCacheEntry(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < cacheHeaderSize || string(b[:4]) != cacheEntryMagic {
		return nil, errors.New("bad header")
	}
	n := binary.BigEndian.Uint64(b[4:12])
	sum := binary.BigEndian.Uint32(b[12:16])
	data := b[cacheHeaderSize:]
	if uint64(len(data)) != n || crc32.Checksum(data, cacheCRC) != sum {
		return nil, errors.New("short or damaged")
	}
	return data, nil
}

// put stores data as k, evicting older entries to stay within the bound.
// The file is written under a temporary name and renamed into place, so
// a reader never sees it half-written. Data larger than the whole bound
// is not stored.
func (c *Cache) put(k cacheKey, data []byte) error {
	if c == nil {
		return nil
	}
	size := int64(cacheHeaderSize + len(data))
	if size > c.maxBytes {
		return nil
	}
	name := k.fileName()
	f, err := os.CreateTemp(c.dir, "*"+cacheTmpSuffix)
	if err != nil {
		return fmt.Errorf("objstore: cache put: %w", err)
	}
	var hdr [cacheHeaderSize]byte
	copy(hdr[:], cacheEntryMagic)
	binary.BigEndian.PutUint64(hdr[4:12], uint64(len(data)))
	binary.BigEndian.PutUint32(hdr[12:16], crc32.Checksum(data, cacheCRC))
	_, err = f.Write(hdr[:])
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("objstore: cache put: %w", err)
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	// Renaming under the lock keeps the index and the files in step:
	// eviction, which removes files, also holds it.
	if err := os.Rename(f.Name(), filepath.Join(c.dir, name)); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("objstore: cache put: %w", err)
	}
	c.stats.Puts++
	if e := c.entries[name]; e != nil {
		c.bytes += size - e.size
		e.size = size
		e.gen++
		c.lru.MoveToFront(e.elem)
	} else {
		e = &cacheEntry{name: name, size: size}
		e.elem = c.lru.PushFront(e)
		c.entries[name] = e
		c.bytes += size
	}
	for c.bytes > c.maxBytes {
		back := c.lru.Back()
		if back == nil {
			break
		}
		c.removeLocked(back.Value.(*cacheEntry))
		c.stats.Evictions++
	}
	return nil
}

func (c *Cache) removeLocked(e *cacheEntry) {
	c.lru.Remove(e.elem)
	delete(c.entries, e.name)
	c.bytes -= e.size
	os.Remove(filepath.Join(c.dir, e.name))
}
