package catalog

import "errors"

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
)
