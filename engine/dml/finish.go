package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/write"
)

// Finish writes what is still to write (copy-on-write rewrites, delete
// files, the last data files) and returns the change, with
// BaseSnapshotID, ReferencedDataFiles and the file lists set; Isolation,
// ConflictFilter, Branch and Properties are the caller's to fill. A change
// that changes nothing has empty lists. On error every file the Writer
// wrote is removed.
func (w *Writer) Finish(ctx context.Context) (*catalog.Change, error) {
	if w.finished {
		return nil, fmt.Errorf("row-level writer: Finish after Finish or Abort")
	}
	ch, err := w.finish(ctx)
	w.finished = true
	if err != nil {
		w.Abort()
		return nil, err
	}
	return ch, nil
}

func (w *Writer) finish(ctx context.Context) (*catalog.Change, error) {
	ch := &catalog.Change{}
	if w.spec.Snapshot != nil {
		id := w.spec.Snapshot.SnapshotID
		ch.BaseSnapshotID = &id
	}
	var deletes []write.FileDeletes
	for _, task := range w.affected {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ch.ReferencedDataFiles = append(ch.ReferencedDataFiles, task.File.Path)
		if w.spec.Mode == CopyOnWrite {
			if err := w.rewrite(ctx, task, ch); err != nil {
				return nil, err
			}
			continue
		}
		fd, err := w.mergeOnRead(ctx, task, ch)
		if err != nil {
			return nil, err
		}
		if fd != nil {
			deletes = append(deletes, *fd)
		}
	}
	files, err := w.data.Close()
	if err != nil {
		return nil, fmt.Errorf("write data files of %s: %w", w.spec.Table.Ident.Name, err)
	}
	if w.lineage != nil {
		moved, err := w.lineage.Close()
		if err != nil {
			return nil, fmt.Errorf("write data files of %s: %w", w.spec.Table.Ident.Name, err)
		}
		files = append(moved, files...)
	}
	ch.AddedDataFiles = files
	if len(deletes) > 0 {
		m := w.spec.Table.Metadata
		dfs, err := write.WriteDeletes(ctx, write.DeleteSpec{
			IO:       write.TableOutput(context.WithoutCancel(ctx), w.spec.Out), // removed after the statement too (a rolled-back block)
			DataDir:  write.DataDir(m),
			Metadata: m,
		}, deletes)
		if err != nil {
			return nil, fmt.Errorf("write delete files of %s: %w", w.spec.Table.Ident.Name, err)
		}
		w.deleteFiles = dfs
		ch.AddedDeleteFiles = dfs
	}
	return ch, nil
}

// removeFile records that the change removes task's data file with its
// file-scoped delete files.
func (w *Writer) removeFile(task *catalog.FileScanTask, ch *catalog.Change) {
	ch.RemovedDataFiles = append(ch.RemovedDataFiles, task.File)
	ch.RemovedDeleteFiles = append(ch.RemovedDeleteFiles, w.fileScopedDeletes(task)...)
}

// posDeleteFilePathID is the reserved field id of a position delete file's
// file_path column; equal bounds on it scope the file to one data file.
const posDeleteFilePathID = 2147483546

// fileScopedDeletes are the delete files of task that delete rows of its
// data file only: its deletion vector and the position delete files that
// name that file alone (referenced_data_file, or equal file_path bounds).
func (w *Writer) fileScopedDeletes(task *catalog.FileScanTask) []*catalog.DataFile {
	var out []*catalog.DataFile
	var dataLocal string
	for _, d := range task.Deletes {
		if strings.EqualFold(string(d.Format), string(catalog.FormatPuffin)) {
			out = append(out, d)
			continue
		}
		if d.Content != catalog.ContentPositionDelete {
			continue
		}
		ref, ok := referencedFile(d)
		if !ok {
			continue
		}
		if ref == task.File.Path {
			out = append(out, d)
			continue
		}
		if dataLocal == "" {
			dataLocal = w.local(task.File.Path)
		}
		if w.local(ref) == dataLocal {
			out = append(out, d)
		}
	}
	return out
}

// referencedFile is the one data file a position delete file names, if it
// names one.
func referencedFile(d *catalog.DataFile) (string, bool) {
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

// local resolves a written path through the table's FileIO (the path
// itself when it does not resolve).
func (w *Writer) local(p string) string {
	if l, err := w.spec.Table.IO.Resolve(p); err == nil {
		return l
	}
	return p
}
