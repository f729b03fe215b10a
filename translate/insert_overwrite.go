package translate

import (
	"context"
	"fmt"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
)

// Spark's INSERT OVERWRITE t [PARTITION (...)] query and INSERT INTO t
// PARTITION (...) query (parse/dialect_insert.go).
//
// Which rows an overwrite replaces follows Spark's
// spark.sql.sources.partitionOverwriteMode, a session setting (Spark's
// default, which Iceberg's documentation keeps, is static):
//   - static: the rows the PARTITION clause's static values select (its
//     columns must be identity partition columns), or the whole table
//     without one;
//   - dynamic: the partitions (of the table's current spec) the query
//     writes rows into; the whole table when it is unpartitioned.
//
// The new files and the files replaced are one commit of operation
// "overwrite", validated against what was committed since the snapshot
// read: a replaced file removed or given new deletes concurrently, or new
// data that may fall in the replaced partitions, is 40001.

const settingOverwriteMode = "spark.sql.sources.partitionOverwriteMode"

// sparkInsertOf is the Spark clauses of an INSERT (nil: none).
func sparkInsertOf(ps parse.Stmt) *parse.SparkInsert {
	if ps.Extras != nil {
		return ps.Extras.Insert
	}
	return nil
}

// overwriteMode is the session's partition overwrite mode.
func (s *session) overwriteMode() (string, error) {
	v, _ := s.settings.Get(settingOverwriteMode)
	switch m := strings.ToLower(strings.TrimSpace(v)); m {
	case "", "static":
		return "static", nil
	case "dynamic":
		return "dynamic", nil
	default:
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for %s: \"%s\"", settingOverwriteMode, v).
			WithHint("Valid values are static and dynamic.")
	}
}

// identityField is the position of the identity partition field of spec
// on source field id, or -1.
func identityField(spec *catalog.PartitionSpec, id int) int {
	if spec == nil {
		return -1
	}
	for i, f := range spec.Fields {
		if f.SourceID == id && f.Transform.Name == "identity" {
			return i
		}
	}
	return -1
}

// unpartitioned reports a spec without fields (void ones aside).
func unpartitioned(spec *catalog.PartitionSpec) bool {
	if spec == nil {
		return true
	}
	for _, f := range spec.Fields {
		if f.Transform.Name != "void" {
			return false
		}
	}
	return true
}

// checkPartitionClause checks that the columns of PARTITION (...) are
// identity partition columns of t's current spec, as Spark requires.
func checkPartitionClause(ps parse.Stmt, p *bind.InsertPlan, x *parse.SparkInsert) error {
	m := p.Table.Metadata
	spec := m.SpecByID(m.DefaultSpecID)
	for _, pv := range x.Partition {
		i := bind.FindColumn(p.Cols, pv.Column, false)
		if i < 0 || identityField(spec, p.Schema.Fields[i].ID) < 0 {
			return pgerr.New(pgerr.InvalidColumnReference, "column \"%s\" in PARTITION is not a partition column of table \"%s\"", pv.Column, p.Table.Ident.Name).
				WithHint("PARTITION names columns the table is partitioned by identity.").
				WithPosition(parse.CharPos(ps.SQL, int32(pv.Loc)))
		}
	}
	return nil
}

// valueKey is a partition value as a comparable key.
func valueKey(v any) string {
	if v == nil {
		return "\x00null"
	}
	if b, ok := v.([]byte); ok {
		return "b:" + string(b)
	}
	return fmt.Sprint(v)
}

// tupleKey is a partition tuple as a comparable key.
func tupleKey(tuple []any) string {
	var b strings.Builder
	for _, v := range tuple {
		b.WriteString(valueKey(v))
		b.WriteByte(0xff)
	}
	return b.String()
}

