package procedure

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// snapshot(source_table => '`parquet`.`/path`', table) makes a new
// Iceberg table of a directory of plain Parquet files, leaving the source
// as it is (Spark's snapshot, whose sources are Hive tables; here a path
// in the warehouse). The schema is the first file's columns; Hive-style
// column=value directories become identity partition columns (typed int,
// bigint or date when every value reads as one, else text) unless the
// files hold the column. The files are then added as add_files adds them;
// if that fails the new table is dropped again.

// tableCreator is the Env's optional methods snapshot needs.
type tableCreator interface {
	CreateTable(ctx context.Context, name string, spec catalog.TableSpec) (*catalog.Table, error)
	DropTable(ctx context.Context, t *catalog.Table) error
}

func snapshotTableProcedures() []*Procedure {
	return []*Procedure{{
		Name: "snapshot",
		Params: []Param{{Name: "source_table", Type: String, Required: true}, {Name: "table", Type: String, Required: true},
			{Name: "location", Type: String}, {Name: "properties", Type: Map}, {Name: "parallelism", Type: Int}},
		Columns: []pgtypes.Column{int8Column("imported_files_count")},
		Run:     snapshotTable,
	}}
}

func snapshotTable(ctx context.Context, env Env, args Args) ([][]any, error) {
	source, _ := args.String("source_table")
	table, _ := args.String("table")
	props, _ := args.Map("properties")
	if args.Has("location") {
		return nil, pgerr.NotYet("snapshot with a location (a table lives in the directory of its schema)")
	}
	tc, ok := env.(tableCreator)
	if !ok {
		return nil, pgerr.NotYet("snapshot with this catalog")
	}
	path, err := sourcePath(source, "snapshot")
	if err != nil {
		return nil, err
	}
	root, files, err := sourceFiles(env, path)
	if err != nil {
		return nil, err
	}
	spec, err := inferTableSpec(root, files)
	if err != nil {
		return nil, err
	}
	spec.Properties = props
	t, err := tc.CreateTable(ctx, table, spec)
	if err != nil {
		return nil, err
	}
	added, _, err := importFiles(ctx, env, table, root, files, nil, true)
	if err != nil {
		if derr := tc.DropTable(context.WithoutCancel(ctx), t); derr != nil {
			return nil, fmt.Errorf("%w (and dropping the new table failed: %v)", err, derr)
		}
		return nil, err
	}
	return [][]any{{added}}, nil
}

// inferTableSpec is the table snapshot creates for files: the first
// file's columns, then the partition directories' columns.
func inferTableSpec(root string, files []string) (catalog.TableSpec, error) {
	schema, err := write.ParquetSchema(files[0])
	if err != nil {
		return catalog.TableSpec{}, err
	}
	keys, values, err := partitionDirs(root, files)
	if err != nil {
		return catalog.TableSpec{}, err
	}
	spec := &catalog.PartitionSpec{}
	for _, k := range keys {
		id := 0
		for _, f := range schema.Fields {
			if strings.EqualFold(f.Name, k) {
				id = f.ID
			}
		}
		if id == 0 {
			id = len(schema.Fields) + 1
			schema.Fields = append(schema.Fields, catalog.NestedField{ID: id, Name: k, Type: inferPartitionType(values[k])})
		}
		spec.Fields = append(spec.Fields, catalog.PartitionField{SourceID: id, FieldID: 1000 + len(spec.Fields), Name: k,
			Transform: catalog.Transform{Name: "identity"}})
	}
	out := catalog.TableSpec{Schema: schema}
	if len(spec.Fields) > 0 {
		out.Spec = spec
	}
	return out, nil
}

// partitionDirs lists the column=value directory keys of the files, in
// the order the first file's path has them (every file must have the
// same keys), and the values each key takes.
func partitionDirs(root string, files []string) ([]string, map[string][]string, error) {
	var keys []string
	values := map[string][]string{}
	for i, f := range files {
		rel, err := filepath.Rel(root, filepath.Dir(f))
		if err != nil {
			return nil, nil, err
		}
		var these []string
		for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
			k, v, found := strings.Cut(c, "=")
			if !found || k == "" {
				continue
			}
			if u, err := url.PathUnescape(v); err == nil {
				v = u
			}
			these = append(these, k)
			if v != hiveNull {
				values[k] = append(values[k], v)
			}
		}
		if i == 0 {
			keys = these
		} else if strings.Join(these, "/") != strings.Join(keys, "/") {
			return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "file \"%s\" is under partition directories %v, not %v as the first file", f, these, keys)
		}
	}
	return keys, values, nil
}

// inferPartitionType types a partition column by its directory values.
func inferPartitionType(vals []string) catalog.Type {
	isInt, isLong, isDate := len(vals) > 0, len(vals) > 0, len(vals) > 0
	for _, v := range vals {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			isInt, isLong = false, false
		} else if n < math.MinInt32 || n > math.MaxInt32 {
			isInt = false
		}
		if _, err := time.Parse("2006-01-02", v); err != nil {
			isDate = false
		}
	}
	switch {
	case isInt:
		return &catalog.PrimitiveType{ID: catalog.TInt}
	case isLong:
		return &catalog.PrimitiveType{ID: catalog.TLong}
	case isDate:
		return &catalog.PrimitiveType{ID: catalog.TDate}
	}
	return &catalog.PrimitiveType{ID: catalog.TString}
}
