package procedure

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// add_files(table, source_table => '`parquet`.`/path`') adds plain Parquet
// files (one file, or every *.parquet file under a directory) to a table,
// as Spark's add_files does, in one append commit. The source must lie in
// the warehouse; a table reads only files under its own directory, so the
// files are copied into its data directory (the source is left alone).
// Their columns are matched by name: the commit sets the table's name
// mapping (schema.name-mapping.default) when it has none, so every reader
// finds them. With check_duplicate_files (the default) a file added before
// and still in the table is refused with 55000. A table partitioned by
// identity transforms takes Hive-style files: each file's partition values
// come from the column=value directories above it (NULL for
// __HIVE_DEFAULT_PARTITION__), and partition_filter picks some of them.

func addFilesProcedures() []*Procedure {
	return []*Procedure{{
		Name: "add_files",
		Params: []Param{tableParam, {Name: "source_table", Type: String, Required: true},
			{Name: "partition_filter", Type: Map}, {Name: "check_duplicate_files", Type: Bool, Default: true},
			{Name: "parallelism", Type: Int}},
		Columns: []pgtypes.Column{int8Column("added_files_count"), int8Column("changed_partition_count")},
		Run:     addFiles,
	}}
}

// sourcePattern is Spark's `format`.`path` source of add_files.
var sourcePattern = regexp.MustCompile("^`?([A-Za-z]+)`?\\.`(.+)`$")

func addFiles(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	source, _ := args.String("source_table")
	check, _ := args.Bool("check_duplicate_files")
	filter, _ := args.Map("partition_filter")
	path, err := sourcePath(source, "add_files")
	if err != nil {
		return nil, err
	}
	root, files, err := sourceFiles(env, path)
	if err != nil {
		return nil, err
	}
	added, changed, err := importFiles(ctx, env, table, root, files, filter, check)
	if err != nil {
		return nil, err
	}
	return [][]any{{added, changed}}, nil
}

// sourcePath reads Spark's `parquet`.`/path` source of add_files and
// snapshot; what names the procedure in errors.
func sourcePath(source, what string) (string, error) {
	m := sourcePattern.FindStringSubmatch(strings.TrimSpace(source))
	if m == nil {
		return "", pgerr.NotYet(what + " from a table (\"" + source + "\"); the source is written `parquet`.`/path`")
	}
	if format := strings.ToLower(m[1]); format != "parquet" {
		return "", pgerr.NotYet(what + " of " + format + " files")
	}
	return m[2], nil
}

// importFiles copies the Parquet files (under root) into the table and
// commits them in one append: add_files' work once the source is listed.
// It returns the files added and the partitions they went to.
func importFiles(ctx context.Context, env Env, table, root string, files []string, filter map[string]string, check bool) (int64, int64, error) {
	t, mc, err := env.Table(ctx, table)
	if err != nil {
		return 0, 0, err
	}
	schema := t.Metadata.CurrentSchema()
	parts, err := identityPartitions(t.Metadata)
	if err != nil {
		return 0, 0, err
	}
	for k := range filter {
		if !slices.ContainsFunc(parts, func(p partColumn) bool { return p.matches(k) }) {
			return 0, 0, pgerr.New(pgerr.InvalidParameterValue, "partition_filter names \"%s\", which is not a partition column of the table", k)
		}
	}
	// Each file's partition tuple from its key=value directories.
	tuples := make([][]any, 0, len(files))
	kept := files[:0]
	for _, f := range files {
		tuple, ok, err := partitionOf(root, f, parts, filter)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			kept = append(kept, f)
			tuples = append(tuples, tuple)
		}
	}
	files = kept
	if len(files) == 0 {
		return 0, 0, nil
	}
	fromPartition := map[int]bool{}
	for _, p := range parts {
		fromPartition[p.field.ID] = true
	}
	live := map[string]bool{}
	if check {
		tasks, err := catalog.PlanFiles(ctx, t, t.Metadata.CurrentSnapshot())
		if err != nil {
			return 0, 0, err
		}
		for _, task := range tasks {
			live[task.File.Path] = true
		}
	}
	out, err := mc.NewOutput(t)
	if err != nil {
		return 0, 0, err
	}
	var added []*catalog.DataFile
	committed := false
	defer func() {
		if !committed {
			for _, df := range added {
				out.Remove(context.WithoutCancel(ctx), df.Path)
			}
		}
	}()
	var dup []string
	dataDir := catalog.DataLocation(t.Metadata)
	changed := map[string]bool{}
	for i, src := range files {
		sum := sha256.Sum256([]byte(src))
		dst := dataDir + "/imported-" + hex.EncodeToString(sum[:8]) + "-" + filepath.Base(src)
		if live[dst] {
			dup = append(dup, src)
			continue
		}
		if !check {
			dst = dataDir + "/imported-" + randomHex() + "-" + filepath.Base(src)
		}
		df, err := write.ImportParquet(ctx, src, out, dst, schema, fromPartition)
		if err != nil && errors.Is(err, catalog.ErrAlreadyExists) {
			// Added before and since removed from the table: the old copy
			// may still be read by time travel.
			df, err = write.ImportParquet(ctx, src, out, dataDir+"/imported-"+randomHex()+"-"+filepath.Base(src), schema, fromPartition)
		}
		if err != nil {
			return 0, 0, err
		}
		df.SpecID = t.Metadata.DefaultSpecID
		df.Partition = tuples[i]
		changed[fmt.Sprint(tuples[i]...)] = true
		added = append(added, df)
	}
	if len(dup) > 0 {
		return 0, 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot add files that the table already holds: %s", strings.Join(dup, ", ")).
			WithHint("check_duplicate_files => false adds them again.")
	}
	ch := &catalog.Change{AddedDataFiles: added, Operation: "append"}
	if err := commitWithProperties(ctx, env, table, ch, func(m *catalog.TableMetadata) (map[string]string, error) {
		if _, ok := m.Properties[catalog.NameMappingProperty]; ok {
			return nil, nil
		}
		mapping, err := catalog.NameMapping(m.CurrentSchema())
		return map[string]string{catalog.NameMappingProperty: mapping}, err
	}); err != nil {
		return 0, 0, err
	}
	committed = true
	return int64(len(added)), int64(len(changed)), nil
}

