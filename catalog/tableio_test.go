package catalog

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestLocalTableIO: files are created under the table's location only,
// and read back through its FileIO.
func TestLocalTableIO(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "db", "t")
	id := Identifier{Namespace: []string{"db"}, Name: "t"}
	for _, loc := range []string{dir, "file:" + dir, "file://" + dir + "/"} {
		t.Run(loc, func(t *testing.T) {
			fio, out, err := NewLocalTableIO(id, loc, "", "", nil)
			if err != nil {
				t.Fatal(err)
			}
			base := loc
			if base[len(base)-1] == '/' {
				base = base[:len(base)-1]
			}
			path := base + "/data/" + filepath.Base(t.Name()) + ".parquet"
			w, err := out.Create(ctx, path)
			if err != nil {
				t.Fatalf("create %s: %v", path, err)
			}
			io.WriteString(w, "data")
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := out.Create(ctx, path); !errors.Is(err, ErrAlreadyExists) {
				t.Fatalf("create twice: %v", err)
			}
			f, err := fio.Open(ctx, path)
			if err != nil {
				t.Fatalf("open %s: %v", path, err)
			}
			if f.Size() != 4 {
				t.Fatalf("size %d", f.Size())
			}
			f.Close()
			for _, bad := range []string{base + "/../escape", filepath.Dir(dir) + "/u/data/x", "/etc/passwd"} {
				if _, err := out.Create(ctx, bad); !errors.Is(err, ErrOutsideWarehouse) {
					t.Fatalf("create %s: %v, want ErrOutsideWarehouse", bad, err)
				}
			}
			if err := out.Remove(ctx, path); err != nil {
				t.Fatal(err)
			}
			if err := out.Remove(ctx, path); err != nil {
				t.Fatalf("remove a missing file: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "data", filepath.Base(t.Name())+".parquet")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("removed file still there: %v", err)
			}
		})
	}
	if _, _, err := NewLocalTableIO(id, "relative/dir", "", "", nil); !errors.Is(err, ErrOutsideWarehouse) {
		t.Fatalf("a relative location: %v", err)
	}
}
