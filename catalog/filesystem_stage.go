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
	"syscall"
)

// TableStager is a MutableCatalog that can create a table in two steps: a
// transaction block's CREATE TABLE stages it (no other reader sees it; the
// block writes its files), and COMMIT publishes it with the metadata the
// block's later statements built, in one atomic step, or ROLLBACK discards
// it.
type TableStager interface {
	// StageTable reserves the table's name and returns the table that
	// CreateTable would create, without making it visible: LoadTable and
	// the listings do not show it, and CreateTable of the name fails with
	// ErrAlreadyExists until it is published or discarded.
	StageTable(ctx context.Context, id Identifier, spec TableSpec) (*Table, error)
	// PublishTable makes the staged table id visible with meta as its
	// first metadata.
	PublishTable(ctx context.Context, id Identifier, meta *TableMetadata) (*Table, error)
	// DiscardTable removes the staged table id and every file written in
	// it; nothing when id is not a staged table.
	DiscardTable(ctx context.Context, id Identifier) error
}

var _ TableStager = (*Filesystem)(nil)

// stagedMarker marks the directory of a staged table: with it, the
// directory is neither a table (no metadata file) nor a namespace. The
// process that staged the table holds an exclusive flock(2) on it until it
// publishes or discards the table, as on its write records
// (filesystem_cleanup.go): a marker whose lock can be taken, written on
// this host, is a dead process's, and its directory is removed when the
// name is created again.
const stagedMarker = ".icegate-staged-table"

// isStagedDir reports whether dir is a staged table's directory.
func isStagedDir(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, stagedMarker))
	return err == nil
}

// StageTable implements TableStager: the table directory with data/,
// metadata/ and the marker, and no metadata file.
func (c *Filesystem) StageTable(ctx context.Context, id Identifier, spec TableSpec) (_ *Table, err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	dir, meta, err := c.newTable(id, spec)
	if err != nil {
		return nil, err
	}
	c.reclaimStaged(dir)
	adopted := false
	if err := os.Mkdir(dir, 0o755); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create table %s: %w", name, err)
		}
		if !holdsOnlyTableFiles(dir) {
			return nil, fmt.Errorf("create table %s: %w", name, ErrAlreadyExists)
		}
		adopted = true
	}
	c.forget(dir)
	err = c.holdMarker(dir, adopted)
	if adopted && errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create table %s: being created: %w", name, ErrAlreadyExists)
	}
	for _, sub := range []string{"data", "metadata"} {
		if err == nil {
			if err = os.Mkdir(filepath.Join(dir, sub), 0o755); adopted && errors.Is(err, fs.ErrExist) {
				err = nil
			}
		}
	}
	if err != nil {
		if adopted {
			c.dropMarker(dir)
		} else {
			os.RemoveAll(dir)
		}
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	return &Table{
		Ident:    Identifier{Namespace: append([]string(nil), id.Namespace...), Name: id.Name},
		Metadata: meta,
		IO:       c.tableIO(dir),
	}, nil
}

// PublishTable implements TableStager: v1.metadata.json holds meta, then
// the marker goes.
func (c *Filesystem) PublishTable(ctx context.Context, id Identifier, meta *TableMetadata) (_ *Table, err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	dir, err := c.tableDir(id)
	if err != nil {
		return nil, fmt.Errorf("publish table %s: invalid name: %w", name, ErrDataInvalid)
	}
	if !isStagedDir(dir) || isTableDir(dir) {
		return nil, fmt.Errorf("publish table %s: not a staged table: %w", name, ErrNotFound)
	}
	data, err := MarshalMetadata(meta)
	if err != nil {
		return nil, fmt.Errorf("publish table %s: %w", name, err)
	}
	metaDir := filepath.Join(dir, "metadata")
	// The data files and manifests the block wrote are synced before the
	// metadata file that references them is linked.
	err = c.sync.SyncDir(metaDir)
	if err == nil {
		err = c.sync.SyncDir(dir)
	}
	if err == nil {
		err = createExclusive(c.sync, nil, metaDir, "v1.metadata.json", data, true)
	}
	if err != nil {
		return nil, fmt.Errorf("publish table %s: %w", name, err)
	}
	// The table is visible from here on.
	if err := replaceFile(c.sync, nil, metaDir, versionHintFile, []byte("1"), true); err != nil {
		return nil, fmt.Errorf("publish table %s: version hint: %w", name, err)
	}
	if err := os.Remove(filepath.Join(dir, stagedMarker)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("publish table %s: %w", name, err)
	}
	c.releaseMarker(dir)
	if err := c.sync.SyncDir(dir); err != nil {
		return nil, fmt.Errorf("publish table %s: %w", name, err)
	}
	c.forget(dir)
	return c.LoadTable(ctx, id)
}