// staticValues evaluates the static values of PARTITION (...): by field id.
func (s *session) staticValues(ctx context.Context, ps parse.Stmt, p *bind.InsertPlan, x *parse.SparkInsert) (map[int]any, error) {
	out := map[int]any{}
	b := bind.New(ctx, s, ps, &bind.ParamSet{}, time.Now())
	for _, pv := range x.Partition {
		if pv.Value == "" {
			continue
		}
		f := p.Schema.Fields[bind.FindColumn(p.Cols, pv.Column, false)]
		node, err := b.StaticValueNode(pv)
		if err != nil {
			return nil, err
		}
		if !constantDefault(node) {
			return nil, pgerr.Unsupported("a PARTITION value other than a constant").
				WithHint("The static value of column \"%s\" decides the partition the overwrite replaces: write it as a literal.", pv.Column).
				WithPosition(parse.CharPos(ps.SQL, int32(pv.ValueLoc)))
		}
		v, err := s.columnDefault(ctx, ps, f, node)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "the PARTITION value of column \"%s\" is null", pv.Column).
				WithPosition(parse.CharPos(ps.SQL, int32(pv.ValueLoc)))
		}
		out[f.ID] = v
	}
	return out, nil
}

// overwriteRows writes the rows of op into p's table, replacing the rows
// the overwrite mode selects, in one commit; it returns the rows written.
func (s *session) overwriteRows(ctx context.Context, mc catalog.MutableCatalog, ps parse.Stmt, p *bind.InsertPlan, op engine.Operator, x *parse.SparkInsert, wo writeOptions) (n int64, err error) {
	defer func() {
		if cerr := op.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	mode, err := s.overwriteMode()
	if err != nil {
		return 0, err
	}
	t := p.Table
	m := t.Metadata
	var static map[int]any
	if mode == "static" {
		if static, err = s.staticValues(ctx, ps, p, x); err != nil {
			return 0, err
		}
	}
	// The snapshot whose rows are replaced: the head of the branch written.
	base := s.ReadSnapshot(t)
	if p.Branch != "" {
		base = m.SnapshotByID(m.Refs[p.Branch].SnapshotID)
	}
	tw, err := s.newTableWrite(ctx, mc, t, p.Schema, wo)
	if err != nil {
		return 0, err
	}
	tw.branch = p.Branch
	if err := op.Open(ctx); err != nil {
		tw.abort()
		return 0, statementErr(ctx, err)
	}
	for {
		b, err := op.Next()
		if err != nil {
			tw.abort()
			return 0, statementErr(ctx, err)
		}
		if b == nil {
			break
		}
		if err := tw.write(b); err != nil {
			return 0, err
		}
	}
	files, err := tw.w.Close()
	if err != nil {
		return 0, writeError(err, t)
	}
	ch, err := overwriteChange(ctx, t, base, mode, static, files)
	if err != nil {
		tw.abort()
		return 0, err
	}
	ch.Branch = p.Branch
	if len(ch.AddedDataFiles) == 0 && len(ch.RemovedDataFiles) == 0 {
		return 0, nil
	}
	wo.addTo(ch)
	if err := s.commitChange(ctx, mc, t, ch, tw.abort); err != nil {
		return 0, err
	}
	return tw.rows, nil
}

// overwriteChange is the change that adds files and replaces the files of
// base the mode selects.
func overwriteChange(ctx context.Context, t *catalog.Table, base *catalog.Snapshot, mode string, static map[int]any, files []*catalog.DataFile) (*catalog.Change, error) {
	m := t.Metadata
	spec := m.SpecByID(m.DefaultSpecID)
	ch := &catalog.Change{AddedDataFiles: files, Operation: "overwrite", Isolation: catalog.Serializable}
	if base == nil {
		return ch, nil
	}
	id := base.SnapshotID
	ch.BaseSnapshotID = &id
	tasks, err := catalog.PlanFiles(ctx, t, base)
	if err != nil {
		return nil, catalogError(err, kindTable, t.Ident.Name)
	}
	var replaced func(task catalog.FileScanTask) (bool, error)
	switch {
	case mode == "static" && len(static) == 0, mode == "dynamic" && unpartitioned(spec):
		replaced = func(catalog.FileScanTask) (bool, error) { return true, nil }
	case mode == "static":
		keys := map[int]string{}
		for fid, v := range static {
			keys[fid] = valueKey(v)
			ch.ConflictFilter = append(ch.ConflictFilter, catalog.Predicate{FieldID: fid, Op: catalog.OpEq, Values: []any{v}})
		}
		replaced = func(task catalog.FileScanTask) (bool, error) {
			for fid, key := range keys {
				i := identityField(task.Spec, fid)
				if i < 0 || i >= len(task.File.Partition) {
					col := m.CurrentSchema().FindField(fid)
					return false, pgerr.New(pgerr.FeatureNotSupported, "cannot overwrite by PARTITION: data file %s was written with a partitioning without column \"%s\"", task.File.Path, col.Name).
						WithHint("Rewrite the table's older files into the current partitioning first, or use the dynamic overwrite mode.")
				}
				if valueKey(task.File.Partition[i]) != key {
					return false, nil
				}
			}
			return true, nil
		}
	default: // dynamic
		written := map[string]bool{}
		values := make([]map[string]any, len(spec.Fields))
		for i := range values {
			values[i] = map[string]any{}
		}
		for _, f := range files {
			written[tupleKey(f.Partition)] = true
			for i, v := range f.Partition {
				if i < len(values) {
					values[i][valueKey(v)] = v
				}
			}
		}
		// New data in the partitions written is a conflict: an IN list
		// per identity field bounds them (other transforms: any data).
		allIdentity := true
		for _, f := range spec.Fields {
			allIdentity = allIdentity && f.Transform.Name == "identity"
		}
		if allIdentity {
			for i, f := range spec.Fields {
				var in []any
				for _, v := range values[i] {
					if v == nil {
						in = nil
						break
					}
					in = append(in, v)
				}
				if in != nil {
					ch.ConflictFilter = append(ch.ConflictFilter, catalog.Predicate{FieldID: f.SourceID, Op: catalog.OpIn, Values: in})
				}
			}
		}
		replaced = func(task catalog.FileScanTask) (bool, error) {
			return task.File.SpecID == spec.ID && written[tupleKey(task.File.Partition)], nil
		}
	}
	type use struct {
		file      *catalog.DataFile
		all, gone int
	}
	deletes := map[string]*use{}
	for _, task := range tasks {
		r, err := replaced(task)
		if err != nil {
			return nil, err
		}
		if r {
			ch.RemovedDataFiles = append(ch.RemovedDataFiles, task.File)
			ch.ReferencedDataFiles = append(ch.ReferencedDataFiles, task.File.Path)
		}
		for _, d := range task.Deletes {
			key := d.Path
			if d.ContentOffset != nil {
				key += fmt.Sprintf("@%d", *d.ContentOffset)
			}
			u := deletes[key]
			if u == nil {
				u = &use{file: d}
				deletes[key] = u
			}
			u.all++
			if r {
				u.gone++
			}
		}
	}
	// A delete file every file of which is replaced goes with them.
	for _, u := range deletes {
		if u.gone == u.all {
			ch.RemovedDeleteFiles = append(ch.RemovedDeleteFiles, u.file)
		}
	}
	return ch, nil
}

// checkSparkInsert refuses Spark's INSERT clauses with the PostgreSQL
// ones they cannot go with.
func checkSparkInsert(ps parse.Stmt, ins *pg.InsertStmt) error {
	x := sparkInsertOf(ps)
	if x == nil {
		return nil
	}
	switch {
	case ins.OnConflictClause != nil && x.Overwrite:
		return pgerr.Unsupported("INSERT OVERWRITE ... ON CONFLICT")
	case len(ins.ReturningList) > 0 && x.Overwrite:
		return pgerr.Unsupported("INSERT OVERWRITE ... RETURNING")
	case (ins.OnConflictClause != nil || len(ins.ReturningList) > 0) && x.HasPartition:
		return pgerr.Unsupported("INSERT ... PARTITION (...) with ON CONFLICT or RETURNING")
	}
	return nil
}
