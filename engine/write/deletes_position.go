package write

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Reserved field ids of the columns of a position delete file (Iceberg
// spec "Reserved Field IDs").
const (
	deleteFilePathID = 2147483546
	deletePosID      = 2147483545
)

// Table properties of position delete files.
const (
	propDeleteFormat      = "write.delete.format.default"
	propDeleteGranularity = "write.delete.granularity"
)

// positionDeleteSchema is the schema of a position delete file without
// the optional deleted row.
var positionDeleteSchema = &catalog.Schema{Fields: []catalog.NestedField{
	{ID: deleteFilePathID, Name: "file_path", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TString}},
	{ID: deletePosID, Name: "pos", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
}}

// deleteChunkRows is how many delete rows are built into one Arrow batch
// before they go to the file.
const deleteChunkRows = 8 * chunkRows

// positionDeleteFormat is the format of a table's position delete files:
// write.delete.format.default, else the data files' write.format.default,
// else Parquet.
func positionDeleteFormat(props map[string]string) (catalog.FileFormat, error) {
	if v, ok := props[propDeleteFormat]; ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "parquet":
			return catalog.FormatParquet, nil
		case "avro":
			return catalog.FormatAvro, nil
		case "orc":
			return "", pgerr.Unsupported("writing ORC delete files")
		}
		return "", invalidProperty(propDeleteFormat, v)
	}
	f, err := parseFormat("", props)
	if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.FeatureNotSupported {
		return "", pgerr.Unsupported("writing ORC delete files")
	}
	return f, err
}

// partitionGranularity reads write.delete.granularity: false for "file"
// (the default), true for "partition".
func partitionGranularity(props map[string]string) (bool, error) {
	v, ok := props[propDeleteGranularity]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "file":
		return false, nil
	case "partition":
		return true, nil
	}
	return false, invalidProperty(propDeleteGranularity, v)
}

// deleteFileProperties are the properties delete files are written with:
// the table's, with each write.delete.parquet.* and write.delete.avro.*
// setting replacing its data-file counterpart.
func deleteFileProperties(props map[string]string) map[string]string {
	out := make(map[string]string, len(props))
	for k, v := range props {
		out[k] = v
	}
	for k, v := range props {
		for _, kind := range []string{"parquet.", "avro."} {
			if rest, ok := strings.CutPrefix(k, "write.delete."+kind); ok {
				out["write."+kind+rest] = v
			}
		}
	}
	return out
}

// deletePropertyError names the write.delete.* property in an invalid
// property error about the data-file setting it replaced.
func deletePropertyError(err error, props map[string]string) error {
	pe := pgerr.As(err)
	if pe == nil || pe.Code != pgerr.InvalidParameterValue {
		return err
	}
	for k := range props {
		for _, kind := range []string{"parquet.", "avro."} {
			if rest, ok := strings.CutPrefix(k, "write.delete."+kind); ok {
				quoted := `"write.` + kind + rest + `"`
				if strings.Contains(pe.Message, quoted) {
					return pgerr.New(pgerr.InvalidParameterValue, "%s", strings.Replace(pe.Message, quoted, `"`+k+`"`, 1))
				}
			}
		}
	}
	return err
}

// positionDeletes writes v2 position delete files: one per data file, or
// one per partition (spec and tuple) with partition granularity.
func (w *deleteWriter) positionDeletes(targets []*deleteTarget) ([]*catalog.DataFile, error) {
	props := deleteFileProperties(w.spec.Metadata.Properties)
	format, err := positionDeleteFormat(props)
	if err != nil {
		return nil, err
	}
	byPartition, err := partitionGranularity(props)
	if err != nil {
		return nil, err
	}
	opts, err := parseFileOptions(props)
	if err != nil {
		return nil, deletePropertyError(err, w.spec.Metadata.Properties)
	}
	// positions are distinct: a dictionary would only add to their bytes
	layout, err := newTableLayout(positionDeleteSchema, deletePosID)
	if err != nil {
		return nil, err
	}
	pw := &positionDeleteWriter{deleteWriter: w, format: format, layout: layout, opts: opts}
	if format == catalog.FormatAvro {
		if pw.opts.avro, err = parseAvroCodec(props); err != nil {
			return nil, deletePropertyError(err, w.spec.Metadata.Properties)
		}
		if pw.avro, err = newAvroLayout(positionDeleteSchema); err != nil {
			return nil, err
		}
	}
	var out []*catalog.DataFile
	for _, group := range groupTargets(targets, byPartition) {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
		df, err := pw.write(group)
		if err != nil {
			return nil, err
		}
		out = append(out, df)
	}
	return out, nil
}

