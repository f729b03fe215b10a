package objstore

import (
	"context"
	"strings"
	"time"
)

// UploadAborter is a Store that can abort the multipart uploads begun
// under a prefix before a time: those of writers that died mid-write,
// which the store keeps, invisible, until they are aborted.
type UploadAborter interface {
	AbortUploads(ctx context.Context, prefix string, before time.Time) (int, error)
}

// DirLister is a Store that lists one level of keys at a time (S3's
// delimiter listing), which is much cheaper than listing every object
// under a prefix.
type DirLister interface {
	ListDir(ctx context.Context, prefix string) (dirs []string, objects []Info, err error)
}

// ListDir lists one level under prefix (a URI ending in "/"): the URIs of
// the "folders" there (each ending in "/") and the objects directly
// there, both in key order. Stores without delimiter listing are listed in
// full and folded.
func ListDir(ctx context.Context, s Store, prefix string) (dirs []string, objects []Info, err error) {
	if d, ok := s.(DirLister); ok {
		return d.ListDir(ctx, prefix)
	}
	seen := map[string]bool{}
	err = s.List(ctx, prefix, func(i Info) error {
		rest := strings.TrimPrefix(i.URI, prefix)
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			d := prefix + rest[:j+1]
			if !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
			return nil
		}
		objects = append(objects, i)
		return nil
	})
	return dirs, objects, err
}
