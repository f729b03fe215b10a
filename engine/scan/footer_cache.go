package scan

import (
	"container/list"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
)

// FooterCache keeps parsed Parquet footers (the file's metadata, schema
// and row groups), so that a query reading the same file again (a
// prepared point query on a small table, thousands of times a second)
// neither opens the file nor parses its footer when everything it needs
// is in the ColumnCache.
//
// An entry is keyed by the table's UUID, the data file's path, size and
// row count: Iceberg never rewrites a data file in place, and a table
// dropped and created again under the same name has a new UUID, so an
// entry is never stale.
//
// A parsed file reads its pages through the file it was opened over, so
// an entry is lent to one reader at a time: get takes an idle copy out of
// the cache and the reader gives it back when it closes; readers of the
// same file at the same time parse copies of their own, which then stay
// as further idle copies. Idle copies are evicted least recently used
// beyond a byte bound. It is safe for concurrent use.
type FooterCache struct {
	mu    sync.Mutex
	limit int64 // bytes
	used  int64
	order *list.List // front = most recently returned; values are *footerEntry
	idle  map[footerKey][]*list.Element
}

// footerKey names one data file's content.
type footerKey struct {
	table   string // the table's UUID
	path    string
	size    int64
	records int64
}

type footerEntry struct {
	key   footerKey
	pf    *parquet.File
	via   *swapFile // what pf reads through
	bytes int64
	// pageIndexes are the column chunks' page indexes decoded so far
	// (their bytes are not counted: a few per page of the pruned columns).
	pageIndexes map[*format.ColumnChunk]pageIndex
	// top is the file's schema tree when its columns have field ids (then
	// no reader changes it), built on first use.
	top []*pqNode
}

// NewFooterCache returns a cache holding up to limit bytes of parsed
// footers (an estimate: see footerBytes); limit <= 0 caches nothing.
func NewFooterCache(limit int64) *FooterCache {
	return &FooterCache{limit: limit, order: list.New(), idle: make(map[footerKey][]*list.Element)}
}

// take removes an idle parsed copy of k's file from the cache, or
// returns nil.
func (c *FooterCache) take(k footerKey) *footerEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	els := c.idle[k]
	if len(els) == 0 {
		return nil
	}
	el := els[len(els)-1]
	if len(els) == 1 {
		delete(c.idle, k)
	} else {
		c.idle[k] = els[:len(els)-1]
	}
	e := c.order.Remove(el).(*footerEntry)
	c.used -= e.bytes
	return e
}

// give returns e to the cache as an idle copy, evicting the least
// recently returned copies beyond the bound.
func (c *FooterCache) give(e *footerEntry) {
	e.via.set(nil)
	if c.limit <= 0 || e.bytes > c.limit/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.idle[e.key] = append(c.idle[e.key], c.order.PushFront(e))
	c.used += e.bytes
	for c.used > c.limit {
		old := c.order.Back()
		o := c.order.Remove(old).(*footerEntry)
		c.used -= o.bytes
		els := c.idle[o.key]
		for i, x := range els {
			if x == old {
				els = append(els[:i], els[i+1:]...)
				break
			}
		}
		if len(els) == 0 {
			delete(c.idle, o.key)
		} else {
			c.idle[o.key] = els
		}
	}
}

// Len returns the number of idle parsed copies cached.
func (c *FooterCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// footerBytes estimates the memory a parsed footer of n bytes holds: the
// decoded Thrift structures and the reader's per-column objects are a
// few times the encoded size.
func footerBytes(n int64) int64 { return 4*n + 4096 }

// swapFile is the io.ReaderAt a cached parquet.File reads through: the
// file of the reader that borrowed it, nil while it is idle in the cache.
type swapFile struct {
	mu sync.Mutex
	f  io.ReaderAt
	n  int64 // bytes read, for the size estimate of a new entry
}

func (s *swapFile) set(f io.ReaderAt) {
	s.mu.Lock()
	s.f = f
	s.mu.Unlock()
}

func (s *swapFile) ReadAt(p []byte, off int64) (int, error) {
	s.mu.Lock()
	f := s.f
	s.n += int64(len(p))
	s.mu.Unlock()
	if f == nil {
		return 0, fmt.Errorf("parquet file read while its parsed footer is idle in the cache")
	}
	return f.ReadAt(p, off)
}

// lazyFile is a data file opened on its first read: a reader whose
// columns all come from the ColumnCache never opens it.
type lazyFile struct {
	ctx  context.Context
	fio  catalog.FileIO
	path string
	size int64

	mu  sync.Mutex
	f   catalog.File
	err error
}

func (l *lazyFile) open() (catalog.File, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil && l.err == nil {
		l.f, l.err = catalog.OpenFile(l.ctx, l.fio, l.path, l.size)
	}
	return l.f, l.err
}

func (l *lazyFile) ReadAt(p []byte, off int64) (int, error) {
	f, err := l.open()
	if err != nil {
		return 0, err
	}
	return f.ReadAt(p, off)
}

// Prefetch passes ranges on to an opened file that fetches ahead; a file
// not opened yet is opened first, since its pages are about to be read.
func (l *lazyFile) Prefetch(ranges [][2]int64) {
	f, err := l.open()
	if err != nil {
		return // the reads that follow report it
	}
	if p, ok := f.(prefetcher); ok {
		p.Prefetch(ranges)
	}
}

func (l *lazyFile) Size() int64 { return l.size }

func (l *lazyFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	l.err = fmt.Errorf("file %s is closed", l.path)
	return err
}

// opened reports whether the file was opened (tests).
func (l *lazyFile) opened() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f != nil
}

// openCachedParquet opens data file df's Parquet reader over a parsed
// footer from cache (or parses one, lent to the reader and given to the
// cache when it closes) and a file opened only when something reads it.
func openCachedParquet(ctx context.Context, cache *FooterCache, table string, fio catalog.FileIO, df *catalog.DataFile,
	fields []readField, opts readOptions) (*parquetReader, catalog.File, error) {
	lf := &lazyFile{ctx: ctx, fio: fio, path: df.Path, size: df.FileSizeInBytes}
	k := footerKey{table: table, path: df.Path, size: df.FileSizeInBytes, records: df.RecordCount}
	e := cache.take(k)
	if e != nil {
		e.via.set(lf)
	} else {
		// Parsed over the file's own size, as the uncached path does (a
		// manifest's size that disagrees then fails no differently).
		f, err := lf.open()
		if err != nil {
			return nil, nil, err
		}
		lf.size = f.Size()
		via := &swapFile{f: lf}
		pf, err := parquet.OpenFile(via, lf.size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
		if err != nil {
			lf.Close()
			return nil, nil, fmt.Errorf("open parquet file %s: %w", df.Path, err)
		}
		via.mu.Lock()
		n := via.n
		via.mu.Unlock()
		e = &footerEntry{key: k, pf: pf, via: via, bytes: footerBytes(n), pageIndexes: map[*format.ColumnChunk]pageIndex{}}
	}
	if e.top == nil {
		if top, hasIDs, err := buildPqSchema(e.pf.Metadata().Schema); err == nil && hasIDs {
			e.top = top
		}
	}
	r, err := newParquetReader(df.Path, e.pf, lf, fields, opts, e.top)
	if err != nil {
		cache.give(e)
		lf.Close()
		return nil, nil, err
	}
	r.footer = func() { cache.give(e) }
	r.pageIndexes = e.pageIndexes
	return r, lf, nil
}
