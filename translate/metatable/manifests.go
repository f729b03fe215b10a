package metatable

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
)

// Rows of manifests and all_manifests, and the manifest walks the file
// tables share.

// snapshotManifests lists the manifests of one snapshot (none for nil).
func (s *Source) snapshotManifests(ctx context.Context, snap *catalog.Snapshot) ([]catalog.ManifestFile, error) {
	if snap == nil {
		return nil, nil
	}
	return catalog.ReadManifestList(ctx, s.Table.IO, snap)
}

// reachableManifests lists every manifest of every snapshot once (by
// path), in snapshot order: what the all_* tables read.
func (s *Source) reachableManifests(ctx context.Context) ([]catalog.ManifestFile, error) {
	seen := map[string]bool{}
	var out []catalog.ManifestFile
	for _, snap := range s.Meta.Snapshots {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mfs, err := s.snapshotManifests(ctx, snap)
		if err != nil {
			return nil, err
		}
		for _, mf := range mfs {
			if !seen[mf.Path] {
				seen[mf.Path] = true
				out = append(out, mf)
			}
		}
	}
	return out, nil
}

// eachEntry reads the manifests and calls fn for each entry (deleted
// ones too).
func (s *Source) eachEntry(ctx context.Context, mfs []catalog.ManifestFile, fn func(m *catalog.Manifest, e *catalog.ManifestEntry) error) error {
	for i := range mfs {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := catalog.ReadManifest(ctx, s.Table.IO, &mfs[i])
		if err != nil {
			return err
		}
		for j := range m.Entries {
			if err := fn(m, &m.Entries[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

func manifestsRows(ctx context.Context, src *Source) ([][]any, error) {
	mfs, err := src.snapshotManifests(ctx, src.Snapshot)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for i := range mfs {
		rows = append(rows, src.manifestRow(&mfs[i]))
	}
	return rows, nil
}

func allManifestsRows(ctx context.Context, src *Source) ([][]any, error) {
	var rows [][]any
	for _, snap := range src.Meta.Snapshots {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mfs, err := src.snapshotManifests(ctx, snap)
		if err != nil {
			return nil, err
		}
		for i := range mfs {
			rows = append(rows, append(src.manifestRow(&mfs[i]), snap.SnapshotID))
		}
	}
	return rows, nil
}

// manifestRow is one row of manifests: file counts go to the data or the
// delete columns by the manifest's content.
func (s *Source) manifestRow(mf *catalog.ManifestFile) []any {
	var zero int32
	data := []any{optInt32(mf.AddedFilesCount), optInt32(mf.ExistingFilesCount), optInt32(mf.DeletedFilesCount)}
	dels := []any{zero, zero, zero}
	if mf.Content == catalog.ManifestDeletes {
		data, dels = dels, data
	}
	row := []any{int32(mf.Content), mf.Path, mf.Length, int32(mf.SpecID), mf.AddedSnapshotID}
	row = append(row, data...)
	row = append(row, dels...)
	return append(row, s.partitionSummaries(mf))
}

// partitionSummaries renders a manifest's partition field summaries with
// bounds in their human-readable form, as Spark does.
func (s *Source) partitionSummaries(mf *catalog.ManifestFile) any {
	spec := s.Meta.SpecByID(mf.SpecID)
	items := []string{}
	for i, p := range mf.Partitions {
		var f *catalog.PartitionField
		var t *catalog.PrimitiveType
		if spec != nil && i < len(spec.Fields) {
			f = &spec.Fields[i]
			t = s.partitionFieldType(*f)
		}
		var o mjObj
		o.Add("contains_null", strconv.FormatBool(p.ContainsNull))
		if p.ContainsNaN != nil {
			o.Add("contains_nan", strconv.FormatBool(*p.ContainsNaN))
		} else {
			o.Add("contains_nan", "null")
		}
		o.Add("lower_bound", humanBound(p.LowerBound, f, t))
		o.Add("upper_bound", humanBound(p.UpperBound, f, t))
		items = append(items, o.String())
	}
	return mjArray(items)
}

// partitionFieldType is the type of a partition field's values over the
// current schema, nil when unknown (its source column was dropped).
func (s *Source) partitionFieldType(f catalog.PartitionField) *catalog.PrimitiveType {
	schema := s.Meta.CurrentSchema()
	if schema == nil {
		return nil
	}
	t, err := catalog.PartitionResultType(f, schema)
	if err != nil {
		return nil
	}
	return t
}

// humanBound renders a partition bound as a JSON string of its
// human-readable form (null when absent or undecodable).
func humanBound(b []byte, f *catalog.PartitionField, t *catalog.PrimitiveType) string {
	if b == nil || t == nil || f == nil {
		return "null"
	}
	v, err := catalog.DecodeValue(t, b)
	if err != nil {
		return "null"
	}
	return mjString(humanPartitionValue(v, f.Transform.Name, t))
}

// humanPartitionValue renders a partition value as Iceberg's transforms
// print them: year 2024, month 2024-03, day 2024-03-05, hour
// 2024-03-05-10, others as the value.
func humanPartitionValue(v any, transform string, t *catalog.PrimitiveType) string {
	if n, ok := v.(int32); ok {
		switch transform {
		case "year":
			return strconv.Itoa(1970 + int(n))
		case "month":
			y, m := 1970+int(n)/12, int(n)%12
			if m < 0 {
				y, m = y-1, m+12
			}
			return fmt.Sprintf("%04d-%02d", y, m+1)
		case "day":
			return time.Unix(int64(n)*86400, 0).UTC().Format("2006-01-02")
		case "hour":
			return time.Unix(int64(n)*3600, 0).UTC().Format("2006-01-02-15")
		}
	}
	s := mjValue(v, t)
	if strings.HasPrefix(s, `"`) {
		s = strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
		s = strings.ReplaceAll(strings.ReplaceAll(s, `\"`, `"`), `\\`, `\`)
	}
	return s
}
