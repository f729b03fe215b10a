package procedure

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// compute_table_stats(table, snapshot_id, columns): Spark's procedure that
// estimates the number of distinct values (NDV) of columns of a snapshot
// and records them as the snapshot's statistics file:
//
//   - one Puffin blob of type apache-datasketches-theta-v1 per column: a
//     DataSketches compact theta sketch (k = 4096, seed 9001) of the
//     column's non-null values in Iceberg's single-value serialization,
//     with the property "ndv" (the estimate, truncated), stored
//     uncompressed, as Iceberg's Spark action writes them so that Spark and
//     Trino use them;
//   - the file goes into the table's metadata directory as
//     <snapshot-id>-<uuid>.stats and is committed with set-statistics,
//     replacing the snapshot's earlier statistics file in the metadata.
//
// The result is one row with the file's path (none for a table without
// snapshots). snapshot_id defaults to the current snapshot, columns to
// every top-level column of a primitive type in the snapshot's schema.

func statsProcedures() []*Procedure {
	return []*Procedure{
		{Name: "compute_table_stats",
			Params:  []Param{tableParam, {Name: "snapshot_id", Type: Long}, {Name: "columns", Type: StringList}},
			Columns: []pgtypes.Column{textColumn("statistics_file")}, Run: computeTableStats},
	}
}

// ThetaBlobType and NDVProperty are catalog's.
const (
	ThetaBlobType = catalog.ThetaBlobType
	NDVProperty   = catalog.NDVProperty
)

func computeTableStats(ctx context.Context, env Env, args Args) ([][]any, error) {
	name, _ := args.String("table")
	t, mc, err := env.Table(ctx, name)
	if err != nil {
		return nil, err
	}
	m := t.Metadata
	var snap *catalog.Snapshot
	if id, ok := args.Long("snapshot_id"); ok {
		if snap = m.SnapshotByID(id); snap == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "snapshot %d does not exist in table \"%s\"", id, name)
		}
	} else if m.CurrentSnapshotID != nil {
		snap = m.SnapshotByID(*m.CurrentSnapshotID)
	}
	if snap == nil {
		return nil, nil // nothing to compute: Spark returns no row
	}
	schema := m.CurrentSchema()
	if snap.SchemaID != nil {
		if s := m.SchemaByID(*snap.SchemaID); s != nil {
			schema = s
		}
	}
	names, _ := args.StringList("columns")
	cols, err := statsColumns(schema, names)
	if err != nil {
		return nil, err
	}
	sketches, err := sketchSnapshot(ctx, t, snap, schema, cols)
	if err != nil {
		return nil, err
	}

	blobs := make([]write.PuffinBlob, len(cols))
	metas := make([]catalog.BlobMetadata, len(cols))
	for i, col := range cols {
		f := col.field
		c := sketches[i].Compact()
		props := map[string]string{NDVProperty: strconv.FormatInt(c.NDV(), 10)}
		blobs[i] = write.PuffinBlob{Type: ThetaBlobType, Fields: []int{f.ID}, SnapshotID: snap.SnapshotID,
			SequenceNumber: snap.SequenceNumber, Properties: props, Data: c.Bytes()}
		metas[i] = catalog.BlobMetadata{Type: ThetaBlobType, Fields: []int{f.ID}, SnapshotID: snap.SnapshotID,
			SequenceNumber: snap.SequenceNumber, Properties: props}
	}
	out, err := mc.NewOutput(t)
	if err != nil {
		return nil, err
	}
	path := fmt.Sprintf("%s/%d-%s.stats", catalog.MetadataLocation(m), snap.SnapshotID, randomUUID())
	size, footer, err := writeStatsFile(ctx, out, path, blobs)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			// A failed or cancelled commit leaves no file behind.
			_ = out.Remove(context.WithoutCancel(ctx), path)
		}
	}()
	sf, err := catalog.NewStatisticsFile(snap.SnapshotID, path, size, footer, metas)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The statistics belong to the snapshot, not to a state of main: the
	// table's identity is the only requirement, and a snapshot expired
	// meanwhile makes set-statistics fail.
	_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: m.TableUUID}},
		[]catalog.Update{catalog.SetStatistics{Statistics: sf}})
	if err != nil {
		if errors.Is(err, catalog.ErrDataInvalid) {
			return nil, pgerr.Wrap(err, pgerr.SerializationFailure,
				"could not record statistics of snapshot %d: the table changed meanwhile", snap.SnapshotID)
		}
		return nil, err
	}
	committed = true
	return [][]any{{path}}, nil
}

