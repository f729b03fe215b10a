package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// RegisterTable implements MutableCatalog: a table directory whose
// v1.metadata.json is the metadata file at metadataFile (a local path, or
// a file: URI, inside the warehouse), with the table's location set to the
// new directory: the files the metadata lists keep their written paths and
// resolve, through the table's FileIO, to where they lie in the
// warehouse; files written later go into the new directory. The current
// snapshot's manifest list must resolve, or nothing is created.
func (c *Filesystem) RegisterTable(ctx context.Context, id Identifier, metadataFile string) (_ *Table, err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	dir, err := c.tableDir(id)
	if err != nil {
		return nil, fmt.Errorf("register table %s: invalid name: %w", name, ErrDataInvalid)
	}
	nsDir := filepath.Dir(dir)
	if st, err := os.Stat(nsDir); err != nil || !st.IsDir() || isTableDir(nsDir) || len(id.Namespace) == 0 {
		return nil, fmt.Errorf("register table %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("register table %s: %w", name, ErrAlreadyExists)
	}
	local := stripScheme(metadataFile)
	if !filepath.IsAbs(local) || hasDotDot(local) {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "metadata file \"%s\" is not an absolute path", metadataFile)
	}
	if !within(realPath(filepath.Clean(local)), realPath(c.root)) {
		return nil, pgerr.Wrap(fmt.Errorf("register table %s: %s: %w", name, metadataFile, ErrOutsideWarehouse),
			pgerr.InsufficientPrivilege, "metadata file \"%s\" is outside the warehouse", metadataFile).
			WithHint("Copy the table's directory into the warehouse first.")
	}
	if st, err := os.Stat(local); err != nil || st.IsDir() {
		return nil, pgerr.New(pgerr.UndefinedFile, "metadata file \"%s\" does not exist", metadataFile)
	}
	meta, err := c.readMetadata(local)
	if err != nil {
		return nil, c.metadataError(fmt.Errorf("register table %s: %w", name, err))
	}
	if snap := meta.CurrentSnapshot(); snap != nil && snap.ManifestList != "" {
		p, err := c.tableIO(dir).Resolve(snap.ManifestList)
		if err == nil {
			_, err = os.Stat(p)
		}
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.UndefinedFile, "manifest list \"%s\" of metadata file \"%s\" is not in the warehouse", snap.ManifestList, metadataFile).
				WithHint("The table's files must be copied into the warehouse with its metadata.")
		}
	}
	moved := *meta
	moved.Location = dir
	data, err := MarshalMetadata(&moved)
	if err != nil {
		return nil, fmt.Errorf("register table %s: %w", name, err)
	}
	if err := c.makeTableDir(dir, data); err != nil {
		return nil, fmt.Errorf("register table %s: %w", name, err)
	}
	return c.LoadTable(ctx, id)
}

// TableDir returns the directory table id has, or would have, in the
// warehouse (for migrate, which turns a directory of plain Parquet files
// into the table of that name).
func (c *Filesystem) TableDir(id Identifier) (string, error) { return c.tableDir(id) }
