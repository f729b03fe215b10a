package catalog

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Crash leftovers.
//
// A statement writes data, delete and manifest files before the commit
// that references them; a failed commit removes them, but a process that
// dies (crash, kill, power loss) between writing and committing leaves
// them behind, referenced by nothing, forever. Removing every file that no
// metadata references (Iceberg's remove_orphan_files) is not safe here: a
// writer of another process (another gateway, a transaction block still
// open, another engine's job) has files on disk that its coming commit
// will reference, and nothing tells them apart from orphans but a guess at
// their age.
//
// So each process records what it writes. The first file a process writes
// into a table creates metadata/.icegate-writes-<uuid> there, which the
// process holds open under an exclusive flock(2) for as long as it runs;
// each file's path (relative to the table's directory) is appended before
// the file is created: data, delete and Puffin files, manifests, manifest
// lists, and the temporary files metadata files and version hints are
// written to before they are linked or renamed into place. The lock is the liveness signal: the kernel drops it
// when the process dies, however it dies. When a process first loads a
// table, it looks at the table's write records: one whose lock it can take
// belongs to a dead process, and its listed files that no metadata file of
// the table (any version on disk: every snapshot, statistics file) still
// references were never committed and are removed, then the record. A
// record whose lock is held is another live writer's and is left alone,
// whatever its age. Files not listed in a record (written by other engines,
// or expired snapshots' files) are never touched here, but for temporary
// metadata files (.<uuid>.tmp, written and linked within a commit) more
// than an hour old.
//
// A record starts with a line naming the host that wrote it; a process
// only takes records of its own host, where the lock is the local kernel's
// (on a filesystem shared by several machines, a lock taken on one may not
// be seen on another). A machine that crashed has its records handled when
// icegate runs on it again. A record is not fsynced: a power loss may lose
// the record of files it also lost, or leave a few orphans, as before.

const (
	writeRecordPrefix = ".icegate-writes-"
	// writeRecordLines bounds one record; a process then starts another.
	writeRecordLines = 10000
	// staleTempAge is how old a temporary metadata file must be to be
	// removed as a crash leftover.
	staleTempAge = time.Hour
)

// writeRecords are the write records this process holds, by table
// directory.
type writeRecords struct {
	mu      sync.Mutex
	byTable map[string]*writeRecord
	held    []*os.File // full records, kept open and locked
	swept   map[string]bool
}

type writeRecord struct {
	f     *os.File
	lines int
}

// recordWrite appends the file local (under tableDir) to this process's
// write record of the table, creating the record first.
func (c *Filesystem) recordWrite(tableDir, local string) error {
	rel, err := filepath.Rel(tableDir, local)
	if err != nil || strings.HasPrefix(rel, "..") || strings.ContainsRune(rel, '\n') {
		return fmt.Errorf("record write of %s: not under the table directory: %w", local, ErrOutsideWarehouse)
	}
	w := &c.writes
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.byTable[tableDir]
	if r != nil && r.lines >= writeRecordLines {
		w.held = append(w.held, r.f)
		r = nil
	}
	if r == nil {
		f, err := newWriteRecord(filepath.Join(tableDir, "metadata"))
		if err != nil {
			return err
		}
		r = &writeRecord{f: f}
		if w.byTable == nil {
			w.byTable = map[string]*writeRecord{}
		}
		w.byTable[tableDir] = r
	}
	if _, err := r.f.WriteString(filepath.ToSlash(rel) + "\n"); err != nil {
		return fmt.Errorf("record write of %s: %w", rel, err)
	}
	r.lines++
	return nil
}

// recorder returns recordWrite for the table in tableDir.
func (c *Filesystem) recorder(tableDir string) func(string) error {
	return func(local string) error { return c.recordWrite(tableDir, local) }
}

// newWriteRecord creates and locks a write record in metaDir.
func newWriteRecord(metaDir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(metaDir, writeRecordPrefix+newUUID()), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create write record: %w", err)
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		_, err = f.WriteString(recordHeader() + "\n")
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("start write record: %w", err)
	}
	return f, nil
}

// recordHeader is the first line of a write record: the host that wrote it.
func recordHeader() string {
	host, _ := os.Hostname()
	return "# icegate write record; host " + host
}

// releaseWrites stops recording writes of the table in dir (dropped or
// renamed) under that name. The record stays open and locked: another
// session of this process may still commit what it staged, and the record
// (moved with a renamed table) must not look dead until the process is.
func (c *Filesystem) releaseWrites(dir string) {
	w := &c.writes
	w.mu.Lock()
	defer w.mu.Unlock()
	if r := w.byTable[dir]; r != nil {
		w.held = append(w.held, r.f)
		delete(w.byTable, dir)
	}
	delete(w.swept, dir)
}

// sweepOnce removes the crash leftovers of the table in tableDir the first
// time this process loads it. Failures are logged: a table whose leftovers
// cannot be removed still loads.
func (c *Filesystem) sweepOnce(ctx context.Context, tableDir string) {
	w := &c.writes
	w.mu.Lock()
	if w.swept[tableDir] {
		w.mu.Unlock()
		return
	}
	if w.swept == nil {
		w.swept = map[string]bool{}
	}
	w.swept[tableDir] = true
	w.mu.Unlock()
	removed, err := c.sweepLeftovers(ctx, tableDir)
	if err != nil {
		slog.Warn("remove files of interrupted commits", "table", tableName(c.root, tableDir), "err", err)
	}
	if removed > 0 {
		slog.Info("removed files of interrupted commits", "table", tableName(c.root, tableDir), "files", removed)
	}
}

