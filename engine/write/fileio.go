package write

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/icegate/icegate/catalog"
)

// FileWriter creates and removes the data files a Writer produces. Paths
// are the ones recorded in the DataFiles (DataDir joined with the file's
// relative path). Closing a created file makes it durable (fsync of the
// file and of its directory): it is closed once written, before any
// commit references it.
type FileWriter interface {
	// Create opens a new file for writing; it fails if the file exists.
	Create(path string) (io.WriteCloser, error)
	// Remove deletes a file (used by Abort).
	Remove(path string) error
}

// LocalFiles writes data files on the local filesystem, creating
// directories as needed. Paths may carry a "file:" scheme.
type LocalFiles struct{}

var _ FileWriter = LocalFiles{}

// Create implements FileWriter.
func (LocalFiles) Create(path string) (io.WriteCloser, error) {
	local := localPath(path)
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		return nil, fmt.Errorf("create data directory for %s: %w", path, err)
	}
	f, err := os.OpenFile(local, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create data file: %w", err)
	}
	return durableFile{f}, nil
}

// durableFile is synced, with its directory, when it is closed: a commit
// that references it must not outlive it after a power loss.
type durableFile struct{ *os.File }

func (f durableFile) Close() error {
	err := f.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = catalog.OSSyncer{}.SyncDir(filepath.Dir(f.Name()))
	}
	if err != nil {
		return fmt.Errorf("write data file: %w", err)
	}
	return nil
}

// Remove implements FileWriter.
func (LocalFiles) Remove(path string) error {
	if err := os.Remove(localPath(path)); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove data file: %w", err)
	}
	return nil
}

// localPath strips a file: scheme ("file:/a", "file:///a").
func localPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(p, "file:"); ok {
		return rest
	}
	return p
}

// TableOutput adapts a catalog's OutputIO for a table to a FileWriter,
// creating and removing files under ctx.
func TableOutput(ctx context.Context, out catalog.OutputIO) FileWriter {
	return tableOutput{ctx: ctx, out: out}
}

type tableOutput struct {
	ctx context.Context
	out catalog.OutputIO
}

func (o tableOutput) Create(path string) (io.WriteCloser, error) { return o.out.Create(o.ctx, path) }
func (o tableOutput) Remove(path string) error                   { return o.out.Remove(o.ctx, path) }

// DataDir is where a table's new data files go: the write.data.path
// property, or the data folder under the table's location.
func DataDir(m *catalog.TableMetadata) string {
	if p := strings.TrimRight(m.Properties["write.data.path"], "/"); p != "" {
		return p
	}
	return strings.TrimRight(m.Location, "/") + "/data"
}
