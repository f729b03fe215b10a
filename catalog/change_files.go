package catalog

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// branchName is the branch a change commits to.
func branchName(c *Change) string {
	if c.Branch == "" {
		return "main"
	}
	return c.Branch
}

// branchHead returns the snapshot a branch points at (nil when the branch
// does not exist) and an error when the ref is a tag.
func branchHead(meta *TableMetadata, branch string) (*Snapshot, error) {
	ref, ok := meta.Refs[branch]
	if !ok {
		return nil, nil
	}
	if ref.Type != "" && ref.Type != "branch" {
		return nil, fmt.Errorf("ref %s is a %s, not a branch: %w", branch, ref.Type, ErrDataInvalid)
	}
	snap := meta.SnapshotByID(ref.SnapshotID)
	if snap == nil {
		return nil, fmt.Errorf("branch %s points at snapshot %d, which does not exist: %w", branch, ref.SnapshotID, ErrDataInvalid)
	}
	return snap, nil
}

// isDV reports whether a delete file is a deletion vector.
func isDV(df *DataFile) bool {
	return df.Content == ContentPositionDelete && df.Format == FormatPuffin
}

// onlyAddsData reports whether a change only adds data files: an append,
// which is never validated.
func onlyAddsData(c *Change) bool {
	return len(c.AddedDeleteFiles) == 0 && len(c.RemovedDataFiles) == 0 &&
		len(c.RemovedDeleteFiles) == 0 && len(c.ReferencedDataFiles) == 0
}

// pathMatcher compares file paths as different writers spell them: by
// their form resolved through the table's FileIO (a foreign prefix and the
// local one name the same file), as planning does.
type pathMatcher struct {
	io       FileIO
	resolved map[string]string
}

func newPathMatcher(fio FileIO) *pathMatcher {
	return &pathMatcher{io: fio, resolved: map[string]string{}}
}

// canonical is a path's resolved form, memoized; a path that does not
// resolve is normalized (scheme and authority dropped) instead.
func (m *pathMatcher) canonical(written string) string {
	if c, ok := m.resolved[written]; ok {
		return c
	}
	c := path.Clean("/" + strings.TrimPrefix(stripScheme(written), "/"))
	if m.io != nil {
		if local, err := m.io.Resolve(written); err == nil {
			c = local
		}
	}
	m.resolved[written] = c
	return c
}

// fileKey identifies a data file by canonical path.
func (m *pathMatcher) fileKey(df *DataFile) string { return m.canonical(df.Path) }

// deleteKey identifies a delete file by canonical path and, for a
// deletion vector, its blob's offset in the Puffin file (one Puffin file
// may hold the DVs of several data files).
func (m *pathMatcher) deleteKey(df *DataFile) string {
	k := m.canonical(df.Path)
	if df.ContentOffset != nil {
		k += "#" + strconv.FormatInt(*df.ContentOffset, 10)
	}
	return k
}
