package translate

import (
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/dml"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
)

// dmlWithTracker catches two statements of one data-modifying WITH (the
// sub-statements and the outer statement) changing the same table rows.
// They all read the same snapshot, so the second would not see the
// first's change: PostgreSQL leaves which one wins undefined; icegate
// refuses the statement. A data file rewritten whole (copy-on-write, or
// merge-on-read past its rewrite threshold) or given a deletion vector
// (format 3) cannot take two such changes at all, so for those any two
// statements changing rows of one file are refused. Only statements with
// more than one change are tracked.
type dmlWithTracker struct {
	// Stmt numbers the statement running now (from 1).
	Stmt  int
	rows  map[dmlRowKey]int
	files map[string]fileTouch
	// removed are the data files a statement removed (rewrote or
	// dropped), by statement.
	removed map[string]int
}

// fileTouch is the first statement that changed rows of a data file.
type fileTouch struct {
	stmt    int
	perFile bool
}

type dmlRowKey struct {
	file string
	pos  int64
}

// dmlWithRun is what one run of a DMLPlan checks its removed rows with.
type dmlWithRun struct {
	t       *dmlWithTracker
	table   string
	perFile bool
}

// Run is the check for a run of plan p under the data-modifying WITH t
// tracks (nil when t is nil: nothing to track).
func (t *dmlWithTracker) Run(p *bind.DMLPlan, mode dml.Mode) *dmlWithRun {
	if t == nil {
		return nil
	}
	perFile := mode == dml.CopyOnWrite || p.Table.Metadata.FormatVersion >= 3
	return &dmlWithRun{t: t, table: p.Table.Ident.Name, perFile: perFile}
}

// Touch records that the running statement removes or replaces row pos
// of file.
func (r *dmlWithRun) Touch(file string, pos int64) error {
	t := r.t
	if t.rows == nil {
		t.rows, t.files = map[dmlRowKey]int{}, map[string]fileTouch{}
	}
	k := dmlRowKey{file, pos}
	if s, ok := t.rows[k]; ok && s != t.Stmt {
		return pgerr.New(pgerr.FeatureNotSupported, "a row of table \"%s\" is changed by two statements of one data-modifying WITH", r.table).
			WithHint("The statements all read the same snapshot, so neither sees the other's change; split the statement.")
	}
	t.rows[k] = t.Stmt
	f, ok := t.files[file]
	if !ok {
		t.files[file] = fileTouch{stmt: t.Stmt, perFile: r.perFile}
	} else if f.stmt != t.Stmt && (f.perFile || r.perFile) {
		return r.errFile()
	}
	if s, ok := t.removed[file]; ok && s != t.Stmt {
		return r.errFile()
	}
	return nil
}

// Finished checks the data files the statement's change removes: none
// may hold rows another statement changed.
func (r *dmlWithRun) Finished(removed []string) error {
	t := r.t
	for _, p := range removed {
		if f, ok := t.files[p]; ok && f.stmt != t.Stmt {
			return r.errFile()
		}
		if t.removed == nil {
			t.removed = map[string]int{}
		}
		t.removed[p] = t.Stmt
	}
	return nil
}

// dataFilePaths are the paths of files.
func dataFilePaths(files []*catalog.DataFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

func (r *dmlWithRun) errFile() error {
	return pgerr.Unsupported("changing rows of one data file of table \"%s\" in two statements of one data-modifying WITH when the file is rewritten or has a deletion vector", r.table).
		WithHint("Split the statement, or use write mode merge-on-read on a format 2 table.")
}
