package objstore

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
)

// ReaderOptions tune a Reader; zero fields take the defaults.
type ReaderOptions struct {
	// BlockSize is the unit of reading and caching (default 1 MiB).
	BlockSize int64
	// WholeObjectMax: objects up to this size are read whole, as one
	// block, at the first read (default 4 MiB).
	WholeObjectMax int64
	// MaxRequest bounds one ranged GET: a longer run of missing blocks
	// is split into requests of at most this size, read in parallel
	// (default 16 MiB).
	MaxRequest int64
	// Parallelism bounds the ranged GETs of one Reader in flight at once
	// (default 4).
	Parallelism int
	// MemoryBlocks is how many recently read blocks the Reader keeps in
	// memory (default 8), so that many small reads of one region (a
	// Parquet footer, page headers) cost one GET or one cache read.
	MemoryBlocks int
	// PrefetchGap: Prefetch joins ranges less than this far apart into
	// one (default 1 MiB).
	PrefetchGap int64
	// PrefetchMax bounds the bytes Prefetch holds in memory that no
	// ReadAt has used yet (default 64 MiB); ranges beyond it are not
	// prefetched and are read when asked for.
	PrefetchMax int64
	// Known, when set, describes the object so that Open can skip the
	// HEAD request. Its Size is trusted; its URI, the canonical one,
	// names the object in the Cache (the uri given to Open when
	// empty: a non-canonical name only duplicates entries, never
	// serves wrong bytes, since the ETag is in the key). Without an ETag the bytes
	// cannot be tied to one version of the object, so:
	//   - Known with an ETag: no HEAD; blocks are cached under that ETag
	//     and ranged reads fail with ErrChanged if the object changed.
	//   - Known without an ETag and no Cache: no HEAD; blocks are kept
	//     only in this Reader's memory, which lives no longer than the
	//     read it serves.
	//   - Known without an ETag and a Cache: Open sends the HEAD anyway.
	//     A key of URI and size alone would serve stale bytes once an
	//     object is rewritten under its name with the same size (as
	//     metadata files and version hints can be), and one HEAD per
	//     opened file is cheap next to the GETs the cache saves.
	Known *Info
}

func (o ReaderOptions) withDefaults() ReaderOptions {
	if o.BlockSize <= 0 {
		o.BlockSize = 1 << 20
	}
	if o.WholeObjectMax <= 0 {
		o.WholeObjectMax = 4 << 20
	}
	if o.MaxRequest <= 0 {
		o.MaxRequest = 16 << 20
	}
	if o.MaxRequest < o.BlockSize {
		o.MaxRequest = o.BlockSize
	}
	if o.Parallelism <= 0 {
		o.Parallelism = 4
	}
	if o.MemoryBlocks <= 0 {
		o.MemoryBlocks = 8
	}
	if o.PrefetchGap <= 0 {
		o.PrefetchGap = 1 << 20
	}
	if o.PrefetchMax <= 0 {
		o.PrefetchMax = 64 << 20
	}
	return o
}

// Reader reads one version of an object by ranges, block by block,
// through a Cache. It implements io.ReaderAt; ReadAt, Prefetch and
// Close are safe for concurrent use.
//
// The blocks one ReadAt needs that are neither in memory nor in the
// Cache are read with adjacent blocks joined into one ranged GET and
// separate runs read in parallel. A block being read is read once: a
// second ReadAt needing it waits for the first read.
type Reader struct {
	store   Store
	cache   *Cache
	uri     string // as given to Open, for the store
	keyURI  string // canonical, for the cache
	etag    string
	size    int64
	bs      int64 // block size; the whole size for small objects
	opts    ReaderOptions
	ctx     context.Context
	cancel  context.CancelFunc
	sem     chan struct{}
	workers sync.WaitGroup

	mu     sync.Mutex
	closed bool
	blocks map[int64]*readerBlock // being read, pinned by Prefetch, or in lru
	lru    list.List              // of *readerBlock, done and not pinned; most recent first
	pinned int64                  // bytes of pinned blocks
}

// readerBlock is one block of the object. done is closed once data or err is
// set; after that they do not change.
type readerBlock struct {
	idx    int64
	size   int64
	done   chan struct{}
	data   []byte
	err    error
	pinned bool          // read by Prefetch and not yet used by ReadAt
	elem   *list.Element // in Reader.lru
}

// Open opens the object at uri for reading. The object's size and ETag
// come from a HEAD request unless opts.Known makes it unnecessary (see
// ReaderOptions.Known). ctx bounds every read of the Reader: once it
// ends, reads fail with its error. c may be nil.
func Open(ctx context.Context, s Store, c *Cache, uri string, opts ReaderOptions) (*Reader, error) {
	opts = opts.withDefaults()
	var info Info
	switch k := opts.Known; {
	case k != nil && k.Size >= 0 && (k.ETag != "" || c == nil):
		info = *k
	default:
		var err error
		info, err = s.Head(ctx, uri)
		if err != nil {
			return nil, fmt.Errorf("objstore: open %s: %w", uri, err)
		}
	}
	if info.URI == "" {
		info.URI = uri
	}
	bs := opts.BlockSize
	if info.Size <= opts.WholeObjectMax {
		bs = max(info.Size, 1)
	}
	if info.ETag == "" {
		c = nil // see ReaderOptions.Known
	}
	rctx, cancel := context.WithCancel(ctx)
	return &Reader{
		store:  s,
		cache:  c,
		uri:    uri,
		keyURI: info.URI,
		etag:   info.ETag,
		size:   info.Size,
		bs:     bs,
		opts:   opts,
		ctx:    rctx,
		cancel: cancel,
		sem:    make(chan struct{}, opts.Parallelism),
		blocks: map[int64]*readerBlock{},
	}, nil
}

