package catalog

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// Orphan files (Iceberg's DeleteOrphanFiles, Spark's
// system.remove_orphan_files).
//
// An orphan is a file under the table's directory that the table's current
// metadata does not reach: not a snapshot's manifest list, manifest, data
// or delete file (its live entries), not a statistics file, not
// the current metadata file or one in its metadata log, not the version
// hint. Expired snapshots' files that an interrupted expiration left, and
// files of writers that died before committing, are orphans.
//
// A file another writer is about to commit looks the same, so two things
// protect it. Its age: only files last modified before OlderThan go. And
// the write records (filesystem_cleanup.go): every file an icegate process
// writes is listed in its record before the file is created, and a record
// whose lock is held belongs to a live process, so no file such a record
// lists is removed, whatever its age (nor any listed in a record of
// another host, whose liveness cannot be told here). The directory is
// listed first, then the records read, then the metadata: a file seen in
// the listing that a commit after the metadata was read references was
// recorded before the listing saw it.

// OrphanOptions are the arguments of RemoveOrphanFiles.
type OrphanOptions struct {
	// OlderThan: only files last modified before it are removed.
	OlderThan time.Time
	// Location is the directory to look in, a path under the table's
	// location (as written in metadata, or the table directory's local
	// path); "" is the whole table.
	Location string
	// DryRun lists the orphans without removing them.
	DryRun bool
	// MaxConcurrentDeletes bounds the files deleted at once; 0: 4.
	MaxConcurrentDeletes int
}

// RemoveOrphanFiles removes the orphan files of table id that o selects
// and returns their locations (the table's location followed by the path
// under it), sorted.
func RemoveOrphanFiles(ctx context.Context, cat MutableCatalog, id Identifier, o OrphanOptions) ([]string, error) {
	c, ok := filesystemOf(cat)
	if !ok {
		tbl, err := cat.LoadTable(ctx, id)
		if err != nil {
			return nil, err
		}
		if oio, ok := objectIOOf(tbl.IO); ok {
			return removeObjectOrphans(ctx, tbl, oio, o)
		}
		return nil, pgerr.Unsupported("remove_orphan_files in a catalog whose warehouse is a local directory, other than the filesystem catalog")
	}
	name := qualified(id.Namespace, id.Name)
	tbl, err := c.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := checkGCEnabled(tbl.Metadata, "remove orphan files of", name); err != nil {
		return nil, err
	}
	dir, err := c.tableDir(id)
	if err != nil {
		return nil, err
	}
	location := strings.TrimSuffix(tbl.Metadata.Location, "/")
	root, err := orphanRoot(dir, location, o.Location, name)
	if err != nil {
		return nil, err
	}
	if o.OlderThan.IsZero() {
		o.OlderThan = time.Now().Add(-3 * 24 * time.Hour)
	}

	// 1. The files, old enough.
	var listed []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed meanwhile
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil // directories are walked; links and others are never orphans
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if info.ModTime().Before(o.OlderThan) {
			listed = append(listed, p)
		}
		return nil
	})
	if err != nil {
		return nil, c.relative(fmt.Errorf("remove orphan files of %s: list %s: %w", name, o.Location, err))
	}
	if len(listed) == 0 {
		return nil, nil
	}
	// 2. What live writers are writing.
	metaDir := filepath.Join(dir, "metadata")
	writing, err := filesBeingWritten(metaDir, dir)
	if err != nil {
		return nil, c.relative(fmt.Errorf("remove orphan files of %s: read write records (nothing removed): %w", name, err))
	}
	// 3. What the metadata reaches, read last.
	reached, version, err := c.reachedFiles(ctx, dir)
	if err != nil {
		return nil, c.relative(fmt.Errorf("remove orphan files of %s: list the files the table references (nothing removed): %w", name, err))
	}
	var orphans []string
	for _, p := range listed {
		base := filepath.Base(p)
		switch {
		case reached[p] || writing[p]:
			continue
		case filepath.Dir(p) == metaDir && (base == versionHintFile || strings.HasPrefix(base, writeRecordPrefix)):
			continue
		case filepath.Dir(p) == metaDir && metadataVersion(base) >= version:
			continue // committed after the metadata was read
		}
		orphans = append(orphans, p)
	}
	slices.Sort(orphans)
	if !o.DryRun {
		if err := removeFiles(ctx, orphans, o.MaxConcurrentDeletes); err != nil {
			return nil, c.relative(fmt.Errorf("remove orphan files of %s: %w", name, err))
		}
	}
	out := make([]string, len(orphans))
	for i, p := range orphans {
		rel, _ := filepath.Rel(dir, p)
		out[i] = location + "/" + filepath.ToSlash(rel)
	}
	return out, nil
}

