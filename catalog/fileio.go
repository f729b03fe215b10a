package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/icegate/icegate/internal/pgerr"
)

// maxResolvedDirs bounds the per-table cache of resolved directories.
const maxResolvedDirs = 4096

// localIO is the FileIO of a table stored on the local filesystem whose
// metadata names files with paths written elsewhere.
type localIO struct {
	tableDir string
	root     string
	table    string       // the table's name, for messages
	prefixes []prefixRule // longest written prefix first
	// Where symbolic links may lead: the real paths of the warehouse, of
	// the table's directory and of the prefix targets.
	realRoots []string

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
// compare equal.
//
// Files outside the warehouse (and the prefix targets) are never opened: a
// written path with a ".." component is refused, rule 1 keeps a path under
// its target, rule 2 under warehouseRoot, and a symbolic link met on the way
// must lead into the warehouse, the table's own directory (which may itself
// be a link the warehouse's owner made) or a prefix target. Refusals are
// 42501 errors wrapping ErrOutsideWarehouse.
func NewLocalIO(tableDir, warehouseRoot string, prefixes map[string]string) FileIO {
	l := &localIO{
		tableDir: absClean(tableDir),
		root:     absClean(warehouseRoot),
		dirs:     make(map[string]string),
	}
	l.table = tableName(l.root, l.tableDir)
	l.realRoots = []string{realPath(l.root), realPath(l.tableDir)}
	for from, to := range prefixes {
		if !filepath.IsAbs(to) {
			to = filepath.Join(l.root, to)
		}
		to = filepath.Clean(to)
		l.prefixes = append(l.prefixes, prefixRule{from: from, to: to})
		l.realRoots = append(l.realRoots, realPath(to))
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

// tableName is the dotted name of the table in tableDir under root.
func tableName(root, tableDir string) string {
	rel, err := filepath.Rel(root, tableDir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return filepath.Base(tableDir)
	}
	return strings.ReplaceAll(filepath.ToSlash(rel), "/", ".")
}

// realPath is p with its symbolic links followed, or p when that fails
// (p does not exist yet).
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// within reports whether p is dir or inside it (both clean).
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) || dir == string(filepath.Separator)
}

// refuse is the error for a path that would leave the warehouse.
func (l *localIO) refuse(written, why string) error {
	return pgerr.Wrap(fmt.Errorf("%s: %s: %w", written, why, ErrOutsideWarehouse), pgerr.InsufficientPrivilege,
		"path \"%s\" of table \"%s\" leaves the warehouse", l.displayWritten(written), l.table).
		WithDetail("%s.", why).
		WithHint("Files outside the warehouse are never read; map other locations with paths.prefixes.")
}

// hasDotDot reports whether a written path has a ".." component.
func hasDotDot(p string) bool {
	for i := strings.Index(p, ".."); i >= 0; {
		end := i + 2
		if (i == 0 || p[i-1] == '/') && (end == len(p) || p[end] == '/') {
			return true
		}
		next := strings.Index(p[i+1:], "..")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// Resolve implements FileIO.
func (l *localIO) Resolve(written string) (string, error) {
	if hasDotDot(written) || strings.ContainsRune(written, 0) {
		return "", l.refuse(written, `the path has a ".." component`)
	}
	for _, r := range l.prefixes {
		if strings.HasPrefix(written, r.from) {
			local := filepath.Join(r.to, strings.TrimPrefix(written[len(r.from):], "/"))
			if !within(local, r.to) {
				return "", l.refuse(written, "it leaves the directory "+r.from+" maps to")
			}
			return local, nil
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
	if !l.realWithin(local) {
		return "", l.refuse(written, "its directory is a symbolic link that leads out of the warehouse")
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

// realWithin reports whether the real path of the existing local path p
// (its symbolic links followed) stays where links may lead.
func (l *localIO) realWithin(p string) bool {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return true // nothing there to follow; opening it fails instead
	}
	for _, root := range l.realRoots {
		if within(r, root) {
			return true
		}
	}
	return false
}

// describe implements describer.
func (l *localIO) describe(written string) (name, table, local string) {
	local, err := l.Resolve(written)
	if err != nil {
		local = ""
	}
	return l.displayName(written, local), l.table, local
}

// displayName is how messages show a file: its path relative to the
// table's directory, else to the warehouse, else as written.
func (l *localIO) displayName(written, local string) string {
	if local == "" {
		return l.displayWritten(written)
	}
	for _, base := range []string{l.tableDir, l.root} {
		if within(local, base) && local != base {
			if rel, err := filepath.Rel(base, local); err == nil {
				return filepath.ToSlash(rel)
			}
		}
	}
	return written
}

// displayWritten shows a written path that does not resolve: relative to
// the table's directory or the warehouse when it starts with one of them.
func (l *localIO) displayWritten(written string) string {
	p := stripScheme(written)
	for _, base := range []string{l.tableDir, l.root} {
		if rest, ok := strings.CutPrefix(p, filepath.ToSlash(base)+"/"); ok {
			return rest
		}
	}
	return written
}

// Open implements FileIO.
func (l *localIO) Open(ctx context.Context, written string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	local, err := l.Resolve(written)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, pgerr.Wrap(err, pgerr.UndefinedFile, "could not open file \"%s\" of table \"%s\": No such file or directory", l.displayName(written, ""), l.table)
		}
		return nil, err
	}
	return l.openLocal(written, local)
}

// openLocal opens the resolved file without following a symbolic link
// there, unless the link leads where links may.
func (l *localIO) openLocal(written, local string) (File, error) {
	name := l.displayName(written, local)
	f, err := os.OpenFile(local, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, syscall.ELOOP) {
		if !l.realWithin(local) {
			return nil, l.refuse(written, "it is a symbolic link that leads out of the warehouse")
		}
		f, err = os.Open(local)
	}
	if err != nil {
		return nil, l.openError(name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, l.openError(name, err)
	}
	if st.IsDir() {
		f.Close()
		return nil, pgerr.Wrap(fmt.Errorf("%s: is a directory: %w", name, ErrNotFound), pgerr.IOError,
			"could not open file \"%s\" of table \"%s\": Is a directory", name, l.table)
	}
	return &localFile{File: f, size: st.Size(), name: name, table: l.table}, nil
}

// openError is the error for a file that does not open.
func (l *localIO) openError(name string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pgerr.Wrap(fmt.Errorf("%s: %w", name, ErrNotFound), pgerr.UndefinedFile,
			"could not open file \"%s\" of table \"%s\": No such file or directory", name, l.table)
	case errors.Is(err, fs.ErrPermission):
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege, "could not open file \"%s\" of table \"%s\": Permission denied", name, l.table)
	}
	return pgerr.Wrap(err, pgerr.IOError, "could not open file \"%s\" of table \"%s\": %s", name, l.table, syscallText(err))
}

// syscallText is the operating system's words for err, without the path
// an *fs.PathError adds.
func syscallText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// localFile is an open local file.
type localFile struct {
	*os.File
	size        int64
	name, table string
}

func (f *localFile) Size() int64 { return f.size }

// ReadAt implements io.ReaderAt; a failing read is 58030 naming the file
// (reading past the end is io.EOF, as io.ReaderAt says: a truncated file).
func (f *localFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	if err != nil && err != io.EOF {
		err = pgerr.Wrap(err, pgerr.IOError, "could not read file \"%s\" of table \"%s\": %s", f.name, f.table, syscallText(err))
	}
	return n, err
}