// statsColumn is a column to compute statistics of: a primitive field,
// top-level or inside structs.
type statsColumn struct {
	field catalog.NestedField
	name  string // as the schema spells it, dotted below the top level
	top   int    // the top-level field it is in (or is)
	path  []int  // the child indices from the top-level struct down to it
}

// statsColumns are the columns to compute statistics of: the named ones
// (a dotted name reaches into structs, as Iceberg's findField does), or
// every top-level column of a primitive type.
func statsColumns(schema *catalog.Schema, names []string) ([]statsColumn, error) {
	var out []statsColumn
	if len(names) == 0 {
		for _, f := range schema.Fields {
			if sketchable(f.Type) {
				out = append(out, statsColumn{field: f, name: f.Name, top: f.ID})
			}
		}
		return out, nil
	}
	seen := map[int]bool{}
	for _, n := range names {
		c, ok := findStatsColumn(schema, n)
		if !ok {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", n)
		}
		if !sketchable(c.field.Type) {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot compute statistics of column \"%s\" of type %s: only primitive types", n, c.field.Type)
		}
		if !seen[c.field.ID] {
			seen[c.field.ID] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// findStatsColumn finds a column by name, case-insensitively: a top-level
// column of that name, else a path of struct fields.
func findStatsColumn(schema *catalog.Schema, name string) (statsColumn, bool) {
	for _, f := range schema.Fields {
		if strings.EqualFold(f.Name, name) {
			return statsColumn{field: f, name: f.Name, top: f.ID}, true
		}
	}
	fields := schema.Fields
	var c statsColumn
	var names []string
	for depth, part := range strings.Split(name, ".") {
		if fields == nil {
			return statsColumn{}, false
		}
		i := slices.IndexFunc(fields, func(f catalog.NestedField) bool { return strings.EqualFold(f.Name, part) })
		if i < 0 {
			return statsColumn{}, false
		}
		c.field = fields[i]
		names = append(names, fields[i].Name)
		if depth == 0 {
			c.top = fields[i].ID
		} else {
			c.path = append(c.path, i)
		}
		fields = nil
		if st, ok := fields0(c.field.Type); ok {
			fields = st
		}
	}
	c.name = strings.Join(names, ".")
	return c, true
}

// fields0 is the fields of a struct type.
func fields0(t catalog.Type) ([]catalog.NestedField, bool) {
	st, ok := t.(*catalog.StructType)
	if !ok {
		return nil, false
	}
	return st.Fields, true
}

// sketchable reports whether a column's values have a single-value
// serialization to sketch.
func sketchable(t catalog.Type) bool {
	p, ok := t.(*catalog.PrimitiveType)
	return ok && sketchableType(p)
}

// writeStatsFile writes the Puffin file, removing it when writing fails.
func writeStatsFile(ctx context.Context, out catalog.OutputIO, path string, blobs []write.PuffinBlob) (size, footer int64, err error) {
	w, err := out.Create(ctx, path)
	if err != nil {
		return 0, 0, err
	}
	size, footer, err = write.WritePuffin(w, blobs)
	if cerr := w.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close %s: %w", path, cerr)
	}
	if err != nil {
		_ = out.Remove(context.WithoutCancel(ctx), path)
		return 0, 0, err
	}
	return size, footer, nil
}

// randomUUID is a random (version 4) UUID in its text form.
func randomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