// orphanRoot is the local directory a location argument names: the table
// directory for "", else a directory under the table's location (written
// form) or under the table directory (local form). Anything else is 22023.
func orphanRoot(dir, location, arg, name string) (string, error) {
	if arg == "" {
		return dir, nil
	}
	bad := func(why string) error {
		return pgerr.New(pgerr.InvalidParameterValue, "location \"%s\" is not under the location of table \"%s\": %s", arg, name, why).
			WithHint("Give a directory inside the table's location, such as its data directory, or leave location out.")
	}
	if hasDotDot(arg) {
		return "", bad(`it has a ".." component`)
	}
	a := strings.TrimSuffix(arg, "/")
	var rel string
	switch {
	case a == location || a == stripScheme(location):
		return dir, nil
	case strings.HasPrefix(a, location+"/"):
		rel = a[len(location)+1:]
	case strings.HasPrefix(a, stripScheme(location)+"/"):
		rel = a[len(stripScheme(location))+1:]
	case filepath.Clean(stripScheme(a)) == dir:
		return dir, nil
	case strings.HasPrefix(filepath.Clean(stripScheme(a)), dir+string(filepath.Separator)):
		rel = filepath.Clean(stripScheme(a))[len(dir)+1:]
	default:
		return "", bad("it is outside it")
	}
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}

// filesBeingWritten returns the files (local paths) listed in the write
// records in metaDir of live processes of this host and of any process of
// another host.
func filesBeingWritten(metaDir, tableDir string) (map[string]bool, error) {
	entries, err := os.ReadDir(metaDir)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), writeRecordPrefix) || !e.Type().IsRegular() {
			continue
		}
		files, err := liveRecordFiles(filepath.Join(metaDir, e.Name()))
		if err != nil {
			return nil, err
		}
		for _, rel := range files {
			if !hasDotDot(rel) {
				out[filepath.Join(tableDir, filepath.FromSlash(rel))] = true
			}
		}
	}
	return out, nil
}

// liveRecordFiles returns the files a write record lists unless its writer
// is known to be dead: a record of this host whose lock is free.
func liveRecordFiles(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil // swept meanwhile
		}
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read write record %s: %w", filepath.Base(path), err)
	}
	if len(lines) == 0 {
		// Its writer has not locked it yet (it writes the header after
		// taking the lock): it lists nothing, and taking its lock here
		// would fail the writer.
		return nil, nil
	}
	if lines[0] == recordHeader() {
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			return nil, nil // its process is gone
		}
	}
	return lines[1:], nil
}

// reachedFiles returns the local paths of every file the newest metadata of
// the table in tableDir reaches, and that metadata file's version.
func (c *Filesystem) reachedFiles(ctx context.Context, tableDir string) (map[string]bool, int64, error) {
	metaDir := filepath.Join(tableDir, "metadata")
	path, version, err := latestMetadata(metaDir)
	if err != nil {
		return nil, 0, err
	}
	meta, err := c.readMetadata(path)
	if err != nil {
		return nil, 0, err
	}
	out, err := reachedBy(ctx, c.tableIO(tableDir), meta)
	if err != nil {
		return nil, 0, err
	}
	out[path] = true
	return out, version, nil
}

// reachedBy returns the resolved paths (fio.Resolve) of every file meta
// reaches but the metadata file itself: the metadata log, statistics,
// and every snapshot's manifest list, manifests and live files.
func reachedBy(ctx context.Context, fio FileIO, meta *TableMetadata) (map[string]bool, error) {
	out := map[string]bool{}
	add := func(written string) {
		if written == "" {
			return
		}
		if local, err := fio.Resolve(written); err == nil {
			out[local] = true
		}
	}
	for _, e := range meta.MetadataLog {
		add(e.MetadataFile)
	}
	for _, s := range meta.Statistics {
		add(s.StatisticsPath)
	}
	for _, s := range meta.PartitionStatistics {
		add(s.StatisticsPath)
	}
	seenManifest := map[string]bool{}
	for _, snap := range meta.Snapshots {
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
			if seenManifest[list[i].Path] {
				continue
			}
			seenManifest[list[i].Path] = true
			m, err := ReadManifest(ctx, fio, &list[i])
			if err != nil {
				return nil, err
			}
			for _, entry := range m.Entries {
				// A deleted entry is a file the snapshot removed: the
				// snapshots that hold it list it as live.
				if entry.Status != StatusDeleted {
					add(entry.File.Path)
				}
			}
		}
	}
	return out, nil
}

// removeFiles removes local files, workers at a time (0: 4); a missing
// file is not an error.
func removeFiles(ctx context.Context, files []string, workers int) error {
	if workers <= 0 {
		workers = 4
	}
	jobs := make(chan string)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range min(workers, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for _, p := range files {
		select {
		case jobs <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// Wrapper is a MutableCatalog that adds to another one (a session's
// bookkeeping of its commits): what needs the catalog underneath (listing
// a table's directory) finds it through Unwrap.
type Wrapper interface {
	Unwrap() MutableCatalog
}

// filesystemOf finds the filesystem catalog cat is or wraps.
func filesystemOf(cat MutableCatalog) (*Filesystem, bool) {
	for range 10 {
		switch c := cat.(type) {
		case *Filesystem:
			return c, true
		case Wrapper:
			cat = c.Unwrap()
		default:
			return nil, false
		}
	}
	return nil, false
}
