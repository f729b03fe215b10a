package compact

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
)

// propDeleteTargetFileSize is the target size of delete files
// (write.delete.target-file-size-bytes, default 64 MB).
const (
	propDeleteTargetFileSize    = "write.delete.target-file-size-bytes"
	defaultDeleteTargetFileSize = 64 << 20
)

// ParsePositionDeleteOptions reads rewrite_position_delete_files' options:
// those of rewrite_data_files that concern sizes and groups, the target
// defaulting to write.delete.target-file-size-bytes, else 64 MB.
func ParsePositionDeleteOptions(tableProps, opts map[string]string) (Options, error) {
	for _, k := range []string{OptDeleteFileThreshold, OptRemoveDanglingDeletes} {
		if _, ok := opts[k]; ok {
			return Options{}, pgerr.New(pgerr.InvalidParameterValue, "unknown option for rewrite_position_delete_files: %q", k)
		}
	}
	props := map[string]string{propTargetFileSize: strconv.Itoa(defaultDeleteTargetFileSize)}
	if v, ok := tableProps[propDeleteTargetFileSize]; ok {
		props[propTargetFileSize] = v
	}
	return ParseOptions(props, opts)
}

// PositionDeleteSpec says what RewritePositionDeletes rewrites.
type PositionDeleteSpec struct {
	Catalog catalog.MutableCatalog
	Table   *catalog.Table
	Options Options
	// Progress, when set, is told of each group.
	Progress func(msg string)
}

// PositionDeleteResult counts what RewritePositionDeletes did (Spark's
// result columns).
type PositionDeleteResult struct {
	RewrittenDeleteFiles int
	AddedDeleteFiles     int
	RewrittenBytes       int64
	AddedBytes           int64
}

