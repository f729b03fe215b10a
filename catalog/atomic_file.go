package catalog

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/icegate/icegate/internal/pgerr"
)

// newUUID returns a random (version 4) UUID in canonical form.
func newUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return FormatUUID(u)
}

// Syncer makes what a catalog writes durable: the contents of a file, and
// the entries of a directory (a file created, linked, renamed or removed in
// it). The Filesystem catalog syncs every file a commit references once,
// right after writing it, and the directories that gained an entry, before
// the metadata file that commits them is linked into place; then that
// metadata file's directory before the commit returns.
type Syncer interface {
	SyncFile(f *os.File) error
	SyncDir(dir string) error
}

// OSSyncer is the Syncer of the operating system: fsync(2).
type OSSyncer struct{}

// SyncFile implements Syncer.
func (OSSyncer) SyncFile(f *os.File) error { return f.Sync() }

// SyncDir implements Syncer.
func (OSSyncer) SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// writeTemp writes data to a new hidden temporary file in dir, synced, and
// returns its path. record, when not nil, is told the path first (the
// write record of filesystem_cleanup.go).
func writeTemp(sync Syncer, record func(string) error, dir string, data []byte) (string, error) {
	tmp := filepath.Join(dir, "."+newUUID()+".tmp")
	if record != nil {
		if err := record(tmp); err != nil {
			return "", err
		}
	}
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return "", fmt.Errorf("create %s: %w", tmp, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = sync.SyncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("write %s: %w", tmp, err)
	}
	return tmp, nil
}

// createExclusive writes data to dir/name atomically, never overwriting: a
// synced temporary file is hard-linked to the final name, which fails when
// the name exists (the error then wraps fs.ErrExist). With syncDir, dir is
// synced once the link is made; without, the caller syncs it.
func createExclusive(sync Syncer, record func(string) error, dir, name string, data []byte, syncDir bool) error {
	tmp, err := writeTemp(sync, record, dir, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	final := filepath.Join(dir, name)
	if err := os.Link(tmp, final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create %s: %w", final, fs.ErrExist)
		}
		return fmt.Errorf("create %s: %w", final, err)
	}
	if syncDir {
		if err := sync.SyncDir(dir); err != nil {
			return fmt.Errorf("create %s: %w", final, err)
		}
	}
	return nil
}

// replaceFile writes data to dir/name atomically, replacing any old file
// (synced temporary file, rename, and with syncDir a sync of dir).
func replaceFile(sync Syncer, record func(string) error, dir, name string, data []byte, syncDir bool) error {
	tmp, err := writeTemp(sync, record, dir, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", name, err)
	}
	if syncDir {
		if err := sync.SyncDir(dir); err != nil {
			return fmt.Errorf("replace %s: %w", name, err)
		}
	}
	return nil
}

// mkdirAllSynced creates dir and its missing parents, and syncs the parent
// of each directory it created, so the new directories survive a crash.
func mkdirAllSynced(sync Syncer, dir string) error {
	var missing []string // deepest first
	for d := dir; ; {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			break // MkdirAll reports it
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range missing {
		if err := sync.SyncDir(filepath.Dir(d)); err != nil {
			return err
		}
	}
	return nil
}

// syncedFile is a file being written that is synced, with its directory,
// when it is closed: the file a commit will reference is durable before
// the commit's metadata is written.
type syncedFile struct {
	*os.File
	sync        Syncer
	name, table string // for messages: the path relative to the table's directory
	// dirSyncedLater: the file is in the table's metadata directory, which
	// the commit syncs before it links the metadata file.
	dirSyncedLater bool
}

// Write implements io.Writer.
func (f *syncedFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	if err != nil {
		err = writeError(err, "could not write to file \"%s\" of table \"%s\": %s", f.name, f.table, syscallText(err))
	}
	return n, err
}

// Close implements io.Closer.
func (f *syncedFile) Close() error {
	err := f.sync.SyncFile(f.File)
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil && !f.dirSyncedLater {
		err = f.sync.SyncDir(filepath.Dir(f.Name()))
	}
	if err != nil {
		return writeError(err, "could not fsync file \"%s\" of table \"%s\": %s", f.name, f.table, syscallText(err))
	}
	return nil
}

// writeError is a failed write's error: 53100 (disk_full) when the device
// is full, 58030 (io_error) otherwise.
func writeError(err error, format string, args ...any) error {
	code := pgerr.IOError
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		code = pgerr.DiskFull
	}
	return pgerr.Wrap(err, code, format, args...)
}
