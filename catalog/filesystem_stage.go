package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
// directory is neither a table (no metadata file) nor a namespace.
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
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create table %s: %w", name, ErrAlreadyExists)
		}
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	c.forget(dir)
	err = os.WriteFile(filepath.Join(dir, stagedMarker), nil, 0o644)
	if err == nil {
		err = os.Mkdir(filepath.Join(dir, "data"), 0o755)
	}
	if err == nil {
		err = os.Mkdir(filepath.Join(dir, "metadata"), 0o755)
	}
	if err != nil {
		os.RemoveAll(dir)
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
	if err := os.RemoveAll(dir); err != nil {
		return c.relative(fmt.Errorf("discard staged table %s: %w", qualified(id.Namespace, id.Name), err))
	}
	return nil
}
