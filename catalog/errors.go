package catalog

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// Error kinds of the catalog. Wrap them with context
// (fmt.Errorf("load table %s: %w", name, ErrNotFound)); wire maps each kind to
// a SQLSTATE via errors.Is.
var (
	ErrNotFound       = errors.New("not found")
	ErrAlreadyExists  = errors.New("already exists")
	ErrCommitConflict = errors.New("commit conflict")
	ErrDataInvalid    = errors.New("invalid data")
	ErrUnsupported    = errors.New("unsupported")
	// ErrNotEmpty: a namespace still holds tables or namespaces.
	ErrNotEmpty = errors.New("not empty")
	// ErrFileLive: a change adds a file the table already lists (or adds
	// one twice); committing it would list the file twice.
	ErrFileLive = errors.New("file already live")
	// ErrCommitStateUnknown: a commit was sent but its outcome is not
	// known (the catalog failed or the connection broke before it
	// answered). The change may or may not be in place; retrying it
	// blindly could apply it twice. Errors carrying it have SQLSTATE 40003
	// (statement_completion_unknown).
	ErrCommitStateUnknown = errors.New("commit state unknown")
)

// ErrOutsideWarehouse: a path leaves the warehouse (a ".." in a path written
// in metadata, a symbolic link that points elsewhere, a location outside
// it). The errors that carry it have SQLSTATE 42501.
var ErrOutsideWarehouse = errors.New("outside the warehouse")

// FileError is the error for reading a table's file that failed: errors
// that already carry a SQLSTATE (a missing file is 58P01, a path outside the
// warehouse 42501, an I/O error 58030) and cancellations pass through; any
// other failure means the file's contents are not what its format or its
// metadata say: XX001 (data_corrupted). The message names the file by its
// path relative to the table's directory (never the server's absolute
// path) and the table.
func FileError(fio FileIO, written string, err error) error {
	if err == nil || pgerr.As(err) != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, ErrUnsupported) {
		return err
	}
	name, table, local := describeFile(fio, written)
	if errors.Is(err, ErrNotFound) {
		return pgerr.Wrap(err, pgerr.UndefinedFile, "could not open file \"%s\" of table \"%s\": No such file or directory", name, table)
	}
	return pgerr.Wrap(err, pgerr.DataCorrupted, "invalid data in file \"%s\" of table \"%s\": %s", name, table,
		hidePaths(err.Error(), name, written, local))
}

// hidePaths replaces the spellings of a file's path in an error text by the
// name shown to clients.
func hidePaths(msg, name string, paths ...string) string {
	for _, p := range paths {
		if p != "" && p != name {
			msg = strings.ReplaceAll(msg, p, name)
		}
	}
	return msg
}

// describer is the part of a FileIO that names files for error messages.
type describer interface {
	// describe returns the path shown to clients for a written path
	// (relative to the table directory, else to the warehouse), the table's
	// name and the resolved local path ("" when it does not resolve).
	describe(written string) (name, table, local string)
}

func describeFile(fio FileIO, written string) (name, table, local string) {
	if c, ok := fio.(*cachingIO); ok {
		fio = c.FileIO
	}
	if d, ok := fio.(describer); ok {
		return d.describe(written)
	}
	return written, "?", ""
}

// metadataFileError is FileError for a file of a table's metadata
// directory, named by its local path.
func metadataFileError(root, local string, err error) error {
	if err == nil || pgerr.As(err) != nil || errors.Is(err, ErrUnsupported) {
		return err
	}
	tableDir := filepath.Dir(filepath.Dir(local))
	name := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(local)), filepath.Base(local)))
	table := tableName(root, tableDir)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, ErrNotFound):
		return pgerr.Wrap(err, pgerr.UndefinedFile, "could not open file \"%s\" of table \"%s\": No such file or directory", name, table)
	case errors.Is(err, fs.ErrPermission):
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege, "could not open file \"%s\" of table \"%s\": Permission denied", name, table)
	case errors.Is(err, errNotRegular):
		return pgerr.Wrap(err, pgerr.IOError, "could not read file \"%s\" of table \"%s\": it is not a regular file", name, table).
			WithHint("Move it aside: a metadata file of the table must be a file.")
	}
	reason := err
	var me *metadataPathError
	if errors.As(err, &me) {
		reason = me.err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pgerr.Wrap(err, pgerr.IOError, "could not read file \"%s\" of table \"%s\": %s", name, table, pe.Err.Error())
	}
	return pgerr.Wrap(err, pgerr.DataCorrupted, "invalid data in file \"%s\" of table \"%s\": %s", name, table, hidePaths(reason.Error(), name, local))
}

// errNotRegular: a directory (or another non-file) where a metadata file
// should be.
var errNotRegular = errors.New("not a regular file")

// relPathError shows an error's text with the warehouse's absolute path
// cut off the paths it names (they are then relative to the warehouse);
// the error itself stays reachable with errors.Is and errors.As.
type relPathError struct {
	err  error
	root string
}

func (e *relPathError) Error() string { return strings.ReplaceAll(e.err.Error(), e.root+"/", "") }
func (e *relPathError) Unwrap() error { return e.err }

// relative wraps err so that its text names no absolute path of the
// warehouse: the catalog's errors reach clients.
func (c *Filesystem) relative(err error) error {
	if err == nil || !strings.Contains(err.Error(), c.root+"/") {
		return err
	}
	return &relPathError{err: err, root: c.root}
}
