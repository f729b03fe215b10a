package write

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// DeleteSpec says where and how WriteDeletes writes a table's delete files.
type DeleteSpec struct {
	IO FileWriter
	// DataDir is the table's data location (DataDir(meta)); delete files go
	// under it, in the partition directory of the rows they delete.
	DataDir string
	// Metadata is the table's metadata: its format version chooses the
	// kind of delete file (v2 position deletes, v3 deletion vectors), its
	// specs (by DataFile.SpecID) the partition of each delete file, and its
	// properties write.delete.format.default and write.delete.granularity.
	Metadata *catalog.TableMetadata
}

// FileDeletes are the deleted row positions of one data file.
type FileDeletes struct {
	File *catalog.DataFile
	// Positions are ascending and unique.
	Positions []int64
}

// WriteDeletes writes delete files for deletes and returns them as
// manifest entries would describe them (content position deletes). Format
// v2: Parquet position delete files (file_path, pos; sorted), one per
// data file with write.delete.granularity=file (the default;
// referenced_data_file set) or one per partition with =partition. Format
// v3: one Puffin file holding a deletion-vector-v1 blob per data file,
// each returned as its own DataFile (format PUFFIN, referenced data file,
// content offset and size, record count = the vector's cardinality). On
// error every file it created is removed.
//
// Position delete files are Avro when write.delete.format.default (or,
// unset, write.format.default) is avro; ORC is 0A000. Their metrics are
// what Iceberg's own writer keeps: column sizes, and file_path and pos
// bounds only in a file of one data file. They are not rolled at a
// target size: one file per data file or partition.
//
// Entries naming the same data file path are merged; entries without
// positions are skipped (no deletes: no files, nil result). A v3 deletion
// vector holds exactly the positions given: merging in the positions of
// a data file's earlier vector is the caller's job.
func WriteDeletes(ctx context.Context, spec DeleteSpec, deletes []FileDeletes) ([]*catalog.DataFile, error) {
	if spec.IO == nil || spec.Metadata == nil {
		return nil, fmt.Errorf("write deletes: IO and Metadata are required")
	}
	targets, err := deleteTargets(deletes)
	if err != nil || len(targets) == 0 {
		return nil, err
	}
	w := &deleteWriter{ctx: ctx, spec: spec, queryID: newUUID()}
	var out []*catalog.DataFile
	switch v := spec.Metadata.FormatVersion; {
	case v <= 1:
		return nil, pgerr.Unsupported("row-level delete files in an Iceberg format version %d table", v)
	case v == 2:
		out, err = w.positionDeletes(targets)
	case v == 3:
		out, err = w.deletionVectors(targets)
	default:
		return nil, pgerr.Unsupported("writing delete files of Iceberg format version %d", v)
	}
	if err != nil {
		w.removeCreated()
		return nil, err
	}
	return out, nil
}

// deleteTarget is one data file and all its deleted positions (ascending,
// unique).
type deleteTarget struct {
	file      *catalog.DataFile
	positions []int64
}

// deleteTargets merges the entries of each data file path, checks the
// positions and orders the targets by path (the order of the rows of a
// position delete file).
func deleteTargets(deletes []FileDeletes) ([]*deleteTarget, error) {
	byPath := map[string]*deleteTarget{}
	var targets []*deleteTarget
	for _, d := range deletes {
		if len(d.Positions) == 0 {
			continue
		}
		if d.File == nil {
			return nil, fmt.Errorf("write deletes: an entry has no data file")
		}
		t := byPath[d.File.Path]
		if t == nil {
			t = &deleteTarget{file: d.File}
			byPath[d.File.Path] = t
			targets = append(targets, t)
		}
		if t.positions == nil {
			t.positions = d.Positions
		} else {
			// clipped: the append copies instead of writing into the
			// caller's array
			t.positions = append(slices.Clip(t.positions), d.Positions...)
		}
	}
	for _, t := range targets {
		if !strictlyAscending(t.positions) {
			t.positions = slices.Clone(t.positions)
			slices.Sort(t.positions)
			t.positions = slices.Compact(t.positions)
		}
		if t.positions[0] < 0 {
			return nil, fmt.Errorf("write deletes: negative row position %d in %s", t.positions[0], t.file.Path)
		}
	}
	slices.SortFunc(targets, func(a, b *deleteTarget) int { return cmp.Compare(a.file.Path, b.file.Path) })
	return targets, nil
}

