package objstore

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const rdURI = "s3://bucket/t/data/f.parquet"

// pattern is size deterministic bytes, distinct per seed.
func rdPattern(size int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// small options: blocks of 16 bytes, objects up to 32 bytes read whole.
func rdSmallOpts() ReaderOptions {
	return ReaderOptions{BlockSize: 16, WholeObjectMax: 32, MaxRequest: 1 << 20, MemoryBlocks: 64}
}

func rdOpen(t testing.TB, s Store, c *Cache, opts ReaderOptions) *Reader {
	t.Helper()
	r, err := Open(context.Background(), s, c, rdURI, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestReaderReadAt(t *testing.T) {
	type read struct {
		off, n int64
	}
	cases := []struct {
		name      string
		size      int
		reads     []read
		wantCalls int64 // ReadRange calls after all reads
		wantBytes int64 // bytes those calls returned
	}{
		{"within one block", 100, []read{{3, 5}}, 1, 16},
		{"block boundary exactly", 100, []read{{16, 16}}, 1, 16},
		{"spanning two blocks", 100, []read{{10, 10}}, 1, 32},
		{"spanning five blocks", 100, []read{{15, 50}}, 1, 80},
		{"last short block", 100, []read{{90, 10}}, 1, 20},
		{"past the end", 100, []read{{90, 20}}, 1, 20},
		{"only the last short block", 100, []read{{97, 20}}, 1, 4},
		{"at the end", 100, []read{{100, 4}}, 0, 0},
		{"beyond the end", 100, []read{{150, 4}}, 0, 0},
		{"empty read", 100, []read{{5, 0}}, 0, 0},
		{"repeated reads hit memory", 100, []read{{0, 4}, {4, 4}, {8, 4}, {2, 10}}, 1, 16},
		{"small object read whole", 30, []read{{0, 4}, {20, 5}, {10, 20}}, 1, 30},
		{"small object at threshold", 32, []read{{31, 1}, {0, 1}}, 1, 32},
		{"empty object", 0, []read{{0, 1}}, 0, 0},
		{"whole large object", 100, []read{{0, 100}}, 1, 100},
		{"second read of other blocks", 100, []read{{0, 4}, {40, 4}}, 2, 32},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newCountingStore()
			data := rdPattern(tc.size, 1)
			s.set(rdURI, data)
			r := rdOpen(t, s, nil, rdSmallOpts())
			if r.Size() != int64(tc.size) {
				t.Fatalf("Size = %d, want %d", r.Size(), tc.size)
			}
			for _, rd := range tc.reads {
				p := make([]byte, rd.n)
				n, err := r.ReadAt(p, rd.off)
				// What io.ReaderAt requires of the result.
				wantN := max(min(rd.off+rd.n, int64(tc.size))-rd.off, 0)
				if int64(n) != wantN {
					t.Fatalf("ReadAt(%d, %d) n = %d, want %d", rd.off, rd.n, n, wantN)
				}
				if wantN < rd.n && err != io.EOF {
					t.Fatalf("ReadAt(%d, %d) short read err = %v, want io.EOF", rd.off, rd.n, err)
				}
				if wantN == rd.n && err != nil {
					t.Fatalf("ReadAt(%d, %d) err = %v", rd.off, rd.n, err)
				}
				if n > 0 && !bytes.Equal(p[:n], data[rd.off:rd.off+int64(n)]) {
					t.Fatalf("ReadAt(%d, %d) returned wrong bytes", rd.off, rd.n)
				}
			}
			if got := s.reads.Load(); got != tc.wantCalls {
				t.Errorf("ReadRange calls = %d, want %d", got, tc.wantCalls)
			}
			if got := s.readBytes.Load(); got != tc.wantBytes {
				t.Errorf("bytes read = %d, want %d", got, tc.wantBytes)
			}
		})
	}
}

func TestReaderNegativeOffset(t *testing.T) {
	s := newCountingStore()
	s.set(rdURI, rdPattern(100, 1))
	r := rdOpen(t, s, nil, rdSmallOpts())
	if _, err := r.ReadAt(make([]byte, 1), -1); err == nil {
		t.Fatal("ReadAt at -1 succeeded")
	}
}

// TestReaderCoalesce: the missing blocks of one ReadAt are read in runs
// of adjacent blocks, one GET a run, split at MaxRequest.
func TestReaderCoalesce(t *testing.T) {
	cases := []struct {
		name       string
		cached     []int64 // blocks read (into memory) before
		off, n     int64
		maxRequest int64
		wantCalls  int64
		wantBytes  int64
	}{
		{"8 adjacent blocks, one GET", nil, 0, 128, 1 << 20, 1, 128},
		{"split at MaxRequest", nil, 0, 128, 48, 3, 128},
		{"holes make three runs", []int64{2, 5}, 0, 128, 1 << 20, 3, 128 - 32},
		{"only the missing middle", []int64{0, 1, 6, 7}, 0, 128, 1 << 20, 1, 64},
		{"nothing missing", []int64{0, 1}, 0, 32, 1 << 20, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newCountingStore()
			data := rdPattern(256, 2)
			s.set(rdURI, data)
			opts := rdSmallOpts()
			opts.MaxRequest = tc.maxRequest
			r := rdOpen(t, s, nil, opts)
			for _, b := range tc.cached {
				if _, err := r.ReadAt(make([]byte, 1), b*16); err != nil {
					t.Fatal(err)
				}
			}
			calls0, bytes0 := s.reads.Load(), s.readBytes.Load()
			p := make([]byte, tc.n)
			if _, err := r.ReadAt(p, tc.off); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(p, data[tc.off:tc.off+tc.n]) {
				t.Fatal("wrong bytes")
			}
			if got := s.reads.Load() - calls0; got != tc.wantCalls {
				t.Errorf("ReadRange calls = %d, want %d", got, tc.wantCalls)
			}
			if got := s.readBytes.Load() - bytes0; got != tc.wantBytes {
				t.Errorf("bytes read = %d, want %d", got, tc.wantBytes)
			}
		})
	}
}

