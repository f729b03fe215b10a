package spill

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/icegate/icegate/internal/pgerr"
)

// Statement is one statement's temporary files: its operators (and their
// parallel workers) create files through it, their sizes count against
// the statement's temp_file_limit, and Close removes them all.
type Statement struct {
	dir   *Dir
	limit int64 // bytes; < 0: no limit

	mu     sync.Mutex
	path   string // the statement's subdirectory, made with its first file
	files  map[*File]struct{}
	nextID int
	closed bool

	used    atomic.Int64 // bytes of the files that exist now
	written atomic.Int64 // bytes ever written, for EXPLAIN ANALYZE and stats
	nfiles  atomic.Int64 // files ever created
}

// Statement starts the temporary files of one statement, limited to
// limitBytes (< 0: unlimited; PostgreSQL's temp_file_limit of -1).
func (d *Dir) Statement(limitBytes int64) *Statement {
	return &Statement{dir: d, limit: limitBytes, files: map[*File]struct{}{}}
}

// Written is the bytes the statement's operators wrote to temporary files.
func (s *Statement) Written() int64 { return s.written.Load() }

// Files is the number of temporary files the statement created.
func (s *Statement) Files() int64 { return s.nfiles.Load() }

// Used is the size of the statement's temporary files that exist now.
func (s *Statement) Used() int64 { return s.used.Load() }

// ErrClosed is returned by Create after Close.
var ErrClosed = errors.New("spill: statement ended")

// Create makes a new temporary file, removed by its Close or the
// statement's.
func (s *Statement) Create() (*File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if s.path == "" {
		p := filepath.Join(s.dir.path, fmt.Sprintf("s%d", s.dir.seq.Add(1)))
		if err := os.Mkdir(p, 0o700); err != nil {
			return nil, pgerr.Wrap(err, pgerr.IOError, "could not create temporary file directory \"%s\"", p)
		}
		s.path = p
	}
	s.nextID++
	p := filepath.Join(s.path, fmt.Sprintf("%d.arrow", s.nextID))
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "could not create temporary file \"%s\"", p)
	}
	file := &File{st: s, f: f, path: p}
	s.files[file] = struct{}{}
	s.nfiles.Add(1)
	return file, nil
}

// Close removes every file of the statement, also those whose operators
// did not close them (an error, a cancel, a panic).
func (s *Statement) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	var first error
	for f := range s.files {
		if err := f.remove(); err != nil && first == nil {
			first = err
		}
	}
	s.files = map[*File]struct{}{}
	if s.path != "" {
		if err := os.RemoveAll(s.path); err != nil && first == nil {
			first = fmt.Errorf("remove temporary files: %w", err)
		}
		s.path = ""
	}
	return first
}

// grow accounts n more bytes written: 53400 past temp_file_limit.
func (s *Statement) grow(n int64) error {
	used := s.used.Add(n)
	s.written.Add(n)
	if s.dir != nil {
		s.dir.used.Add(n)
		s.dir.written.Add(n)
	}
	if s.limit >= 0 && used > s.limit {
		return pgerr.New(pgerr.ConfigurationLimitExceeded, "temporary file size exceeds temp_file_limit (%dkB)", s.limit>>10)
	}
	return nil
}

// File is one temporary file: written once from its start, then read.
type File struct {
	st   *Statement
	f    *os.File
	path string
	size int64
	gone bool
}

// Write appends p, accounting its size against the statement's limit.
func (f *File) Write(p []byte) (int, error) {
	if err := f.st.grow(int64(len(p))); err != nil {
		f.size += int64(len(p)) // accounted: given back on removal
		return 0, err
	}
	n, err := f.f.Write(p)
	f.size += int64(len(p))
	if err != nil {
		return n, pgerr.Wrap(err, pgerr.IOError, "could not write to temporary file \"%s\"", f.path)
	}
	return n, nil
}

// Size is the bytes written.
func (f *File) Size() int64 { return f.size }

// Reader reads the file from its start; several may read at once.
func (f *File) Reader() io.Reader {
	return io.NewSectionReader(f.f, 0, f.size)
}

// Close removes the file and gives its size back to the statement.
func (f *File) Close() error {
	f.st.mu.Lock()
	defer f.st.mu.Unlock()
	delete(f.st.files, f)
	return f.remove()
}

func (f *File) remove() error {
	if f.gone {
		return nil
	}
	f.gone = true
	f.st.used.Add(-f.size)
	if f.st.dir != nil {
		f.st.dir.used.Add(-f.size)
	}
	f.f.Close()
	if err := os.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove temporary file: %w", err)
	}
	return nil
}

type statementKey struct{}

// WithStatement returns a context whose operators spill through s.
func WithStatement(ctx context.Context, s *Statement) context.Context {
	return context.WithValue(ctx, statementKey{}, s)
}

// FromContext is the statement's temporary files, nil when the statement
// may not spill (its operators then fail when out of memory).
func FromContext(ctx context.Context) *Statement {
	s, _ := ctx.Value(statementKey{}).(*Statement)
	return s
}
