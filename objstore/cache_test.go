package objstore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func cacheTruncate(dir, name string, size int64) error {
	return os.Truncate(filepath.Join(dir, name), size)
}

// cacheDirBytes is the total size of the cache's entry files in dir.
func cacheDirBytes(t *testing.T, dir string) (n int64, files int) {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), cacheEntrySuffix) {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			t.Fatal(err)
		}
		n += fi.Size()
		files++
	}
	return n, files
}

func cacheTestKey(i int64) cacheKey {
	return cacheKey{uri: "s3://b/k", etag: "e1", blockSize: 100, index: i}
}

func TestCacheGetPut(t *testing.T) {
	c, err := NewCache(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	data := rdPattern(100, 20)
	if err := c.put(cacheTestKey(0), data); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		key  cacheKey
		want []byte
	}{
		{"same key", cacheTestKey(0), data},
		{"other block", cacheTestKey(1), nil},
		{"other ETag", cacheKey{uri: "s3://b/k", etag: "e2", blockSize: 100, index: 0}, nil},
		{"other URI", cacheKey{uri: "s3://b/k2", etag: "e1", blockSize: 100, index: 0}, nil},
		{"other block size", cacheKey{uri: "s3://b/k", etag: "e1", blockSize: 50, index: 0}, nil},
		// The key's fields are length-prefixed in the hash, so moving a
		// boundary between them names another entry.
		{"shifted boundary", cacheKey{uri: "s3://b/ke", etag: "1", blockSize: 100, index: 0}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := c.get(tc.key)
			if ok != (tc.want != nil) || !bytes.Equal(got, tc.want) {
				t.Fatalf("get = %d bytes, %v; want %d bytes", len(got), ok, len(tc.want))
			}
		})
	}
	if st := c.Stats(); st.Hits != 1 || st.Misses != 5 || st.Entries != 1 || st.Bytes != 100+cacheHeaderSize {
		t.Fatalf("stats %+v", st)
	}
}