// Size is the object's size.
func (r *Reader) Size() int64 { return r.size }

// ETag is the ETag of the version being read; empty when Open was given
// a size without one.
func (r *Reader) ETag() string { return r.etag }

// Close stops the background reads of Prefetch and frees the blocks held
// in memory. Reads after Close fail.
func (r *Reader) Close() error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	r.workers.Wait()
	r.mu.Lock()
	clear(r.blocks)
	r.lru.Init()
	r.pinned = 0
	r.mu.Unlock()
	return nil
}

var errReaderClosed = errors.New("reader closed")

// ReadAt reads len(p) bytes at off, with the semantics of io.ReaderAt.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("objstore: read %s: negative offset %d", r.uri, off)
	}
	if r.ctx.Err() != nil {
		return 0, r.ctxErr()
	}
	if off >= r.size {
		if len(p) == 0 && off == r.size {
			return 0, nil
		}
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	end := min(off+int64(len(p)), r.size)
	blocks, err := r.acquire(off/r.bs, (end-1)/r.bs)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, b := range blocks {
		start := b.idx * r.bs
		lo := max(off, start) - start
		hi := min(end, start+b.size) - start
		n += copy(p[max(start-off, 0):], b.data[lo:hi])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (r *Reader) ctxErr() error {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return fmt.Errorf("objstore: read %s: %w", r.uri, errReaderClosed)
	}
	return fmt.Errorf("objstore: read %s: %w", r.uri, r.ctx.Err())
}

func (r *Reader) blockSize(i int64) int64 {
	return min(r.bs, r.size-i*r.bs)
}

// acquire returns blocks first..last once they are read, starting the
// reads of those that nobody reads yet.
func (r *Reader) acquire(first, last int64) ([]*readerBlock, error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, fmt.Errorf("objstore: read %s: %w", r.uri, errReaderClosed)
	}
	blocks := make([]*readerBlock, 0, last-first+1)
	var mine []*readerBlock
	for i := first; i <= last; i++ {
		b := r.blocks[i]
		if b == nil {
			b = &readerBlock{idx: i, size: r.blockSize(i), done: make(chan struct{})}
			r.blocks[i] = b
			mine = append(mine, b)
		}
		blocks = append(blocks, b)
	}
	r.mu.Unlock()

	r.fill(mine)
	for _, b := range blocks {
		select {
		case <-b.done:
		case <-r.ctx.Done():
			return nil, r.ctxErr()
		}
		if b.err != nil {
			return nil, b.err
		}
	}
	r.mu.Lock()
	for _, b := range blocks {
		r.touchLocked(b)
	}
	r.mu.Unlock()
	return blocks, nil
}

// fill reads the blocks the caller owns: from the cache, then the rest
// from the store in runs of adjacent blocks, each run in a goroutine.
func (r *Reader) fill(mine []*readerBlock) {
	var missing []*readerBlock
	for _, b := range mine {
		if data, ok := r.cache.get(r.key(b.idx)); ok && int64(len(data)) == b.size {
			r.complete(b, data, nil)
			continue
		}
		missing = append(missing, b)
	}
	maxRun := max(r.opts.MaxRequest/r.bs, 1)
	var runs [][]*readerBlock
	for len(missing) > 0 {
		n := 1
		for n < len(missing) && int64(n) < maxRun && missing[n].idx == missing[n-1].idx+1 {
			n++
		}
		runs = append(runs, missing[:n:n])
		missing = missing[n:]
	}
	if len(runs) == 0 {
		return
	}
	// Workers are added under the lock and only while open, so that
	// Close, which sets closed under it, waits for all of them.
	r.mu.Lock()
	closed := r.closed
	if !closed {
		r.workers.Add(len(runs))
	}
	r.mu.Unlock()
	for _, run := range runs {
		if closed {
			for _, b := range run {
				r.complete(b, nil, fmt.Errorf("objstore: read %s: %w", r.uri, errReaderClosed))
			}
			continue
		}
		go r.fetch(run)
	}
}

func (r *Reader) key(i int64) cacheKey {
	return cacheKey{uri: r.keyURI, etag: r.etag, blockSize: r.bs, index: i}
}