// TestReaderParallelRuns: separate runs of one ReadAt are read at once,
// no more than Parallelism at a time.
func TestReaderParallelRuns(t *testing.T) {
	for _, par := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("parallelism %d", par), func(t *testing.T) {
			s := newCountingStore()
			data := rdPattern(16*9, 3)
			s.set(rdURI, data)
			opts := rdSmallOpts()
			opts.Parallelism = par
			r := rdOpen(t, s, nil, opts)
			for _, b := range []int64{1, 3, 5, 7} { // leave 0, 2, 4, 6, 8 missing
				if _, err := r.ReadAt(make([]byte, 1), b*16); err != nil {
					t.Fatal(err)
				}
			}
			s.reads.Store(0)
			// Hold every GET until `par` of them are in flight together.
			s.entered = make(chan struct{}, 16)
			s.gate = make(chan struct{})
			done := make(chan error, 1)
			p := make([]byte, len(data))
			go func() { _, err := r.ReadAt(p, 0); done <- err }()
			for range par {
				select {
				case <-s.entered:
				case <-time.After(5 * time.Second):
					t.Fatalf("fewer than %d GETs in flight together", par)
				}
			}
			close(s.gate)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(p, data) {
				t.Fatal("wrong bytes")
			}
			if got := s.reads.Load(); got != 5 {
				t.Errorf("ReadRange calls = %d, want 5", got)
			}
			if got := s.maxInflight.Load(); got != int64(par) {
				t.Errorf("at most %d GETs in flight, want %d", got, par)
			}
		})
	}
}

