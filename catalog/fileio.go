package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// maxResolvedDirs bounds the per-table cache of resolved directories.
const maxResolvedDirs = 4096

// localIO is the FileIO of a table stored on the local filesystem whose
// metadata names files with paths written elsewhere.
type localIO struct {
	tableDir string
	root     string
	prefixes []prefixRule // longest written prefix first

	mu   sync.Mutex
	dirs map[string]string // written directory -> resolved local directory
}

type prefixRule struct{ from, to string }

// NewLocalIO returns the FileIO of the table stored in tableDir inside the
// warehouse at warehouseRoot. A written path resolves by, in order:
//
//  1. an entry of prefixes whose key prefixes the path: the key is replaced
//     by the value (a relative value is relative to warehouseRoot);
//  2. dropping any scheme and authority (s3://bucket, hdfs://host:port,
//     file:, ...) and trying successive tails of the path, longest first,
//     under tableDir, then under each ancestor of tableDir up to
//     warehouseRoot (tables whose data sits in sibling folders).
//
// Resolved paths are absolute and clean, so two spellings of one file
// compare equal. Files outside warehouseRoot are never opened by rule 2.
func NewLocalIO(tableDir, warehouseRoot string, prefixes map[string]string) FileIO {
	l := &localIO{
		tableDir: absClean(tableDir),
		root:     absClean(warehouseRoot),
		dirs:     make(map[string]string),
	}
	for from, to := range prefixes {
		if !filepath.IsAbs(to) {
			to = filepath.Join(l.root, to)
		}
		l.prefixes = append(l.prefixes, prefixRule{from: from, to: to})
	}
	sort.Slice(l.prefixes, func(i, j int) bool { return len(l.prefixes[i].from) > len(l.prefixes[j].from) })
	return l
}

func absClean(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// Resolve implements FileIO.
func (l *localIO) Resolve(written string) (string, error) {
	for _, r := range l.prefixes {
		if strings.HasPrefix(written, r.from) {
			return filepath.Join(r.to, strings.TrimPrefix(written[len(r.from):], "/")), nil
		}
	}
	dir, name := splitWritten(written)
	if name == "" {
		return "", fmt.Errorf("resolve %q: no file name: %w", written, ErrNotFound)
	}
	l.mu.Lock()
	local, ok := l.dirs[dir]
	l.mu.Unlock()
	if ok {
		return filepath.Join(local, name), nil
	}
	local, err := l.resolveDir(dir, name)
	if err != nil {
		// The file is missing: still give its path in the directory the
		// written directory maps to, so a written path always resolves the
		// same way (Open then reports the missing file).
		if d, ok := l.matchDir(dir); ok {
			return filepath.Join(d, name), nil
		}
		return "", fmt.Errorf("resolve %q: %w", written, err)
	}
	l.mu.Lock()
	if len(l.dirs) >= maxResolvedDirs {
		clear(l.dirs)
	}
	l.dirs[dir] = local
	l.mu.Unlock()
	return filepath.Join(local, name), nil
}

// resolveDir finds the local directory of a written directory by looking for
// the file name under successive tails of the directory.
func (l *localIO) resolveDir(dir, name string) (string, error) {
	parts := splitComponents(stripScheme(dir))
	for base := l.tableDir; ; {
		for i := 0; i <= len(parts); i++ {
			cand := filepath.Join(base, filepath.Join(parts[i:]...))
			if st, err := os.Stat(filepath.Join(cand, name)); err == nil && !st.IsDir() {
				return cand, nil
			}
		}
		if base == l.root || !strings.HasPrefix(base, l.root) {
			break
		}
		parent := filepath.Dir(base)
		if parent == base {
			break
		}
		base = parent
	}
	return "", fmt.Errorf("no local file under %s: %w", l.tableDir, ErrNotFound)
}

// matchDir finds an existing local directory for a written directory by the
// same tails rule, without a file to confirm it.
func (l *localIO) matchDir(dir string) (string, bool) {
	parts := splitComponents(stripScheme(dir))
	for base := l.tableDir; ; {
		for i := 0; i < len(parts); i++ {
			cand := filepath.Join(base, filepath.Join(parts[i:]...))
			if st, err := os.Stat(cand); err == nil && st.IsDir() {
				return cand, true
			}
		}
		if base == l.root || !strings.HasPrefix(base, l.root) {
			return "", false
		}
		parent := filepath.Dir(base)
		if parent == base {
			return "", false
		}
		base = parent
	}
}

// splitWritten splits a written path at its last slash.
func splitWritten(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// stripScheme drops "scheme://authority" or "scheme:" from a URI-like path.
func stripScheme(p string) string {
	i := strings.Index(p, ":")
	if i <= 0 || strings.ContainsAny(p[:i], "/.") {
		return p
	}
	rest := p[i+1:]
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return rest[j:]
		}
		return ""
	}
	return rest
}

// splitComponents splits a path into its non-empty, non-"." components.
func splitComponents(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// Open implements FileIO.
func (l *localIO) Open(ctx context.Context, written string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	local, err := l.Resolve(written)
	if err != nil {
		return nil, err
	}
	return openLocal(written, local)
}

func openLocal(written, local string) (File, error) {
	f, err := os.Open(local)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("open %s (local %s): %w", written, local, ErrNotFound)
		}
		return nil, fmt.Errorf("open %s: %w", written, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", written, err)
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("open %s: is a directory: %w", written, ErrNotFound)
	}
	return &localFile{File: f, size: st.Size()}, nil
}

// localFile is an open local file.
type localFile struct {
	*os.File
	size int64
}

func (f *localFile) Size() int64 { return f.size }