func strictlyAscending(p []int64) bool {
	for i := 1; i < len(p); i++ {
		if p[i] <= p[i-1] {
			return false
		}
	}
	return true
}

// deleteWriter is the state of one WriteDeletes call.
type deleteWriter struct {
	ctx       context.Context
	spec      DeleteSpec
	queryID   string
	fileCount int
	created   []string
}

// create opens a new delete file named <dir>/00000-<n>-<uuid>-deletes.<ext>
// and remembers it for removal on error.
func (w *deleteWriter) create(dir, ext string) (string, io.WriteCloser, error) {
	path := fmt.Sprintf("%s/00000-%d-%s-deletes.%s", dir, w.fileCount, w.queryID, ext)
	w.fileCount++
	out, err := w.spec.IO.Create(path)
	if err != nil {
		return "", nil, fmt.Errorf("create delete file %s: %w", path, err)
	}
	w.created = append(w.created, path)
	return path, out, nil
}

func (w *deleteWriter) removeCreated() {
	var errs []error
	for _, p := range w.created {
		if err := w.spec.IO.Remove(p); err != nil {
			errs = append(errs, err)
		}
	}
	w.created = nil
	if err := errors.Join(errs...); err != nil {
		slog.Warn("remove delete files after a failed write", "error", err)
	}
}

// partitionDir is the directory of a data file's partition under the
// data directory: DataDir, or DataDir/<partition path> when the file's
// spec has fields.
func (w *deleteWriter) partitionDir(specID int, tuple []any) string {
	dir := strings.TrimRight(w.spec.DataDir, "/")
	if p := deletePartitionPath(w.spec.Metadata, specID, tuple); p != "" {
		dir += "/" + p
	}
	return dir
}

// deletePartitionPath renders a partition tuple read from a manifest as a
// partition path ("" for an unpartitioned spec). A field whose source
// column or value type does not match its transform (a dropped column, a
// value written before a promotion) falls back to the value's plain text:
// the directory of a delete file carries no meaning to readers.
func deletePartitionPath(m *catalog.TableMetadata, specID int, tuple []any) string {
	spec := m.SpecByID(specID)
	if spec == nil || len(spec.Fields) == 0 {
		return ""
	}
	var b strings.Builder
	for i, f := range spec.Fields {
		if i > 0 {
			b.WriteByte('/')
		}
		var v any
		if i < len(tuple) {
			v = tuple[i]
		}
		b.WriteString(formEscape(f.Name))
		b.WriteByte('=')
		b.WriteString(formEscape(partitionValueText(m, f, v)))
	}
	return b.String()
}

func partitionValueText(m *catalog.TableMetadata, f catalog.PartitionField, v any) string {
	if v == nil {
		return "null"
	}
	if src := sourceType(m, f.SourceID); src != nil {
		if t, err := NewPartitionTransform(f.Transform, src); err == nil {
			switch t.Transform.Name {
			case "year", "month", "day", "hour", "bucket":
				if _, ok := v.(int32); ok {
					return humanString(t, v)
				}
			default:
				return humanString(t, v)
			}
		}
	}
	return valueString(&catalog.PrimitiveType{ID: catalog.TUnknown}, v)
}

// sourceType finds a field's type in the current schema, then in older
// ones.
func sourceType(m *catalog.TableMetadata, id int) catalog.Type {
	schemas := m.Schemas
	if cur := m.CurrentSchema(); cur != nil {
		schemas = append([]*catalog.Schema{cur}, schemas...)
	}
	for _, s := range schemas {
		if _, f := sourcePath(s, id); f != nil {
			return f.Type
		}
	}
	return nil
}
