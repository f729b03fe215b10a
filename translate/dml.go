package translate

import (
	"fmt"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/dml"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// dmlPlan is a bound row-level change: DELETE, UPDATE, MERGE, INSERT ...
// ON CONFLICT and INSERT ... RETURNING. It is a query (sel) whose rows
// each say what happens to one row of the target table; dml_exec.go runs
// it through an engine/dml Writer and commits the change.
//
// sel's output columns are, in order:
//
//	0  _file  text: the target row's data file (NULL: no target row, an insert)
//	1  _pos   int8: its position in that file
//	2  action int4: dmlNone, dmlDelete, dmlUpdate, dmlInsert or dmlCardinality
//	3  _row_id int8: the target row's row id in a format 3 table (NULL
//	   otherwise): a dmlUpdate's new row keeps it (row lineage)
//	4..4+len(cols)-1: the new row, one column per table column in schema
//	   order, typed as the table's column (cols[i].Arrow); read for
//	   dmlUpdate and dmlInsert only
//	then one column per RETURNING item (returning describes them)
//
// A dmlUpdate row removes the target row and writes the new one; dmlDelete
// removes; dmlInsert writes (its _file is NULL); dmlNone rows are skipped
// (a MERGE row no clause applies to, DO NOTHING). dmlCardinality makes the
// statement fail with 21000 and cardinality's message: binders emit it for
// what they detect themselves (two proposed rows of an upsert with the same
// key). A target row reached by more than one row of sel is dupFirst or
// dupError per dup (the executor detects it).
type dmlPlan struct {
	kind   dmlKind
	table  *catalog.Table
	schema *catalog.Schema // the table's current schema
	cols   []column        // its columns (columnsOf(schema))
	// target is the scan of the target table whose _file and _pos sel
	// reads (nil for a plain INSERT ... RETURNING): its snapshot is the
	// base of the change, and the pruning predicates lowering derives for
	// it are the change's conflict filter.
	target *plan.Scan
	sel    *plan.Select
	// returning describes the RETURNING columns (nil: no RETURNING).
	returning []pgtypes.Column
	dup       dupRule
	// cardinality is the 21000 error for dupError and dmlCardinality rows.
	cardinality cardinalityError
}

// dmlKind is the statement a dmlPlan came from: it picks the command tag
// and the table properties (write.<op>.mode, write.<op>.isolation-level).
type dmlKind int

const (
	dmlKindDelete dmlKind = iota // tag DELETE n; write.delete.*
	dmlKindUpdate                // tag UPDATE n; write.update.*
	dmlKindMerge                 // tag MERGE n; write.merge.*
	dmlKindInsert                // tag INSERT 0 n; an upsert uses write.merge.*
)

// Actions, the values of a dmlPlan's action column.
const (
	dmlNone        int32 = 0
	dmlDelete      int32 = 1
	dmlUpdate      int32 = 2
	dmlInsert      int32 = 3
	dmlCardinality int32 = 4
)

// dupRule is what a target row reached twice means.
type dupRule int

const (
	// dupFirst: the first row wins and later ones are ignored
	// (UPDATE ... FROM, DELETE ... USING, as PostgreSQL).
	dupFirst dupRule = iota
	// dupError: 21000 (MERGE, INSERT ... ON CONFLICT DO UPDATE).
	dupError
)

// cardinalityError is the message and hint of a 21000 error, as
// PostgreSQL words them for the statement.
type cardinalityError struct {
	message, hint string
}

// Layout of a dmlPlan's output.
const (
	dmlColFile   = 0
	dmlColPos    = 1
	dmlColAction = 2
	dmlColRowID  = 3
	dmlColValues = 4
)

// dmlOperation is the engine's name for a plan's kind (an upsert is a
// merge: it updates and inserts).
func (k dmlKind) operation() dml.Operation {
	switch k {
	case dmlKindDelete:
		return dml.OpDelete
	case dmlKindUpdate:
		return dml.OpUpdate
	}
	return dml.OpMerge
}

// tag is the command tag for n affected rows.
func (k dmlKind) tag(n int64) string {
	switch k {
	case dmlKindDelete:
		return fmt.Sprintf("DELETE %d", n)
	case dmlKindUpdate:
		return fmt.Sprintf("UPDATE %d", n)
	case dmlKindMerge:
		return fmt.Sprintf("MERGE %d", n)
	}
	return fmt.Sprintf("INSERT 0 %d", n)
}

func (c cardinalityError) err() error {
	e := pgerr.New(pgerr.CardinalityViolation, "%s", c.message)
	if c.hint != "" {
		e = e.WithHint("%s", c.hint)
	}
	return e
}