// TestReaderSingleflight: concurrent reads of one block make one GET.
func TestReaderSingleflight(t *testing.T) {
	for _, c := range []struct {
		name  string
		cache bool
	}{{"no cache", false}, {"cache", true}} {
		t.Run(c.name, func(t *testing.T) {
			s := newCountingStore()
			data := rdPattern(1000, 4)
			s.set(rdURI, data)
			var cache *Cache
			if c.cache {
				var err error
				if cache, err = NewCache(t.TempDir(), 1<<20); err != nil {
					t.Fatal(err)
				}
			}
			r := rdOpen(t, s, cache, ReaderOptions{BlockSize: 100, WholeObjectMax: 1})
			s.entered = make(chan struct{}, 64)
			s.gate = make(chan struct{})
			const readers = 32
			var wg sync.WaitGroup
			errs := make(chan error, readers)
			for i := range readers {
				wg.Go(func() {
					p := make([]byte, 10)
					off := int64(300 + i) // all in block 3
					if _, err := r.ReadAt(p, off); err != nil {
						errs <- err
						return
					}
					if !bytes.Equal(p, data[off:off+10]) {
						errs <- errors.New("wrong bytes")
					}
				})
			}
			<-s.entered
			time.Sleep(50 * time.Millisecond) // let the others queue up
			close(s.gate)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if got := s.reads.Load(); got != 1 {
				t.Errorf("ReadRange calls = %d, want 1", got)
			}
		})
	}
}

func TestReaderCache(t *testing.T) {
	s := newCountingStore()
	data := rdPattern(1000, 5)
	s.set(rdURI, data)
	cache, err := NewCache(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	opts := ReaderOptions{BlockSize: 100, WholeObjectMax: 1, MemoryBlocks: 1}
	readAll := func() []byte {
		t.Helper()
		r := rdOpen(t, s, cache, opts)
		p := make([]byte, r.Size())
		if _, err := r.ReadAt(p, 0); err != nil {
			t.Fatal(err)
		}
		r.Close()
		return p
	}

	if !bytes.Equal(readAll(), data) {
		t.Fatal("first reader: wrong bytes")
	}
	if got := s.reads.Load(); got != 1 {
		t.Fatalf("first reader: ReadRange calls = %d, want 1", got)
	}
	if st := cache.Stats(); st.Entries != 10 {
		t.Fatalf("cache entries = %d, want 10", st.Entries)
	}

	// A second Reader of the same version reads from the cache only.
	if !bytes.Equal(readAll(), data) {
		t.Fatal("second reader: wrong bytes")
	}
	if got := s.reads.Load(); got != 1 {
		t.Fatalf("second reader: ReadRange calls = %d, want still 1", got)
	}

	// Rewritten under the same name and size: a new ETag, so a miss.
	data2 := rdPattern(1000, 6)
	s.set(rdURI, data2)
	if !bytes.Equal(readAll(), data2) {
		t.Fatal("after rewrite: stale bytes")
	}
	if got := s.reads.Load(); got != 2 {
		t.Fatalf("after rewrite: ReadRange calls = %d, want 2", got)
	}

	// A damaged entry is a miss and is read again.
	obj, err := s.get(rdURI)
	if err != nil {
		t.Fatal(err)
	}
	name := cacheKey{uri: rdURI, etag: obj.etag, blockSize: 100, index: 4}.fileName()
	if err := cacheTruncate(cache.dir, name, 10); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readAll(), data2) {
		t.Fatal("after damage: wrong bytes")
	}
	if got := s.reads.Load(); got != 3 {
		t.Fatalf("after damage: ReadRange calls = %d, want 3", got)
	}
	if got := s.readBytes.Load(); got != 1000+1000+100 {
		t.Fatalf("bytes read = %d, want only block 4 again", got)
	}
}