// groupTargets splits targets (ordered by path) into the sets that share
// a delete file: each on its own, or by spec and partition tuple (groups
// in order of their first path).
func groupTargets(targets []*deleteTarget, byPartition bool) [][]*deleteTarget {
	if !byPartition {
		groups := make([][]*deleteTarget, len(targets))
		for i, t := range targets {
			groups[i] = []*deleteTarget{t}
		}
		return groups
	}
	index := map[string]int{}
	var groups [][]*deleteTarget
	var key []byte
	for _, t := range targets {
		key = appendKey(key[:0], int64(t.file.SpecID))
		for _, v := range t.file.Partition {
			key = appendKey(key, v)
		}
		i, ok := index[string(key)]
		if !ok {
			i = len(groups)
			index[string(key)] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], t)
	}
	return groups
}

// positionDeleteWriter writes the position delete files of one call.
type positionDeleteWriter struct {
	*deleteWriter
	format catalog.FileFormat
	layout *tableLayout
	avro   *avroLayout
	opts   fileOptions
}

// write writes one position delete file holding the deletes of group (all
// of one spec and partition), rows sorted by file_path then pos.
func (pw *positionDeleteWriter) write(group []*deleteTarget) (*catalog.DataFile, error) {
	first := group[0].file
	partition := append([]any{}, first.Partition...)
	ext := "parquet"
	if pw.format == catalog.FormatAvro {
		ext = "avro"
	}
	path, out, err := pw.create(pw.partitionDir(first.SpecID, first.Partition), ext)
	if err != nil {
		return nil, err
	}
	// file_path and pos keep full metrics whatever the table's metrics
	// settings (the counts are dropped below).
	modes := []metricsMode{modeFull, modeFull}
	var f dataFile
	if pw.format == catalog.FormatAvro {
		if f, err = newAvroFile(path, out, pw.avro, pw.layout, pw.opts, modes, partition); err != nil {
			out.Close()
			return nil, err
		}
	} else {
		f = newParquetFile(path, out, pw.layout, pw.opts, modes, partition)
	}
	if err := pw.writeRows(f, group); err != nil {
		f.abort()
		return nil, err
	}
	df, err := f.close(first.SpecID)
	if err != nil {
		return nil, err
	}
	df.Content = catalog.ContentPositionDelete
	positionDeleteMetrics(df, group)
	return df, nil
}

// writeRows writes the (file_path, pos) rows of group in batches.
func (pw *positionDeleteWriter) writeRows(f dataFile, group []*deleteTarget) error {
	paths := array.NewStringBuilder(memory.DefaultAllocator)
	defer paths.Release()
	poss := array.NewInt64Builder(memory.DefaultAllocator)
	defer poss.Release()
	flush := func() error {
		n := poss.Len()
		if n == 0 {
			return nil
		}
		if err := pw.ctx.Err(); err != nil {
			return err
		}
		cols := []arrow.Array{paths.NewArray(), poss.NewArray()}
		defer cols[0].Release()
		defer cols[1].Release()
		if err := f.write(cols, identity(n)); err != nil {
			return fmt.Errorf("write position deletes: %w", err)
		}
		return nil
	}
	for _, t := range group {
		for _, p := range t.positions {
			paths.Append(t.file.Path)
			poss.Append(p)
			if poss.Len() == deleteChunkRows {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// positionDeleteMetrics keeps what Iceberg's own position delete writer
// keeps: column sizes, and the bounds of file_path and pos only when the
// file deletes rows of a single data file (then also recorded as its
// referenced data file); no value or null counts for the two columns.
func positionDeleteMetrics(df *catalog.DataFile, group []*deleteTarget) {
	for _, id := range []int{deleteFilePathID, deletePosID} {
		delete(df.ValueCounts, id)
		delete(df.NullValueCounts, id)
		delete(df.NaNValueCounts, id)
		if len(group) > 1 {
			delete(df.LowerBounds, id)
			delete(df.UpperBounds, id)
		}
	}
	if len(group) == 1 {
		ref := group[0].file.Path
		df.ReferencedDataFile = &ref
	}
}
