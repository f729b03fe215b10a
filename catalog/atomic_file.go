package catalog

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// newUUID returns a random (version 4) UUID in canonical form.
func newUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return FormatUUID(u)
}

// writeTemp writes data to a new hidden temporary file in dir and returns
// its path.
func writeTemp(dir string, data []byte) (string, error) {
	tmp := filepath.Join(dir, "."+newUUID()+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return "", fmt.Errorf("create %s: %w", tmp, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
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
// temporary file is hard-linked to the final name, which fails when the
// name exists (the error then wraps fs.ErrExist).
func createExclusive(dir, name string, data []byte) error {
	tmp, err := writeTemp(dir, data)
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
	return nil
}

// replaceFile writes data to dir/name atomically, replacing any old file
// (temporary file then rename).
func replaceFile(dir, name string, data []byte) error {
	tmp, err := writeTemp(dir, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", name, err)
	}
	return nil
}