// sweepLeftovers removes the files listed in the write records of dead
// processes that no metadata file of the table references, and old
// temporary metadata files. It returns how many files it removed.
func (c *Filesystem) sweepLeftovers(ctx context.Context, tableDir string) (int, error) {
	metaDir := filepath.Join(tableDir, "metadata")
	entries, err := os.ReadDir(metaDir)
	if err != nil {
		return 0, err
	}
	removed := 0
	type deadRecord struct {
		f     *os.File
		files []string
	}
	var dead []deadRecord
	defer func() {
		for _, d := range dead {
			d.f.Close()
		}
	}()
	for _, e := range entries {
		name := e.Name()
		if isStaleTemp(metaDir, e) {
			if os.Remove(filepath.Join(metaDir, name)) == nil {
				removed++
			}
			continue
		}
		if !strings.HasPrefix(name, writeRecordPrefix) || !e.Type().IsRegular() {
			continue
		}
		f, err := os.Open(filepath.Join(metaDir, name))
		if err != nil {
			continue
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close() // a live writer's record
			continue
		}
		var files []string
		sc := bufio.NewScanner(f)
		if !sc.Scan() {
			if sc.Err() == nil { // empty: its writer died before the header
				os.Remove(f.Name())
			}
			f.Close()
			continue
		}
		if sc.Text() != recordHeader() {
			f.Close() // another machine's record: its lock says nothing here
			continue
		}
		for sc.Scan() {
			if rel := sc.Text(); rel != "" {
				files = append(files, rel)
			}
		}
		if err := sc.Err(); err != nil {
			f.Close()
			return removed, fmt.Errorf("read write record %s: %w", name, err)
		}
		dead = append(dead, deadRecord{f: f, files: files})
	}
	if len(dead) == 0 {
		return removed, nil
	}
	referenced, err := c.referencedFiles(ctx, tableDir)
	if err != nil {
		return removed, fmt.Errorf("list the files the table references (nothing removed): %w", err)
	}
	for _, d := range dead {
		for _, rel := range d.files {
			local := filepath.Join(tableDir, filepath.FromSlash(rel))
			if hasDotDot(rel) || !within(local, tableDir) || referenced[local] || isMetadataFile(local) {
				continue
			}
			if err := os.Remove(local); err == nil {
				removed++
			} else if !errors.Is(err, fs.ErrNotExist) {
				return removed, fmt.Errorf("remove %s: %w", rel, err)
			}
		}
		if err := os.Remove(d.f.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
	}
	return removed, nil
}

// isStaleTemp reports whether e is a temporary metadata file (writeTemp)
// older than staleTempAge.
func isStaleTemp(metaDir string, e os.DirEntry) bool {
	n := e.Name()
	if !strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".tmp") || len(n) != len(".")+36+len(".tmp") || !e.Type().IsRegular() {
		return false
	}
	info, err := e.Info()
	return err == nil && time.Since(info.ModTime()) > staleTempAge
}

// isMetadataFile reports whether local names a table metadata file or the
// version hint, which a sweep never removes.
func isMetadataFile(local string) bool {
	n := filepath.Base(local)
	return metadataVersion(n) >= 0 || n == versionHintFile
}

// referencedFiles returns the local paths of every file some metadata file
// of the table on disk references: manifest lists, manifests, data and
// delete files of every snapshot, statistics files. Any file that cannot
// be read is an error: a sweep must not guess.
func (c *Filesystem) referencedFiles(ctx context.Context, tableDir string) (map[string]bool, error) {
	metaDir := filepath.Join(tableDir, "metadata")
	entries, err := os.ReadDir(metaDir)
	if err != nil {
		return nil, err
	}
	fio := c.tableIO(tableDir)
	out := map[string]bool{}
	add := func(written string) {
		if written == "" {
			return
		}
		if local, err := fio.Resolve(written); err == nil {
			out[local] = true
		}
	}
	seenSnap := map[int64]bool{}
	for _, e := range entries {
		if metadataVersion(e.Name()) < 0 {
			continue
		}
		meta, err := c.readMetadata(filepath.Join(metaDir, e.Name()))
		if err != nil {
			return nil, err
		}
		for _, s := range meta.Statistics {
			add(s.StatisticsPath)
		}
		for _, s := range meta.PartitionStatistics {
			add(s.StatisticsPath)
		}
		for _, snap := range meta.Snapshots {
			if seenSnap[snap.SnapshotID] {
				continue
			}
			seenSnap[snap.SnapshotID] = true
			add(snap.ManifestList)
			for _, m := range snap.Manifests {
				add(m)
			}
			list, err := ReadManifestList(ctx, fio, snap)
			if err != nil {
				return nil, err
			}
			for i := range list {
				add(list[i].Path)
				m, err := ReadManifest(ctx, fio, &list[i])
				if err != nil {
					return nil, err
				}
				for _, entry := range m.Entries {
					add(entry.File.Path)
				}
			}
		}
	}
	return out, nil
}

// Close ends this process's writing to the warehouse: it releases its
// write records and, as for a dead process's, removes the files they list
// that no metadata references (what statements that did not commit
// wrote), then the records themselves, so a clean stop leaves nothing to
// sweep. Call it once every session has ended; the catalog must not write
// after it.
func (c *Filesystem) Close(ctx context.Context) error {
	w := &c.writes
	w.mu.Lock()
	files := w.held
	for _, r := range w.byTable {
		files = append(files, r.f)
	}
	w.held, w.byTable, w.swept = nil, nil, nil
	w.mu.Unlock()
	tables := map[string]bool{}
	for _, f := range files {
		tables[filepath.Dir(filepath.Dir(f.Name()))] = true
		f.Close() // drops the lock: the sweep below takes the record
	}
	var errs []error
	for dir := range tables {
		if _, err := c.sweepLeftovers(ctx, dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("release the write records of %s: %w", tableName(c.root, dir), err))
		}
	}
	return errors.Join(errs...)
}
