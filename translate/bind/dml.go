package bind

import (
	"fmt"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/dml"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// DMLPlan is a bound row-level change: DELETE, UPDATE, MERGE, INSERT ...
// ON CONFLICT and INSERT ... RETURNING. It is a query (Sel) whose rows
// each say what happens to one row of the target table; translate's
// dml_exec.go runs it through an engine/dml Writer and commits the change.
//
// Sel's output columns are, in order:
//
//	0  _file  text: the target row's data file (NULL: no target row, an insert)
//	1  _pos   int8: its position in that file
//	2  action int4: DMLNone, dmlDelete, DMLUpdate, DMLInsert or DMLCardinality
//	3  _row_id int8: the target row's row id in a format 3 table (NULL
//	   otherwise): a DMLUpdate's new row keeps it (row lineage)
//	4..4+len(Cols)-1: the new row, one column per table column in schema
//	   order, typed as the table's column (Cols[i].Arrow); read for
//	   DMLUpdate and DMLInsert only
//	then one column per RETURNING item (Returning describes them)
//
// A DMLUpdate row removes the target row and writes the new one; dmlDelete
// removes; DMLInsert writes (its _file is NULL); DMLNone rows are skipped
// (a MERGE row no clause applies to, DO NOTHING). DMLCardinality makes the
// statement fail with 21000 and Cardinality's message: binders emit it for
// what they detect themselves (two proposed rows of an upsert with the same
// key). A target row reached by more than one row of Sel is DupFirst or
// DupError per Dup (the executor detects it).
type DMLPlan struct {
	Kind   dmlKind
	Table  *catalog.Table
	Schema *catalog.Schema // the table's current schema
	Cols   []Column        // its columns (ColumnsOf(schema))
	// Target is the scan of the target table whose _file and _pos Sel
	// reads (nil for a plain INSERT ... RETURNING): its snapshot is the
	// base of the change, and the pruning predicates lowering derives for
	// it are the change's conflict filter.
	Target *plan.Scan
	Sel    *plan.Select
	// Returning describes the RETURNING columns (nil: no RETURNING).
	Returning []pgtypes.Column
	Dup       dupRule
	// Cardinality is the 21000 error for DupError and DMLCardinality rows.
	Cardinality cardinalityError
}

// dmlKind is the statement a DMLPlan came from: it picks the command tag
// and the table properties (write.<op>.mode, write.<op>.isolation-level).
type dmlKind int

const (
	DMLKindDelete dmlKind = iota // tag DELETE n; write.delete.*
	DMLKindUpdate                // tag UPDATE n; write.update.*
	DMLKindMerge                 // tag MERGE n; write.merge.*
	DMLKindInsert                // tag INSERT 0 n; an upsert uses write.merge.*
)

// Actions, the values of a DMLPlan's action column.
const (
	DMLNone        int32 = 0
	dmlDelete      int32 = 1
	DMLUpdate      int32 = 2
	DMLInsert      int32 = 3
	DMLCardinality int32 = 4
)

// dupRule is what a target row reached twice means.
type dupRule int

const (
	// DupFirst: the first row wins and later ones are ignored
	// (UPDATE ... FROM, DELETE ... USING, as PostgreSQL).
	DupFirst dupRule = iota
	// DupError: 21000 (MERGE, INSERT ... ON CONFLICT DO UPDATE).
	DupError
)

// cardinalityError is the message and hint of a 21000 error, as
// PostgreSQL words them for the statement.
type cardinalityError struct {
	Message, Hint string
}

// Layout of a DMLPlan's output.
const (
	DmlColFile   = 0
	DmlColPos    = 1
	DmlColAction = 2
	DmlColRowID  = 3
	DmlColValues = 4
)

// Operation is the engine's name for a plan's kind (an upsert is a
// merge: it updates and inserts).
func (k dmlKind) Operation() dml.Operation {
	switch k {
	case DMLKindDelete:
		return dml.OpDelete
	case DMLKindUpdate:
		return dml.OpUpdate
	}
	return dml.OpMerge
}

// Tag is the command tag for n affected rows.
func (k dmlKind) Tag(n int64) string {
	switch k {
	case DMLKindDelete:
		return fmt.Sprintf("DELETE %d", n)
	case DMLKindUpdate:
		return fmt.Sprintf("UPDATE %d", n)
	case DMLKindMerge:
		return fmt.Sprintf("MERGE %d", n)
	}
	return fmt.Sprintf("INSERT 0 %d", n)
}

func (c cardinalityError) Err() error {
	e := pgerr.New(pgerr.CardinalityViolation, "%s", c.Message)
	if c.Hint != "" {
		e = e.WithHint("%s", c.Hint)
	}
	return e
}