// partColumn is an identity partition field of the table's spec and its
// source column.
type partColumn struct {
	pf    catalog.PartitionField
	field *catalog.NestedField
}

// matches reports whether a directory key or filter key names the column
// (its name or the partition field's, in any case).
func (p partColumn) matches(key string) bool {
	return strings.EqualFold(key, p.field.Name) || strings.EqualFold(key, p.pf.Name)
}

// identityPartitions lists the fields of the table's default spec; add_files
// takes only identity partitions, whose values the files' directories give.
func identityPartitions(m *catalog.TableMetadata) ([]partColumn, error) {
	spec := m.SpecByID(m.DefaultSpecID)
	if spec == nil {
		return nil, nil
	}
	var out []partColumn
	for _, pf := range spec.Fields {
		f := m.CurrentSchema().FindField(pf.SourceID)
		if pf.Transform.Name != "identity" || f == nil {
			return nil, pgerr.NotYet("add_files into a table partitioned by " + pf.Transform.Name + "(" + pf.Name + ")")
		}
		p, ok := f.Type.(*catalog.PrimitiveType)
		if !ok || !slices.Contains([]catalog.TypeID{catalog.TBoolean, catalog.TInt, catalog.TLong, catalog.TDate, catalog.TString}, p.ID) {
			return nil, pgerr.NotYet("add_files into a table partitioned by a column of type " + f.Type.String())
		}
		out = append(out, partColumn{pf: pf, field: f})
	}
	return out, nil
}

// hiveNull is the directory value Hive and Spark write for NULL.
const hiveNull = "__HIVE_DEFAULT_PARTITION__"

// partitionOf reads a file's partition tuple from the key=value
// directories between root and it; ok is false when partition_filter
// leaves it out.
func partitionOf(root, file string, parts []partColumn, filter map[string]string) (tuple []any, ok bool, err error) {
	if len(parts) == 0 {
		return []any{}, true, nil
	}
	rel, err := filepath.Rel(root, filepath.Dir(file))
	if err != nil {
		return nil, false, err
	}
	dirs := map[string]string{}
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if k, v, found := strings.Cut(c, "="); found {
			if u, err := url.PathUnescape(v); err == nil {
				v = u
			}
			dirs[strings.ToLower(k)] = v
		}
	}
	for k, v := range filter {
		if dirs[strings.ToLower(k)] != v {
			return nil, false, nil
		}
	}
	for _, p := range parts {
		raw, found := dirs[strings.ToLower(p.field.Name)]
		if !found {
			raw, found = dirs[strings.ToLower(p.pf.Name)]
		}
		if !found {
			return nil, false, pgerr.New(pgerr.InvalidParameterValue, "file \"%s\" is in no directory %s=<value>", file, p.field.Name).
				WithHint("add_files takes the files of a partitioned table from directories named column=value, one level per partition column.")
		}
		v, err := partitionValue(raw, p.field)
		if err != nil {
			return nil, false, err
		}
		if v == nil && p.field.Required {
			return nil, false, pgerr.New(pgerr.NotNullViolation, "file \"%s\" is in the NULL partition of column \"%s\", which is NOT NULL", file, p.field.Name)
		}
		tuple = append(tuple, v)
	}
	return tuple, true, nil
}