// RewritePositionDeletes rewrites the position delete files of the main
// branch's head (format 2) into fewer: per partition, the files whose
// size is outside [MinFileSize, MaxFileSize] (all with RewriteAll), when
// there are at least MinInputFiles of them or they are too big, are read
// and written again as one delete file of the partition, without the
// positions of data files that are no longer live (dangling deletes); a
// group left with no live position is removed. The commit is a "replace"
// snapshot validated against concurrent changes like any row-level change
// (a rewritten data file or new deletes on one: the error wraps
// catalog.ErrValidation). Deletion vectors (format 3) are one per data
// file already and are left alone. On error or cancellation the files
// written are removed and the table is left as it was.
func RewritePositionDeletes(ctx context.Context, spec PositionDeleteSpec) (PositionDeleteResult, error) {
	var res PositionDeleteResult
	tbl := spec.Table
	m := tbl.Metadata
	snap := m.CurrentSnapshot()
	if snap == nil || m.FormatVersion < 2 {
		return res, nil
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, snap)
	if err != nil {
		return res, err
	}
	live, err := liveDeleteFiles(ctx, tbl, snap)
	if err != nil {
		return res, err
	}
	resolve := func(p string) string {
		if l, err := tbl.IO.Resolve(p); err == nil {
			return l
		}
		return p
	}
	dataFiles := map[string]*catalog.DataFile{}
	for _, t := range tasks {
		dataFiles[resolve(t.File.Path)] = t.File
	}
	o := spec.Options
	byKey := map[string][]*catalog.DataFile{}
	var keys []string
	seen := map[string]bool{}
	for _, d := range live {
		if d.Content != catalog.ContentPositionDelete || strings.EqualFold(string(d.Format), string(catalog.FormatPuffin)) || seen[d.Path] {
			continue
		}
		seen[d.Path] = true
		if m.FormatVersion >= 3 {
			return res, pgerr.Unsupported("rewriting format 2 position delete files in a format version 3 table").
				WithHint("Rewrite the data files they apply to with rewrite_data_files instead.")
		}
		dangling := false
		if ref, ok := scopedTo(d); ok && dataFiles[resolve(ref)] == nil {
			dangling = true
		}
		if !(o.RewriteAll || dangling || d.FileSizeInBytes < o.MinFileSize || d.FileSizeInBytes > o.MaxFileSize) {
			continue
		}
		k := partitionKey(d.SpecID, d.Partition)
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], d)
	}
	var groups [][]*catalog.DataFile
	for _, k := range keys {
		files := byKey[k]
		var bytes int64
		dangling := false
		for _, d := range files {
			bytes += d.FileSizeInBytes
			if ref, ok := scopedTo(d); ok && dataFiles[resolve(ref)] == nil {
				dangling = true
			}
		}
		n := len(files)
		if o.RewriteAll || dangling || (n > 1 && n >= o.MinInputFiles) || (n > 1 && bytes > o.TargetFileSize) || bytes > o.MaxFileSize {
			groups = append(groups, files)
		}
	}
	if len(groups) == 0 {
		return res, nil
	}
	out, err := spec.Catalog.NewOutput(tbl)
	if err != nil {
		return res, err
	}
	// One delete file per partition.
	dm := *m
	dm.Properties = maps.Clone(m.Properties)
	if dm.Properties == nil {
		dm.Properties = map[string]string{}
	}
	dm.Properties["write.delete.granularity"] = "partition"
	io := write.TableOutput(context.WithoutCancel(ctx), out)
	base := snap.SnapshotID
	ch := &catalog.Change{BaseSnapshotID: &base, Operation: "replace", Isolation: catalog.SnapshotIsolation}
	referenced := map[string]bool{}
	abort := func() {
		for _, f := range ch.AddedDeleteFiles {
			_ = io.Remove(f.Path)
		}
	}
	for i, files := range groups {
		if spec.Progress != nil {
			spec.Progress("rewrite_position_delete_files: rewriting group " + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(groups)))
		}
		merged := map[string][]int64{}
		for _, d := range files {
			if err := ctx.Err(); err != nil {
				abort()
				return PositionDeleteResult{}, err
			}
			pd, err := scan.ReadPositionDeletes(ctx, tbl, d)
			if err != nil {
				abort()
				return PositionDeleteResult{}, err
			}
			for p, pos := range pd {
				if dataFiles[p] != nil {
					merged[p] = append(merged[p], pos...)
				}
			}
			ch.RemovedDeleteFiles = append(ch.RemovedDeleteFiles, d)
			res.RewrittenDeleteFiles++
			res.RewrittenBytes += d.FileSizeInBytes
		}
		var fds []write.FileDeletes
		for _, p := range slices.Sorted(maps.Keys(merged)) {
			df := dataFiles[p]
			fds = append(fds, write.FileDeletes{File: df, Positions: merged[p]})
			if !referenced[df.Path] {
				referenced[df.Path] = true
				ch.ReferencedDataFiles = append(ch.ReferencedDataFiles, df.Path)
			}
		}
		added, err := write.WriteDeletes(ctx, write.DeleteSpec{IO: io, DataDir: write.DataDir(m), Metadata: &dm}, fds)
		if err != nil {
			abort()
			return PositionDeleteResult{}, err
		}
		ch.AddedDeleteFiles = append(ch.AddedDeleteFiles, added...)
	}
	if err := ctx.Err(); err != nil {
		abort()
		return PositionDeleteResult{}, err
	}
	if err := commit(ctx, spec.Catalog, tbl.Ident, ch); err != nil {
		abort()
		return PositionDeleteResult{}, err
	}
	for _, f := range ch.AddedDeleteFiles {
		res.AddedDeleteFiles++
		res.AddedBytes += f.FileSizeInBytes
	}
	return res, nil
}

// posDeleteFilePathID is the reserved field id of a position delete file's
// file_path column.
const posDeleteFilePathID = 2147483546

// scopedTo is the one data file a position delete file names, if it names
// one (referenced_data_file, or equal file_path bounds).
func scopedTo(d *catalog.DataFile) (string, bool) {
	if d.ReferencedDataFile != nil && *d.ReferencedDataFile != "" {
		return *d.ReferencedDataFile, true
	}
	lo, okLo := d.LowerBounds[posDeleteFilePathID]
	hi, okHi := d.UpperBounds[posDeleteFilePathID]
	if okLo && okHi && string(lo) == string(hi) {
		return string(lo), true
	}
	return "", false
}