// fetch reads a run of adjacent blocks in one ranged GET.
func (r *Reader) fetch(run []*readerBlock) {
	defer r.workers.Done()
	fail := func(err error) {
		for _, b := range run {
			r.complete(b, nil, err)
		}
	}
	select {
	case r.sem <- struct{}{}:
	case <-r.ctx.Done():
		fail(r.ctxErr())
		return
	}
	off := run[0].idx * r.bs
	var size int64
	for _, b := range run {
		size += b.size
	}
	buf := make([]byte, size)
	n, err := r.store.ReadRange(r.ctx, r.uri, r.etag, buf, off)
	<-r.sem // writing the cache below need not hold up other GETs
	if errors.Is(err, io.EOF) {
		err = nil // a short read is checked below
	}
	switch {
	case err != nil && r.ctx.Err() != nil:
		fail(r.ctxErr())
		return
	case err != nil:
		fail(fmt.Errorf("objstore: read %s bytes %d-%d: %w", r.uri, off, off+size-1, err))
		return
	case int64(n) < size:
		fail(fmt.Errorf("objstore: read %s bytes %d-%d: the object ends at %d, not %d: %w",
			r.uri, off, off+size-1, off+int64(n), r.size, ErrChanged))
		return
	}
	for _, b := range run {
		data := buf[b.idx*r.bs-off:][:b.size:b.size]
		if len(run) > 1 {
			// One allocation per block, so that a block kept in memory
			// does not keep the whole run alive.
			data = append([]byte(nil), data...)
		}
		r.complete(b, data, nil)
		if err := r.cache.put(r.key(b.idx), data); err != nil {
			slog.DebugContext(r.ctx, "objstore: not cached", "uri", r.uri, "block", b.idx, "err", err)
		}
	}
}

// complete ends the read of b. A failed block is forgotten, so that a
// later read tries again; a read one goes to the memory LRU unless
// Prefetch pinned it.
func (r *Reader) complete(b *readerBlock, data []byte, err error) {
	r.mu.Lock()
	b.data, b.err = data, err
	held := r.blocks[b.idx] == b // false once evicted or the Reader closed
	switch {
	case !held:
	case err != nil:
		delete(r.blocks, b.idx)
		if b.pinned {
			b.pinned = false
			r.pinned -= b.size
		}
	case !b.pinned:
		b.elem = r.lru.PushFront(b)
		r.evictLocked()
	}
	r.mu.Unlock()
	close(b.done)
}

// touchLocked marks a block ReadAt used as recent, unpinning it.
func (r *Reader) touchLocked(b *readerBlock) {
	if r.blocks[b.idx] != b {
		return // evicted meanwhile, or the Reader was closed
	}
	switch {
	case b.pinned:
		b.pinned = false
		r.pinned -= b.size
		b.elem = r.lru.PushFront(b)
	case b.elem != nil:
		r.lru.MoveToFront(b.elem)
	}
	r.evictLocked()
}

func (r *Reader) evictLocked() {
	for r.lru.Len() > r.opts.MemoryBlocks {
		b := r.lru.Remove(r.lru.Back()).(*readerBlock)
		b.elem = nil
		delete(r.blocks, b.idx)
	}
}

// Prefetch starts reading the given ranges ({offset, length}) in the
// background, joining ranges less than PrefetchGap apart, so that the
// ReadAt calls that follow find their blocks read or being read. The
// blocks it reads stay in memory until a ReadAt uses them or the Reader
// is closed, up to PrefetchMax bytes (blocks read only to fill a gap
// are kept like any other recent block). A failed prefetch fails the
// ReadAt calls already waiting for it; later ones read the block again.
func (r *Reader) Prefetch(ranges [][2]int64) {
	type span struct{ lo, hi int64 } // [lo, hi)
	var spans []span
	for _, rg := range ranges {
		lo, hi := max(rg[0], 0), min(rg[0]+rg[1], r.size)
		if rg[1] > 0 && lo < hi {
			spans = append(spans, span{lo, hi})
		}
	}
	if len(spans) == 0 {
		return
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	merged := []span{spans[0]}
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.lo-last.hi < r.opts.PrefetchGap {
			last.hi = max(last.hi, s.hi)
		} else {
			merged = append(merged, s)
		}
	}

	overlaps := func(spans []span, lo, hi int64) bool {
		for _, s := range spans {
			if s.lo < hi && lo < s.hi {
				return true
			}
		}
		return false
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	var mine []*readerBlock
	var prev int64 = -1
scan:
	for _, s := range merged {
		for i := max(s.lo/r.bs, prev+1); i <= (s.hi-1)/r.bs; i++ {
			prev = i
			if r.blocks[i] != nil {
				continue
			}
			size := r.blockSize(i)
			if r.pinned+size > r.opts.PrefetchMax {
				break scan
			}
			// Blocks read only because they lie in a gap go to the
			// memory LRU; the ones asked for wait for their ReadAt.
			b := &readerBlock{idx: i, size: size, done: make(chan struct{}), pinned: overlaps(spans, i*r.bs, i*r.bs+size)}
			r.blocks[i] = b
			if b.pinned {
				r.pinned += size
			}
			mine = append(mine, b)
		}
	}
	if len(mine) == 0 {
		return
	}
	r.workers.Add(1)
	go func() {
		defer r.workers.Done()
		r.fill(mine)
	}()
}