// partitionValue converts a directory's value to the column's type.
func partitionValue(raw string, f *catalog.NestedField) (any, error) {
	if raw == hiveNull {
		return nil, nil
	}
	bad := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid partition value \"%s\" for column \"%s\" of type %s", raw, f.Name, f.Type)
	}
	switch f.Type.(*catalog.PrimitiveType).ID {
	case catalog.TBoolean:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, bad()
		}
		return b, nil
	case catalog.TInt:
		i, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			return nil, bad()
		}
		return int32(i), nil
	case catalog.TLong:
		i, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, bad()
		}
		return i, nil
	case catalog.TDate:
		d, err := time.Parse("2006-01-02", raw)
		if err != nil {
			return nil, bad()
		}
		return int32(d.Unix() / 86400), nil
	}
	return raw, nil
}

// sourceFiles lists the Parquet files of a source path: the file itself,
// or the *.parquet files under a directory (names starting with . or _,
// Spark's _SUCCESS and checksum files, skipped), sorted. The path must be
// in the warehouse. root is where partition directories start: the
// directory given, or for a single file the warehouse.
func sourceFiles(env Env, path string) (root string, files []string, err error) {
	w, ok := env.(interface{ Warehouse() (string, bool) })
	if !ok {
		return "", nil, pgerr.NotYet("add_files with this catalog")
	}
	warehouse, ok := w.Warehouse()
	if !ok {
		return "", nil, pgerr.NotYet("add_files with this catalog")
	}
	local := strings.TrimPrefix(strings.TrimPrefix(path, "file://"), "file:")
	if !filepath.IsAbs(local) {
		return "", nil, pgerr.New(pgerr.InvalidParameterValue, "source path \"%s\" is not absolute", path)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(local))
	if err != nil {
		return "", nil, pgerr.Wrap(err, pgerr.UndefinedFile, "could not find \"%s\"", path)
	}
	wroot, err := filepath.EvalSymlinks(warehouse)
	if err != nil {
		return "", nil, err
	}
	if real != wroot && !strings.HasPrefix(real, wroot+string(filepath.Separator)) {
		return "", nil, pgerr.New(pgerr.InsufficientPrivilege, "source path \"%s\" is outside the warehouse", path).
			WithHint("add_files reads files inside the warehouse directory only.")
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", nil, pgerr.Wrap(err, pgerr.UndefinedFile, "could not stat \"%s\": %v", path, err)
	}
	if !st.IsDir() {
		return wroot, []string{real}, nil
	}
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != real && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(strings.ToLower(name), ".parquet") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", nil, pgerr.Wrap(err, pgerr.IOError, "could not list \"%s\": %v", path, err)
	}
	if len(files) == 0 {
		return "", nil, pgerr.New(pgerr.InvalidParameterValue, "no Parquet files under \"%s\"", path)
	}
	slices.Sort(files)
	return real, files, nil
}

func randomHex() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// commitWithProperties commits a file change on main, with the table
// properties props asks for in the same commit. A lost race stages again
// on the reloaded table (twice at most; then the conflict is returned).
func commitWithProperties(ctx context.Context, env Env, table string, ch *catalog.Change,
	props func(m *catalog.TableMetadata) (map[string]string, error)) error {
	for attempt := 0; ; attempt++ {
		t, mc, err := env.Table(ctx, table)
		if err != nil {
			return err
		}
		ch.BaseSnapshotID = refHead(t.Metadata, "main")
		out, err := mc.NewOutput(t)
		if err != nil {
			return err
		}
		st, err := catalog.StageChange(ctx, out, t, ch)
		if err != nil {
			return err
		}
		updates := st.Updates
		p, err := props(t.Metadata)
		if err != nil {
			st.Discard(ctx)
			return err
		}
		if len(p) > 0 {
			updates = append(slices.Clip(updates), catalog.SetProperties{Updates: p})
		}
		_, err = mc.CommitTable(ctx, t.Ident, st.Requirements, updates)
		if err == nil {
			return nil
		}
		st.Discard(ctx)
		if !errors.Is(err, catalog.ErrCommitConflict) || attempt >= 2 {
			return err
		}
	}
}
