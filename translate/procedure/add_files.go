package procedure

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

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
// and still in the table is refused with 55000.

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
	m := sourcePattern.FindStringSubmatch(strings.TrimSpace(source))
	if m == nil {
		return nil, pgerr.NotYet("add_files from a table (\"" + source + "\"); the source is written `parquet`.`/path`")
	}
	if format := strings.ToLower(m[1]); format != "parquet" {
		return nil, pgerr.NotYet("add_files of " + format + " files")
	}
	if args.Has("partition_filter") {
		return nil, pgerr.NotYet("add_files with partition_filter")
	}
	t, mc, err := env.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	if spec := t.Metadata.SpecByID(t.Metadata.DefaultSpecID); spec != nil && len(spec.Fields) > 0 {
		return nil, pgerr.NotYet("add_files into a partitioned table")
	}
	files, err := sourceFiles(env, m[2])
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	if check {
		tasks, err := catalog.PlanFiles(ctx, t, t.Metadata.CurrentSnapshot())
		if err != nil {
			return nil, err
		}
		for _, task := range tasks {
			live[task.File.Path] = true
		}
	}
	out, err := mc.NewOutput(t)
	if err != nil {
		return nil, err
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
	schema := t.Metadata.CurrentSchema()
	for _, src := range files {
		sum := sha256.Sum256([]byte(src))
		dst := dataDir + "/imported-" + hex.EncodeToString(sum[:8]) + "-" + filepath.Base(src)
		if live[dst] {
			dup = append(dup, src)
			continue
		}
		if !check {
			dst = dataDir + "/imported-" + randomHex() + "-" + filepath.Base(src)
		}
		df, err := write.ImportParquet(ctx, src, out, dst, schema)
		if err != nil && errors.Is(err, catalog.ErrAlreadyExists) {
			// Added before and since removed from the table: the old copy
			// may still be read by time travel.
			df, err = write.ImportParquet(ctx, src, out, dataDir+"/imported-"+randomHex()+"-"+filepath.Base(src), schema)
		}
		if err != nil {
			return nil, err
		}
		df.SpecID = t.Metadata.DefaultSpecID
		added = append(added, df)
	}
	if len(dup) > 0 {
		return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot add files that the table already holds: %s", strings.Join(dup, ", ")).
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
		return nil, err
	}
	committed = true
	changed := int64(0)
	if len(added) > 0 {
		changed = 1
	}
	return [][]any{{int64(len(added)), changed}}, nil
}

// sourceFiles lists the Parquet files of a source path: the file itself,
// or the *.parquet files under a directory (names starting with . or _,
// Spark's _SUCCESS and checksum files, skipped), sorted. The path must be
// in the warehouse.
func sourceFiles(env Env, path string) ([]string, error) {
	w, ok := env.(interface{ Warehouse() (string, bool) })
	if !ok {
		return nil, pgerr.NotYet("add_files with this catalog")
	}
	warehouse, ok := w.Warehouse()
	if !ok {
		return nil, pgerr.NotYet("add_files with this catalog")
	}
	local := strings.TrimPrefix(strings.TrimPrefix(path, "file://"), "file:")
	if !filepath.IsAbs(local) {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "source path \"%s\" is not absolute", path)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(local))
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.UndefinedFile, "could not find \"%s\"", path)
	}
	root, err := filepath.EvalSymlinks(warehouse)
	if err != nil {
		return nil, err
	}
	if real != root && !strings.HasPrefix(real, root+string(filepath.Separator)) {
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "source path \"%s\" is outside the warehouse", path).
			WithHint("add_files reads files inside the warehouse directory only.")
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.UndefinedFile, "could not stat \"%s\": %v", path, err)
	}
	if !st.IsDir() {
		return []string{real}, nil
	}
	var files []string
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
		return nil, pgerr.Wrap(err, pgerr.IOError, "could not list \"%s\": %v", path, err)
	}
	if len(files) == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "no Parquet files under \"%s\"", path)
	}
	slices.Sort(files)
	return files, nil
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
