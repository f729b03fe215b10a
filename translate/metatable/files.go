package metatable

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/plan"
)

// Rows of the file tables (files, data_files, delete_files and their all_
// forms), entries, all_entries and partitions.

// contentFilter picks the files a file table lists.
type contentFilter int

const (
	anyContent contentFilter = iota
	dataContent
	deleteContent
)

func (c contentFilter) keeps(df *catalog.DataFile) bool {
	switch c {
	case dataContent:
		return df.Content == catalog.ContentData
	case deleteContent:
		return df.Content != catalog.ContentData
	}
	return true
}

// manifestsToRead are the manifests a table reads: the snapshot's, or for
// the all_ tables every reachable one.
func (s *Source) manifestsToRead(ctx context.Context, all bool) ([]catalog.ManifestFile, error) {
	if all {
		return s.reachableManifests(ctx)
	}
	return s.snapshotManifests(ctx, s.Snapshot)
}

// schema is the schema the metrics are read with: the snapshot's.
func (s *Source) schema() *catalog.Schema {
	if s.Snapshot != nil {
		if sc := SnapshotSchema(s.Meta, s.Snapshot); sc != nil {
			return sc
		}
	}
	return s.Meta.CurrentSchema()
}

func filesRows(filter contentFilter, all bool) func(context.Context, *Source) ([][]any, error) {
	return func(ctx context.Context, src *Source) ([][]any, error) {
		mfs, err := src.manifestsToRead(ctx, all)
		if err != nil {
			return nil, err
		}
		withPart := src.Has("partition")
		metrics := newReadableMetrics(src.schema())
		var rows [][]any
		err = src.eachEntry(ctx, mfs, func(m *catalog.Manifest, e *catalog.ManifestEntry) error {
			if e.Status == catalog.StatusDeleted || !filter.keeps(e.File) {
				return nil
			}
			row := src.fileRow(e.File, withPart)
			rows = append(rows, append(row, metrics.of(e.File)))
			return nil
		})
		return rows, err
	}
}

// fileRow is a data or delete file's row of the file tables, up to
// readable_metrics.
func (s *Source) fileRow(df *catalog.DataFile, withPartition bool) []any {
	row := []any{int32(df.Content), df.Path, string(df.Format), int32(df.SpecID)}
	if withPartition {
		row = append(row, s.partitionJSON(df.SpecID, df.Partition))
	}
	var keyMeta, splits, eqIDs any
	if df.KeyMetadata != nil {
		keyMeta = df.KeyMetadata
	}
	if df.SplitOffsets != nil {
		splits = append([]int64(nil), df.SplitOffsets...)
	}
	if df.EqualityIDs != nil {
		ids := make([]int32, len(df.EqualityIDs))
		for i, id := range df.EqualityIDs {
			ids[i] = int32(id)
		}
		eqIDs = ids
	}
	var refFile any
	if df.ReferencedDataFile != nil {
		refFile = *df.ReferencedDataFile
	}
	return append(row, df.RecordCount, df.FileSizeInBytes,
		jsonIntLongMap(df.ColumnSizes), jsonIntLongMap(df.ValueCounts), jsonIntLongMap(df.NullValueCounts),
		jsonIntLongMap(df.NaNValueCounts), jsonIntBytesMap(df.LowerBounds), jsonIntBytesMap(df.UpperBounds),
		keyMeta, splits, eqIDs, optInt(df.SortOrderID), optInt64(df.FirstRowID), refFile,
		optInt64(df.ContentOffset), optInt64(df.ContentSizeInBytes))
}

// partitionJSON renders a partition tuple as an object keyed by the
// spec's field names.
func (s *Source) partitionJSON(specID int, values []any) string {
	spec := s.Meta.SpecByID(specID)
	var o mjObj
	for i, v := range values {
		name := "_" + strconv.Itoa(i+1)
		var t *catalog.PrimitiveType
		if spec != nil && i < len(spec.Fields) {
			f := spec.Fields[i]
			name = f.Name
			t = s.partitionFieldType(f)
			if f.Transform.Name == "day" {
				t = &catalog.PrimitiveType{ID: catalog.TDate} // Spark's type for days
			}
		}
		o.Add(name, mjValue(v, t))
	}
	return o.String()
}

