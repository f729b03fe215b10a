package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/objstore"
)

// objectIOOf finds the object-store FileIO behind a table's FileIO.
func objectIOOf(fio FileIO) (*objectIO, bool) {
	if c, ok := fio.(*cachingIO); ok {
		fio = c.FileIO
	}
	o, ok := fio.(*objectIO)
	return o, ok
}

// removeObjectOrphans is RemoveOrphanFiles for a table in an object
// store: the objects under the table's location (or o.Location under it)
// last modified before o.OlderThan that tbl's metadata does not reach,
// and the multipart uploads begun there before it and never finished.
// An object store keeps no write records, so the age alone protects the
// files of a commit in progress, as in other engines: OlderThan defaults
// to three days before now, and a time less than an hour ago is refused
// but for a dry run.
func removeObjectOrphans(ctx context.Context, tbl *Table, oio *objectIO, o OrphanOptions) ([]string, error) {
	name := qualified(tbl.Ident.Namespace, tbl.Ident.Name)
	if err := checkGCEnabled(tbl.Metadata, "remove orphan files of", name); err != nil {
		return nil, err
	}
	if o.OlderThan.IsZero() {
		o.OlderThan = time.Now().Add(-3 * 24 * time.Hour)
	}
	if o.OlderThan.After(time.Now().Add(-time.Hour)) && !o.DryRun {
		return nil, pgerr.New(pgerr.InvalidParameterValue,
			"older_than must be at least one hour ago for table \"%s\" in an object store", name).
			WithDetail("Files of commits in progress are told from orphans only by their age there.")
	}
	location, err := oio.w.uri(strings.TrimSuffix(tbl.Metadata.Location, "/"))
	if err != nil {
		return nil, err
	}
	root := location + "/"
	if o.Location != "" {
		r, err := oio.w.uri(strings.TrimSuffix(o.Location, "/"))
		if err != nil || (r != location && !strings.HasPrefix(r, root)) {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "location \"%s\" is not under the location of table \"%s\"", o.Location, name)
		}
		root = strings.TrimSuffix(r, "/") + "/"
	}
	// 1. The objects, old enough.
	var listed []string
	if err := oio.w.store.List(ctx, root, func(i objstore.Info) error {
		if i.ModTime.Before(o.OlderThan) && !strings.HasSuffix(i.URI, "/") {
			listed = append(listed, i.URI)
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("remove orphan files of %s: list %s: %w", name, root, err)
	}
	if len(listed) == 0 {
		if !o.DryRun {
			abortUploads(ctx, oio.w.store, root, o.OlderThan, name)
		}
		return nil, nil
	}
	// 2. What the metadata reaches, read after the listing.
	reached, err := reachedBy(ctx, tbl.IO, tbl.Metadata)
	if err != nil {
		return nil, fmt.Errorf("remove orphan files of %s: list the files the table references (nothing removed): %w", name, err)
	}
	if u, err := oio.w.uri(tbl.MetadataLocation); err == nil {
		reached[u] = true
	}
	metaDir := location + "/metadata/"
	var orphans []string
	for _, u := range listed {
		base := u[strings.LastIndexByte(u, '/')+1:]
		switch {
		case reached[u]:
			continue
		case strings.HasPrefix(u, metaDir) && !strings.Contains(u[len(metaDir):], "/") &&
			(base == versionHintFile || metadataVersion(base) >= 0):
			// Metadata files are the catalog's: the current one may be
			// newer than the one read.
			continue
		}
		orphans = append(orphans, u)
	}
	slices.Sort(orphans)
	if !o.DryRun {
		if err := oio.w.deleteAll(ctx, orphans); err != nil {
			return nil, fmt.Errorf("remove orphan files of %s: %w", name, err)
		}
		abortUploads(ctx, oio.w.store, root, o.OlderThan, name)
	}
	return orphans, nil
}

// abortUploads aborts the multipart uploads under root begun before
// olderThan (writers that died mid-write leave them, invisible but
// stored), when the store can; a failure is logged: the orphan files are
// gone already.
func abortUploads(ctx context.Context, store objstore.Store, root string, olderThan time.Time, table string) {
	a, ok := store.(objstore.UploadAborter)
	if !ok {
		return
	}
	n, err := a.AbortUploads(ctx, root, olderThan)
	if err != nil {
		slog.Warn("abort the unfinished uploads of a table", "table", table, "err", err)
		return
	}
	if n > 0 {
		slog.Info("aborted unfinished uploads", "table", table, "uploads", n)
	}
}
