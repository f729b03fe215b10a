package catalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// hintEntry is a version hint file as last read: its file info and the
// metadata file it named.
type hintEntry struct {
	st   fs.FileInfo
	path string
	// next is the name of the version after path's (followCommitted's
	// first look), "" when path is not numbered.
	next string
}

// currentMetadataStat is currentMetadataFile, sparing the reading of the
// version hint while the hint file is the one last read (the same file,
// modification time and size): a query run thousands of times a second
// then costs a stat of the hint and one of the next version's name
// (followCommitted) instead of reading the hint. A commit here or by
// another process replaces the hint file (a new file renamed into place,
// filesystem_write.go) or rewrites it, and links the next version before
// either, so the next load sees it.
//
// st and err are the stat of the hint file, taken just before by the
// caller (LoadTable, which tells a table by it).
func (c *Filesystem) currentMetadataStat(metaDir string, st fs.FileInfo, err error) (string, error) {
	if err != nil || !st.Mode().IsRegular() {
		return currentMetadataFile(metaDir)
	}
	c.mu.Lock()
	h, ok := c.hints[metaDir]
	c.mu.Unlock()
	if ok && os.SameFile(h.st, st) && h.st.ModTime().Equal(st.ModTime()) && h.st.Size() == st.Size() {
		if h.next == "" {
			return followCommitted(metaDir, h.path)
		}
		// followCommitted's first step, with the name made once.
		found, err := committedFile(h.next)
		if err != nil || !found {
			return h.path, err
		}
		return followCommitted(metaDir, h.next)
	}
	// Read after the stat: the contents are at least as new as st, so a
	// change in between only makes the next load read the hint again.
	hint, err := os.ReadFile(filepath.Join(metaDir, "version-hint.text"))
	if err != nil {
		return currentMetadataFile(metaDir)
	}
	p := hintedFile(metaDir, strings.TrimSpace(string(hint)))
	if p == "" {
		return currentMetadataFile(metaDir)
	}
	c.mu.Lock()
	if len(c.hints) >= maxResolvedDirs {
		clear(c.hints)
	}
	c.hints[metaDir] = hintEntry{st: st, path: p, next: nextVersionFile(metaDir, p)}
	c.mu.Unlock()
	return followCommitted(metaDir, p)
}