func entriesRows(all bool) func(context.Context, *Source) ([][]any, error) {
	return func(ctx context.Context, src *Source) ([][]any, error) {
		mfs, err := src.manifestsToRead(ctx, all)
		if err != nil {
			return nil, err
		}
		metrics := newReadableMetrics(src.schema())
		var rows [][]any
		err = src.eachEntry(ctx, mfs, func(m *catalog.Manifest, e *catalog.ManifestEntry) error {
			df := e.File
			data := rowJSON(dataFileCols, src.fileRow(df, true))
			rows = append(rows, []any{int32(e.Status), df.SnapshotID, df.DataSequenceNumber, df.FileSequenceNumber, data, metrics.of(df)})
			return nil
		})
		return rows, err
	}
}

// dataFileCols are the members of entries' data_file: the file tables'
// columns with partition, without readable_metrics.
var dataFileCols = func() []Column {
	out := append([]Column(nil), filesCols[:4]...)
	out = append(out, Column{"partition", plan.TJSONB})
	return append(out, filesCols[4:len(filesCols)-1]...)
}()

// rowJSON renders a row as a JSON object keyed by column names (jsonb
// values are embedded as they are).
func rowJSON(cols []Column, row []any) string {
	var o mjObj
	for i, c := range cols {
		o.Add(c.Name, goJSON(row[i], c.Typ))
	}
	return o.String()
}

// goJSON renders one Batch row value as JSON.
func goJSON(v any, t plan.Type) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if t == plan.TJSONB {
			return x
		}
		return mjString(x)
	case []int64:
		items := make([]string, len(x))
		for i, n := range x {
			items[i] = strconv.FormatInt(n, 10)
		}
		return mjArray(items)
	case []int32:
		items := make([]string, len(x))
		for i, n := range x {
			items[i] = strconv.FormatInt(int64(n), 10)
		}
		return mjArray(items)
	}
	return mjValue(v, nil)
}

// partitionStats accumulates one row of partitions.
type partitionStats struct {
	specID                       int
	partition                    string
	records, size                int64
	files                        int32
	posRecords, eqRecords        int64
	posFiles, eqFiles            int32
	lastUpdatedMs, lastUpdatedID int64
	updated                      bool
}

func partitionsRows(ctx context.Context, src *Source) ([][]any, error) {
	mfs, err := src.snapshotManifests(ctx, src.Snapshot)
	if err != nil {
		return nil, err
	}
	withPart := src.Has("partition")
	groups := map[string]*partitionStats{}
	err = src.eachEntry(ctx, mfs, func(m *catalog.Manifest, e *catalog.ManifestEntry) error {
		if e.Status == catalog.StatusDeleted {
			return nil
		}
		df := e.File
		key := ""
		part := "{}"
		if withPart {
			part = src.partitionJSON(df.SpecID, df.Partition)
			key = strconv.Itoa(df.SpecID) + " " + part
		}
		g := groups[key]
		if g == nil {
			g = &partitionStats{specID: df.SpecID, partition: part}
			groups[key] = g
		}
		switch df.Content {
		case catalog.ContentData:
			g.records += df.RecordCount
			g.size += df.FileSizeInBytes
			g.files++
		case catalog.ContentPositionDelete:
			g.posRecords += df.RecordCount
			g.posFiles++
		case catalog.ContentEqualityDelete:
			g.eqRecords += df.RecordCount
			g.eqFiles++
		}
		if s := src.Meta.SnapshotByID(df.SnapshotID); s != nil && (!g.updated || s.TimestampMs > g.lastUpdatedMs) {
			g.lastUpdatedMs, g.lastUpdatedID, g.updated = s.TimestampMs, s.SnapshotID, true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := groups[keys[i]], groups[keys[j]]
		if a.specID != b.specID {
			return a.specID < b.specID
		}
		return strings.Compare(a.partition, b.partition) < 0
	})
	var rows [][]any
	for _, k := range keys {
		g := groups[k]
		var row []any
		if withPart {
			row = append(row, g.partition, int32(g.specID))
		}
		var at, id any
		if g.updated {
			at, id = msTime(g.lastUpdatedMs), g.lastUpdatedID
		}
		rows = append(rows, append(row, g.records, g.files, g.size, g.posRecords, g.posFiles, g.eqRecords, g.eqFiles, at, id))
	}
	return rows, nil
}
