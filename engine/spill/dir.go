// Package spill keeps the temporary files of operators whose data does not
// fit in their statement's memory (sorts, hash aggregations, hash joins):
// one directory per server process, one subdirectory per statement, sizes
// accounted against the statement's temp_file_limit, every file removed
// when its statement ends, and the leftovers of a process that died removed
// when the next one starts.
//
// Layout under the configured temporary directory (conf key
// temp_directory):
//
//	<root>/icegate-<pid>-<random>/        one per server process; the process
//	                                      holds an exclusive flock on it while it runs
//	<root>/icegate-<pid>-<random>/s<n>/   one per statement that spilled
//	<root>/icegate-<pid>-<random>/s<n>/<n>.arrow
//
// A process directory whose lock can be taken belongs to no live process:
// Open removes it. Directories are made under a hidden name and renamed
// once locked, so another server starting at the same time never sees an
// unlocked directory of a live process.
package spill

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultRoot is the temporary directory when the configuration names
// none: icegate-temp under the OS temporary directory ($TMPDIR or /tmp).
func DefaultRoot() string { return filepath.Join(os.TempDir(), "icegate-temp") }

const (
	procPrefix = "icegate-"
	newPrefix  = ".new-icegate-"
)

// Dir is one server process's directory of temporary files.
type Dir struct {
	root string
	path string
	lock *os.File // the open directory, flocked while the process runs
	seq  atomic.Int64
	log  *slog.Logger
	// written and used total the bytes every statement wrote here and
	// those its files hold now, for the server's metrics.
	written, used atomic.Int64
}

// Written is the bytes statements have spilled into d since it opened.
func (d *Dir) Written() int64 {
	if d == nil {
		return 0
	}
	return d.written.Load()
}

// Used is the bytes d's temporary files hold now.
func (d *Dir) Used() int64 {
	if d == nil {
		return 0
	}
	return d.used.Load()
}

// Open makes this process's directory under root (created when missing)
// after removing the directories that processes which ended left there.
func Open(root string, log *slog.Logger) (*Dir, error) {
	if log == nil {
		log = slog.Default()
	}
	if root == "" {
		root = DefaultRoot()
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("temporary directory %s: %w", root, err)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("create temporary directory: %w", err)
	}
	if n, err := RemoveStale(root); err != nil {
		log.Warn("removing leftover temporary files", "dir", root, "err", err)
	} else if n > 0 {
		log.Info("removed leftover temporary files of ended processes", "dir", root, "directories", n)
	}
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, fmt.Errorf("temporary directory name: %w", err)
	}
	name := fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(rnd[:]))
	tmp := filepath.Join(root, newPrefix+name)
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, fmt.Errorf("create temporary directory: %w", err)
	}
	lock, err := os.Open(tmp)
	if err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("open temporary directory: %w", err)
	}
	if ok, err := lockOwn(lock); err != nil || !ok {
		lock.Close()
		os.Remove(tmp)
		if err == nil {
			err = fmt.Errorf("locked by another process")
		}
		return nil, fmt.Errorf("lock temporary directory %s: %w", tmp, err)
	}
	path := filepath.Join(root, procPrefix+name)
	if err := os.Rename(tmp, path); err != nil {
		lock.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("create temporary directory: %w", err)
	}
	return &Dir{root: root, path: path, lock: lock, log: log}, nil
}

// Path is this process's directory.
func (d *Dir) Path() string { return d.path }

// Close removes this process's directory and every file left in it.
func (d *Dir) Close() error {
	err := os.RemoveAll(d.path)
	d.lock.Close()
	if err != nil {
		return fmt.Errorf("remove temporary directory: %w", err)
	}
	return nil
}

// RemoveStale removes the process directories under root that no live
// process holds, and half-made ones older than a minute. It returns how
// many it removed.
func RemoveStale(root string) (int, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0, fmt.Errorf("list temporary directory: %w", err)
	}
	removed := 0
	var firstErr error
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(root, e.Name())
		switch {
		case strings.HasPrefix(e.Name(), procPrefix):
			f, err := os.Open(p)
			if err != nil {
				continue // gone meanwhile
			}
			ok, err := tryLock(f)
			if err == nil && ok {
				err = os.RemoveAll(p)
				if err == nil {
					removed++
				}
			}
			f.Close()
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("remove %s: %w", p, err)
			}
		case strings.HasPrefix(e.Name(), newPrefix):
			// Renamed within microseconds by a live process; one left
			// for a minute was left by a process that died making it.
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Minute {
				if err := os.RemoveAll(p); err == nil {
					removed++
				}
			}
		}
	}
	return removed, firstErr
}
