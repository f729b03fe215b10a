package procedure

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// migrate(table) turns the warehouse directory of a table name that holds
// plain Parquet files (a Hive-style table another engine wrote there) into
// an Iceberg table of that name, as Spark's migrate does for Hive tables:
// the directory is renamed to the backup (backup_table_name, by default
// <name>_BACKUP_, a directory beside it), the table is created as snapshot
// creates one and the files are added from the backup. drop_backup
// removes the backup afterwards. A failure drops the new table and renames
// the backup back.

// migrator is the Env's optional methods migrate needs.
type migrator interface {
	tableCreator
	TableDirectory(ctx context.Context, name string) (string, error)
}

func migrateProcedures() []*Procedure {
	return []*Procedure{{
		Name: "migrate",
		Params: []Param{tableParam, {Name: "properties", Type: Map}, {Name: "drop_backup", Type: Bool, Default: false},
			{Name: "backup_table_name", Type: String}, {Name: "parallelism", Type: Int}},
		Columns: []pgtypes.Column{int8Column("migrated_files_count")},
		Run:     migrateTable,
	}}
}

func migrateTable(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	props, _ := args.Map("properties")
	dropBackup, _ := args.Bool("drop_backup")
	m, ok := env.(migrator)
	if !ok {
		return nil, pgerr.NotYet("migrate with this catalog")
	}
	dir, err := m.TableDirectory(ctx, table)
	if err != nil {
		return nil, err
	}
	if _, _, err := env.Table(ctx, table); err == nil {
		return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "table \"%s\" is an Iceberg table already", table)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, pgerr.New(pgerr.UndefinedTable, "no directory of Parquet files for table \"%s\"", table)
	}
	if _, err := os.Stat(filepath.Join(dir, "metadata")); err == nil {
		return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "the directory of table \"%s\" has Iceberg metadata: register_table registers it", table)
	}
	backupName := filepath.Base(dir) + "_BACKUP_"
	if b, ok := args.String("backup_table_name"); ok {
		backupName = b[strings.LastIndex(b, ".")+1:]
	}
	if backupName == "" || strings.ContainsAny(backupName, `/\`) || backupName == "." || backupName == ".." {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid backup table name \"%s\"", backupName)
	}
	backup := filepath.Join(filepath.Dir(dir), backupName)
	if _, err := os.Lstat(backup); err == nil {
		return nil, pgerr.New(pgerr.DuplicateTable, "backup \"%s\" of table \"%s\" exists already", backupName, table)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.Rename(dir, backup); err != nil {
		return nil, fmt.Errorf("migrate %s: rename to its backup: %w", table, err)
	}
	restore := func(err error) error {
		if rerr := os.Rename(backup, dir); rerr != nil {
			return fmt.Errorf("%w (and restoring %s from its backup %s failed: %v)", err, table, backupName, rerr)
		}
		return err
	}
	root, files, err := sourceFiles(env, backup)
	if err != nil {
		return nil, restore(err)
	}
	spec, err := inferTableSpec(root, files)
	if err != nil {
		return nil, restore(err)
	}
	spec.Properties = props
	t, err := m.CreateTable(ctx, table, spec)
	if err != nil {
		return nil, restore(err)
	}
	added, _, err := importFiles(ctx, env, table, root, files, nil, true)
	if err != nil {
		if derr := m.DropTable(context.WithoutCancel(ctx), t); derr != nil {
			return nil, fmt.Errorf("%w (and dropping the new table failed: %v; its files are in %s)", err, derr, backupName)
		}
		return nil, restore(err)
	}
	if dropBackup {
		if err := os.RemoveAll(backup); err != nil {
			env.Notice(ctx, fmt.Sprintf("migrated table %s, but its backup %s could not be removed: %v", table, backupName, err))
		}
	}
	return [][]any{{added}}, nil
}