func TestCacheNil(t *testing.T) {
	var c *Cache
	if err := c.put(cacheTestKey(0), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.get(cacheTestKey(0)); ok {
		t.Fatal("nil cache hit")
	}
	if st := c.Stats(); st != (CacheStats{}) {
		t.Fatalf("nil cache stats %+v", st)
	}
}

func TestCacheEviction(t *testing.T) {
	const entry = 100 + cacheHeaderSize
	cases := []struct {
		name     string
		maxBytes int64
		puts     int
		touch    []int64 // read after each put, to keep recent
		want     []int64 // entries left
	}{
		{"fits", 10 * entry, 5, nil, []int64{0, 1, 2, 3, 4}},
		{"oldest out", 3 * entry, 6, nil, []int64{3, 4, 5}},
		{"bound not a multiple", 3*entry + 50, 6, nil, []int64{3, 4, 5}},
		{"recently read kept", 3 * entry, 6, []int64{0}, []int64{0, 4, 5}},
		{"larger than the bound not stored", entry - 1, 3, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c, err := NewCache(dir, tc.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			for i := range int64(tc.puts) {
				if err := c.put(cacheTestKey(i), rdPattern(100, uint64(i))); err != nil {
					t.Fatal(err)
				}
				for _, k := range tc.touch {
					c.get(cacheTestKey(k))
				}
			}
			var left []int64
			for i := range int64(tc.puts) {
				if got, ok := c.get(cacheTestKey(i)); ok {
					if !bytes.Equal(got, rdPattern(100, uint64(i))) {
						t.Fatalf("entry %d: wrong bytes", i)
					}
					left = append(left, i)
				}
			}
			if fmt.Sprint(left) != fmt.Sprint(tc.want) {
				t.Fatalf("entries left %v, want %v", left, tc.want)
			}
			n, files := cacheDirBytes(t, dir)
			if n > tc.maxBytes || files != len(tc.want) {
				t.Fatalf("%d files of %d bytes on disk, want %d files within %d", files, n, len(tc.want), tc.maxBytes)
			}
			if st := c.Stats(); st.Bytes != n || st.Entries != int64(files) {
				t.Fatalf("stats %+v, disk %d bytes in %d files", st, n, files)
			}
		})
	}
}

// TestCacheRestart: a new Cache on the same directory removes the
// entries (and half-written files) of the previous one, nothing else.
func TestCacheRestart(t *testing.T) {
	dir := t.TempDir()
	c, err := NewCache(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for i := range int64(3) {
		if err := c.put(cacheTestKey(i), rdPattern(100, 1)); err != nil {
			t.Fatal(err)
		}
	}
	writes := map[string]string{
		"123" + cacheTmpSuffix: "half-written",
		"keep.txt":             "not ours",
	}
	for name, body := range writes {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"+cacheEntrySuffix), 0o700); err != nil {
		t.Fatal(err)
	}

	c2, err := NewCache(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	if got, want := strings.Join(names, " "), "keep.txt sub"+cacheEntrySuffix; got != want {
		t.Fatalf("left in dir: %s; want %s", got, want)
	}
	if _, ok := c2.get(cacheTestKey(0)); ok {
		t.Fatal("new cache served an entry of the previous run")
	}

	// NewCache creates a missing directory.
	nested := filepath.Join(dir, "a", "b")
	if _, err := NewCache(nested, 1<<20); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(nested); err != nil || !fi.IsDir() {
		t.Fatalf("cache dir not created: %v", err)
	}
	if _, err := NewCache(dir, 0); err == nil {
		t.Fatal("NewCache with no room succeeded")
	}
}

func TestCacheCorrupt(t *testing.T) {
	cases := []struct {
		name   string
		damage func(path string) error
	}{
		{"truncated", func(p string) error { return os.Truncate(p, cacheHeaderSize+50) }},
		{"header only", func(p string) error { return os.Truncate(p, cacheHeaderSize) }},
		{"empty", func(p string) error { return os.Truncate(p, 0) }},
		{"flipped byte", func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[cacheHeaderSize+10] ^= 1
			return os.WriteFile(p, b, 0o600)
		}},
		{"longer", func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			f.Write([]byte("extra"))
			return f.Close()
		}},
		{"removed", os.Remove},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c, err := NewCache(dir, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.put(cacheTestKey(0), rdPattern(100, 1)); err != nil {
				t.Fatal(err)
			}
			if err := tc.damage(filepath.Join(dir, cacheTestKey(0).fileName())); err != nil {
				t.Fatal(err)
			}
			if _, ok := c.get(cacheTestKey(0)); ok {
				t.Fatal("damaged entry served")
			}
			if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 {
				t.Fatalf("damaged entry still counted: %+v", st)
			}
			if _, files := cacheDirBytes(t, dir); files != 0 {
				t.Fatalf("damaged entry file left: %d files", files)
			}
			// It can be stored again.
			if err := c.put(cacheTestKey(0), rdPattern(100, 1)); err != nil {
				t.Fatal(err)
			}
			if got, ok := c.get(cacheTestKey(0)); !ok || !bytes.Equal(got, rdPattern(100, 1)) {
				t.Fatal("entry stored again not served")
			}
		})
	}
}

func TestCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	const entry = 100 + cacheHeaderSize
	c, err := NewCache(dir, 10*entry)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := int64((i*7 + g) % 25)
				if got, ok := c.get(cacheTestKey(k)); ok {
					if !bytes.Equal(got, rdPattern(100, uint64(k))) {
						t.Errorf("entry %d: wrong bytes", k)
						return
					}
					continue
				}
				if err := c.put(cacheTestKey(k), rdPattern(100, uint64(k))); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	n, files := cacheDirBytes(t, dir)
	st := c.Stats()
	if n > 10*entry || st.Bytes != n || st.Entries != int64(files) {
		t.Fatalf("stats %+v; %d bytes in %d files on disk, bound %d", st, n, files, 10*entry)
	}
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if strings.HasSuffix(de.Name(), cacheTmpSuffix) {
			t.Fatalf("temporary file left: %s", de.Name())
		}
	}
}

// BenchmarkCacheGet measures a hit of a 1 MiB block, to judge whether an
// in-memory tier above the disk would pay.
func BenchmarkCacheGet(b *testing.B) {
	c, err := NewCache(b.TempDir(), 64<<20)
	if err != nil {
		b.Fatal(err)
	}
	data := rdPattern(1<<20, 1)
	if err := c.put(cacheTestKey(0), data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, ok := c.get(cacheTestKey(0)); !ok {
			b.Fatal("miss")
		}
	}
}