// DiscardTable implements TableStager.
func (c *Filesystem) DiscardTable(ctx context.Context, id Identifier) error {
	dir, err := c.tableDir(id)
	if err != nil {
		return nil
	}
	if !isStagedDir(dir) || isTableDir(dir) {
		return nil
	}
	c.forget(dir)
	c.mu.Lock()
	adopted := c.adopted[dir]
	c.mu.Unlock()
	if adopted {
		// The files there are a REST client's: it removes its own.
		c.dropMarker(dir)
		return nil
	}
	c.releaseMarker(dir)
	if err := os.RemoveAll(dir); err != nil {
		return c.relative(fmt.Errorf("discard staged table %s: %w", qualified(id.Namespace, id.Name), err))
	}
	return nil
}

// adoptedLine marks, in a staged marker, a table staged in a directory
// that existed before: the files there are not the stager's.
const adoptedLine = "adopted"

// holdsOnlyTableFiles reports whether the existing directory dir holds
// nothing but the data and metadata files of a table that has no metadata
// file yet: what a REST client writes at a staged table's location before
// the commit that creates the table. Such a directory is neither a table
// nor a namespace, and a staged create may take it.
func holdsOnlyTableFiles(dir string) bool {
	if isTableDir(dir) || isStagedDir(dir) {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() || (e.Name() != "data" && e.Name() != "metadata") {
			return false
		}
	}
	return true
}

// dropMarker removes the marker of an adopted staged table, leaving the
// files that were there.
func (c *Filesystem) dropMarker(dir string) {
	c.releaseMarker(dir)
	if err := os.Remove(filepath.Join(dir, stagedMarker)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		slog.Warn("remove the marker of a staged table", "dir", dir, "err", err)
	}
}

// holdMarker creates the staged marker of dir and keeps it open and
// locked; adopted records that the directory existed before.
func (c *Filesystem) holdMarker(dir string, adopted bool) error {
	f, err := os.OpenFile(filepath.Join(dir, stagedMarker), os.O_CREATE|os.O_EXCL|os.O_WRONLY|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		text := recordHeader() + "\n"
		if adopted {
			text += adoptedLine + "\n"
		}
		_, err = f.WriteString(text)
	}
	if err != nil {
		f.Close()
		os.Remove(filepath.Join(dir, stagedMarker))
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stagedMarkers == nil {
		c.stagedMarkers = map[string]*os.File{}
		c.adopted = map[string]bool{}
	}
	c.stagedMarkers[dir] = f
	if adopted {
		c.adopted[dir] = true
	}
	return nil
}

// releaseMarker closes the marker of dir this process holds.
func (c *Filesystem) releaseMarker(dir string) {
	c.mu.Lock()
	f := c.stagedMarkers[dir]
	delete(c.stagedMarkers, dir)
	delete(c.adopted, dir)
	c.mu.Unlock()
	if f != nil {
		f.Close()
	}
}

// reclaimStaged removes dir when it is a staged table that a dead process
// of this host left (its marker's lock is free).
func (c *Filesystem) reclaimStaged(dir string) {
	if !isStagedDir(dir) || isTableDir(dir) {
		return
	}
	c.mu.Lock()
	_, mine := c.stagedMarkers[dir]
	c.mu.Unlock()
	if mine {
		return
	}
	f, err := os.Open(filepath.Join(dir, stagedMarker))
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // a live process's
	}
	sc := bufio.NewScanner(f)
	if sc.Scan() && sc.Text() != recordHeader() {
		return // another host's: its lock is not seen here
	}
	if sc.Scan() && sc.Text() == adoptedLine {
		// The files are a REST client's, which may still commit them.
		if err := os.Remove(filepath.Join(dir, stagedMarker)); err != nil {
			slog.Warn("remove the marker of a staged table left by a dead process", "dir", dir, "err", err)
		}
		return
	}
	slog.Info("remove a table a dead process staged and never committed", "dir", dir)
	if err := os.RemoveAll(dir); err != nil {
		slog.Warn("remove a staged table left by a dead process", "dir", dir, "err", err)
	}
}