// TestReaderChanged: an object rewritten after Open fails the read with
// ErrChanged rather than mixing two versions.
func TestReaderChanged(t *testing.T) {
	s := newCountingStore()
	s.set(rdURI, rdPattern(1000, 7))
	r := rdOpen(t, s, nil, ReaderOptions{BlockSize: 100, WholeObjectMax: 1})
	if _, err := r.ReadAt(make([]byte, 10), 0); err != nil {
		t.Fatal(err)
	}
	s.set(rdURI, rdPattern(1000, 8))
	_, err := r.ReadAt(make([]byte, 10), 500)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	// Without an ETag a shorter object is a change too.
	r2, err := Open(context.Background(), s, nil, rdURI,
		ReaderOptions{BlockSize: 100, WholeObjectMax: 1, Known: &Info{Size: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	s.set(rdURI, rdPattern(950, 9))
	if _, err := r2.ReadAt(make([]byte, 100), 900); !errors.Is(err, ErrChanged) {
		t.Fatalf("shorter object: err = %v, want ErrChanged", err)
	}
}

func TestReaderStoreErrorsWrapped(t *testing.T) {
	s := newCountingStore()
	if _, err := Open(context.Background(), s, nil, rdURI, ReaderOptions{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Open of a missing object: err = %v, want ErrNotFound", err)
	}
	s.set(rdURI, rdPattern(1000, 10))
	r := rdOpen(t, s, nil, ReaderOptions{BlockSize: 100, WholeObjectMax: 1})
	s.Delete(context.Background(), rdURI)
	_, err := r.ReadAt(make([]byte, 10), 0)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("ReadAt of a deleted object: err = %v, want ErrNotFound", err)
	}
	// A failed block is not remembered: the next read tries again.
	s.set(rdURI, rdPattern(1000, 10))
	if _, err := r.ReadAt(make([]byte, 10), 0); err != nil {
		t.Fatalf("ReadAt after the object is back: %v", err)
	}
}

func TestReaderKnownInfo(t *testing.T) {
	s := newCountingStore()
	data := rdPattern(1000, 11)
	etag := s.set(rdURI, data)
	cache, err := NewCache(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		cache     *Cache
		known     *Info
		wantHeads int64
		wantETag  string
	}{
		{"nothing known", nil, nil, 1, etag},
		{"size and ETag known", cache, &Info{URI: rdURI, Size: 1000, ETag: etag}, 0, etag},
		{"size known, no cache", nil, &Info{Size: 1000}, 0, ""},
		{"size known, cache: HEAD for the ETag", cache, &Info{Size: 1000}, 1, etag},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s.heads.Store(0)
			opts := ReaderOptions{BlockSize: 100, WholeObjectMax: 1, Known: tc.known}
			r, err := Open(context.Background(), s, tc.cache, rdURI, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := s.heads.Load(); got != tc.wantHeads {
				t.Errorf("HEADs = %d, want %d", got, tc.wantHeads)
			}
			if r.ETag() != tc.wantETag || r.Size() != 1000 {
				t.Errorf("ETag, Size = %q, %d, want %q, 1000", r.ETag(), r.Size(), tc.wantETag)
			}
			p := make([]byte, 1000)
			if _, err := r.ReadAt(p, 0); err != nil || !bytes.Equal(p, data) {
				t.Fatalf("ReadAt: %v (bytes equal: %v)", err, bytes.Equal(p, data))
			}
		})
	}
}

// TestReaderMemoryBound: without a cache the Reader keeps MemoryBlocks
// blocks, least recently used out first.
func TestReaderMemoryBound(t *testing.T) {
	s := newCountingStore()
	s.set(rdURI, rdPattern(1000, 12))
	r := rdOpen(t, s, nil, ReaderOptions{BlockSize: 100, WholeObjectMax: 1, MemoryBlocks: 3})
	read := func(block int64) {
		t.Helper()
		if _, err := r.ReadAt(make([]byte, 1), block*100); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []int64{0, 1, 2, 0, 3} { // 1 is least recent when 3 comes in
		read(b)
	}
	if got := s.reads.Load(); got != 4 {
		t.Fatalf("ReadRange calls = %d, want 4", got)
	}
	read(0)
	read(2)
	read(3)
	if got := s.reads.Load(); got != 4 {
		t.Fatalf("after rereading held blocks: ReadRange calls = %d, want 4", got)
	}
	read(1)
	if got := s.reads.Load(); got != 5 {
		t.Fatalf("evicted block: ReadRange calls = %d, want 5", got)
	}
	r.mu.Lock()
	held := len(r.blocks)
	r.mu.Unlock()
	if held != 3 {
		t.Fatalf("blocks held = %d, want 3", held)
	}
}

func TestReaderCancel(t *testing.T) {
	t.Run("before the read", func(t *testing.T) {
		s := newCountingStore()
		s.set(rdURI, rdPattern(1000, 13))
		ctx, cancel := context.WithCancel(context.Background())
		r, err := Open(ctx, s, nil, rdURI, ReaderOptions{BlockSize: 100, WholeObjectMax: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cancel()
		if _, err := r.ReadAt(make([]byte, 10), 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if got := s.reads.Load(); got != 0 {
			t.Fatalf("ReadRange calls = %d, want 0", got)
		}
	})
	t.Run("during the read", func(t *testing.T) {
		s := newCountingStore()
		s.set(rdURI, rdPattern(1000, 13))
		ctx, cancel := context.WithCancel(context.Background())
		r, err := Open(ctx, s, nil, rdURI, ReaderOptions{BlockSize: 100, WholeObjectMax: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		s.entered = make(chan struct{}, 4)
		s.gate = make(chan struct{}) // never opened
		errs := make(chan error, 2)
		for range 2 { // the second waits for the first's GET
			go func() { _, err := r.ReadAt(make([]byte, 10), 0); errs <- err }()
		}
		<-s.entered
		cancel()
		for range 2 {
			select {
			case err := <-errs:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("read did not end when ctx was canceled")
			}
		}
	})
	t.Run("Open", func(t *testing.T) {
		s := newCountingStore()
		s.set(rdURI, rdPattern(10, 13))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Open(ctx, s, nil, rdURI, ReaderOptions{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestReaderClose(t *testing.T) {
	s := newCountingStore()
	s.set(rdURI, rdPattern(1000, 14))
	r, err := Open(context.Background(), s, nil, rdURI, ReaderOptions{BlockSize: 100, WholeObjectMax: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.gate = make(chan struct{}) // prefetches never finish on their own
	r.Prefetch([][2]int64{{0, 1000}})
	if err := r.Close(); err != nil { // waits for the prefetch to stop
		t.Fatal(err)
	}
	if _, err := r.ReadAt(make([]byte, 1), 0); err == nil {
		t.Fatal("ReadAt after Close succeeded")
	}
	r.Prefetch([][2]int64{{0, 1000}}) // does nothing
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestReaderPrefetch(t *testing.T) {
	cases := []struct {
		name        string
		ranges      [][2]int64
		gap         int64
		max         int64
		wantCalls   int64 // after the prefetch and reading every range
		wantFetched int64 // bytes
	}{
		{"one range", [][2]int64{{150, 200}}, 1, 0, 1, 300},
		{"two ranges joined over a small gap", [][2]int64{{0, 100}, {250, 100}}, 200, 0, 1, 400},
		{"two ranges apart", [][2]int64{{0, 100}, {600, 100}}, 200, 0, 2, 200},
		{"overlapping, unordered", [][2]int64{{500, 200}, {550, 10}, {0, 100}}, 1, 0, 2, 300},
		// 3 blocks prefetched in one GET, the other 7 read one by one.
		{"beyond PrefetchMax read on demand", [][2]int64{{0, 1000}}, 1, 300, 8, 1000},
		{"empty and past the end ignored", [][2]int64{{0, 0}, {5000, 10}, {900, 500}}, 1, 0, 1, 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newCountingStore()
			data := rdPattern(1000, 15)
			s.set(rdURI, data)
			r := rdOpen(t, s, nil, ReaderOptions{
				BlockSize: 100, WholeObjectMax: 1, MemoryBlocks: 2,
				PrefetchGap: tc.gap, PrefetchMax: tc.max,
			})
			r.Prefetch(tc.ranges)
			for _, rg := range tc.ranges {
				// Read each range in small pieces, as a Parquet scan does.
				for off := rg[0]; off < min(rg[0]+rg[1], 1000); off += 10 {
					p := make([]byte, 10)
					if _, err := r.ReadAt(p, off); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(p, data[off:off+10]) {
						t.Fatal("wrong bytes")
					}
				}
			}
			if got := s.reads.Load(); got != tc.wantCalls {
				t.Errorf("ReadRange calls = %d, want %d", got, tc.wantCalls)
			}
			if got := s.readBytes.Load(); got != tc.wantFetched {
				t.Errorf("bytes read = %d, want %d", got, tc.wantFetched)
			}
			r.mu.Lock()
			pinned := r.pinned
			r.mu.Unlock()
			if pinned != 0 {
				t.Errorf("pinned bytes after every range was read = %d, want 0", pinned)
			}
		})
	}
}

// TestReaderPrefetchInFlight: a ReadAt of a block being prefetched waits
// for that GET instead of sending another.
func TestReaderPrefetchInFlight(t *testing.T) {
	s := newCountingStore()
	data := rdPattern(1000, 18)
	s.set(rdURI, data)
	r := rdOpen(t, s, nil, ReaderOptions{BlockSize: 100, WholeObjectMax: 1})
	s.entered = make(chan struct{}, 4)
	s.gate = make(chan struct{})
	r.Prefetch([][2]int64{{200, 300}})
	<-s.entered
	done := make(chan error, 1)
	p := make([]byte, 250)
	go func() { _, err := r.ReadAt(p, 220); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("ReadAt returned before the prefetch it needs: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(s.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p, data[220:470]) {
		t.Fatal("wrong bytes")
	}
	if got := s.reads.Load(); got != 1 {
		t.Fatalf("ReadRange calls = %d, want 1", got)
	}
}

// TestReaderConcurrent reads random ranges from many goroutines, with
// prefetches and a small memory, and checks every byte.
func TestReaderConcurrent(t *testing.T) {
	for _, withCache := range []bool{false, true} {
		t.Run(fmt.Sprintf("cache=%v", withCache), func(t *testing.T) {
			s := newCountingStore()
			data := rdPattern(50_000, 16)
			s.set(rdURI, data)
			var cache *Cache
			if withCache {
				var err error
				if cache, err = NewCache(t.TempDir(), 20_000); err != nil {
					t.Fatal(err)
				}
			}
			opts := ReaderOptions{BlockSize: 1000, WholeObjectMax: 1, MemoryBlocks: 3, MaxRequest: 4000, PrefetchMax: 5000}
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					r, err := Open(context.Background(), s, cache, rdURI, opts)
					if err != nil {
						t.Error(err)
						return
					}
					defer r.Close()
					rng := rand.New(rand.NewPCG(uint64(g), 1))
					for range 200 {
						off := rng.Int64N(52_000)
						n := rng.Int64N(5000)
						if rng.IntN(10) == 0 {
							r.Prefetch([][2]int64{{off, n}, {off + 2*n, n}})
						}
						p := make([]byte, n)
						got, err := r.ReadAt(p, off)
						want := max(min(off+n, 50_000)-off, 0)
						if int64(got) != want || (want < n && err != io.EOF) || (want == n && err != nil) {
							t.Errorf("ReadAt(%d, %d) = %d, %v; want %d", off, n, got, err, want)
							return
						}
						if got > 0 && !bytes.Equal(p[:got], data[off:off+int64(got)]) {
							t.Errorf("ReadAt(%d, %d): wrong bytes", off, n)
							return
						}
					}
				})
			}
			wg.Wait()
			if cache != nil {
				if st := cache.Stats(); st.Bytes > 20_000 || st.Hits == 0 {
					t.Errorf("cache stats %+v: want hits and at most 20000 bytes", st)
				}
			}
		})
	}
}

// Benchmarks: a 32 MiB object behind a store that takes 2ms a request,
// read whole in 256 KiB pieces by a new Reader each iteration (a scan
// of a file that was scanned before).
func benchReader(b *testing.B, cached bool) {
	s := newCountingStore()
	const size = 32 << 20
	s.set(rdURI, rdPattern(size, 17))
	s.latency = 2 * time.Millisecond
	var cache *Cache
	if cached {
		var err error
		if cache, err = NewCache(b.TempDir(), 2*size); err != nil {
			b.Fatal(err)
		}
	}
	p := make([]byte, 256<<10)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		r, err := Open(context.Background(), s, cache, rdURI, ReaderOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for off := int64(0); off < size; off += int64(len(p)) {
			if _, err := r.ReadAt(p, off); err != nil {
				b.Fatal(err)
			}
		}
		r.Close()
	}
	b.ReportMetric(float64(s.reads.Load())/float64(b.N), "GETs/op")
}

func BenchmarkReaderCached(b *testing.B)   { benchReader(b, true) }
func BenchmarkReaderUncached(b *testing.B) { benchReader(b, false) }

// countingStore is a Store over a map, for testing what sits on top of Store
// (the Reader's caching and coalescing), not a store. It counts requests
// and can hold ReadRange calls at a gate or slow them down.
type countingStore struct {
	mu   sync.Mutex
	objs map[string]countingObject

	heads, reads, readBytes atomic.Int64
	inflight, maxInflight   atomic.Int64
	// gate, when set, is received from by every ReadRange before it
	// reads (or it gives up when ctx ends).
	gate chan struct{}
	// entered, when set, gets a value as each ReadRange starts.
	entered chan struct{}
	latency time.Duration
}

type countingObject struct {
	data []byte
	etag string
}

func newCountingStore() *countingStore { return &countingStore{objs: map[string]countingObject{}} }

func (m *countingStore) set(uri string, data []byte) string {
	sum := md5.Sum(data)
	etag := hex.EncodeToString(sum[:])
	m.mu.Lock()
	m.objs[uri] = countingObject{data: append([]byte(nil), data...), etag: etag}
	m.mu.Unlock()
	return etag
}

func (m *countingStore) get(uri string) (countingObject, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.objs[uri]
	if !ok {
		return countingObject{}, fmt.Errorf("%s: %w", uri, ErrNotFound)
	}
	return o, nil
}

func (m *countingStore) Head(ctx context.Context, uri string) (Info, error) {
	m.heads.Add(1)
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	o, err := m.get(uri)
	if err != nil {
		return Info{}, err
	}
	return Info{URI: uri, Size: int64(len(o.data)), ETag: o.etag}, nil
}

func (m *countingStore) ReadRange(ctx context.Context, uri, etag string, p []byte, off int64) (int, error) {
	m.reads.Add(1)
	cur := m.inflight.Add(1)
	defer m.inflight.Add(-1)
	for {
		prev := m.maxInflight.Load()
		if cur <= prev || m.maxInflight.CompareAndSwap(prev, cur) {
			break
		}
	}
	if m.entered != nil {
		m.entered <- struct{}{}
	}
	if m.gate != nil {
		select {
		case <-m.gate:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	if m.latency > 0 {
		t := time.NewTimer(m.latency)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return 0, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	o, err := m.get(uri)
	if err != nil {
		return 0, err
	}
	if etag != "" && etag != o.etag {
		return 0, fmt.Errorf("%s: %w", uri, ErrChanged)
	}
	if off >= int64(len(o.data)) {
		return 0, io.EOF
	}
	n := copy(p, o.data[off:])
	m.readBytes.Add(int64(n))
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m *countingStore) Put(ctx context.Context, uri string, data []byte, ifAbsent bool) error {
	if ifAbsent {
		if _, err := m.get(uri); err == nil {
			return fmt.Errorf("%s: %w", uri, ErrExists)
		}
	}
	m.set(uri, data)
	return nil
}

func (m *countingStore) Create(ctx context.Context, uri string) (Writer, error) {
	return nil, errors.New("countingStore: streamed writes are not needed by these tests")
}

func (m *countingStore) Delete(ctx context.Context, uri string) error {
	m.mu.Lock()
	delete(m.objs, uri)
	m.mu.Unlock()
	return nil
}

func (m *countingStore) List(ctx context.Context, prefix string, fn func(Info) error) error {
	m.mu.Lock()
	var infos []Info
	for uri, o := range m.objs {
		if strings.HasPrefix(uri, prefix) {
			infos = append(infos, Info{URI: uri, Size: int64(len(o.data)), ETag: o.etag})
		}
	}
	m.mu.Unlock()
	sort.Slice(infos, func(i, j int) bool { return infos[i].URI < infos[j].URI })
	for _, in := range infos {
		if err := fn(in); err != nil {
			return err
		}
	}
	return nil
}

var _ Store = (*countingStore)(nil)
