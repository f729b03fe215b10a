package changelog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/plan"
)

// Rel reads the change log of a table.
type Rel struct {
	Table    *catalog.Table
	Schema   *catalog.Schema
	From, To *catalog.Snapshot // from nil: since the first snapshot
	Steps    []changeStep
	Name     string // as written, for EXPLAIN
	FieldIDs []int  // the table columns: cols[:len(fieldIDs)]
	// cols are the table's columns then _change_type, _change_ordinal and
	// _commit_snapshot_id.
	Cols []plan.ColID
}

func (r *Rel) OutCols() []plan.ColID { return r.Cols }

// changeStep is one snapshot of the change log and its parent (nil for
// the table's first snapshot).
type changeStep struct {
	snap, parent *catalog.Snapshot
	ordinal      int32
}

// The change columns after the table's.
var Columns = []metatable.Column{{Name: "_change_type", Typ: plan.TText}, {Name: "_change_ordinal", Typ: plan.TInt4}, {Name: "_commit_snapshot_id", Typ: plan.TInt8}}

// Steps lists the snapshots after from (exclusive; nil: from the
// first) up to to (inclusive) on to's ancestry, oldest first, without
// replace snapshots, numbered by their ordinal. It fails with 22023 when
// from is not an ancestor of to.
func Steps(m *catalog.TableMetadata, name string, from, to *catalog.Snapshot) ([]changeStep, error) {
	var chain []*catalog.Snapshot
	found := from == nil
	expired := ""
	for s := to; s != nil; {
		if from != nil && s.SnapshotID == from.SnapshotID {
			found = true
			break
		}
		chain = append(chain, s)
		if s.ParentSnapshotID == nil {
			break
		}
		p := m.SnapshotByID(*s.ParentSnapshotID)
		if p == nil {
			expired = fmt.Sprintf(" It ends at snapshot %d, whose parent %d has expired.", s.SnapshotID, *s.ParentSnapshotID)
		}
		s = p
	}
	if !found {
		toText := "the table's current state (no snapshot)"
		if to != nil {
			toText = "snapshot " + strconv.FormatInt(to.SnapshotID, 10)
		}
		var ids []string
		for i, s := range chain {
			if i == 20 {
				ids = append(ids, "...")
				break
			}
			ids = append(ids, strconv.FormatInt(s.SnapshotID, 10))
		}
		e := pgerr.New(pgerr.InvalidParameterValue, "snapshot %d of table \"%s\" is not an ancestor of %s", from.SnapshotID, name, toText)
		if len(ids) > 0 {
			e = e.WithDetail("The ancestry of %s, newest first: %s.%s", toText, strings.Join(ids, ", "), expired)
		}
		return nil, e.WithHint("The start of a table's changes must be an older snapshot on the end's branch.")
	}
	var steps []changeStep
	for i := len(chain) - 1; i >= 0; i-- {
		s := chain[i]
		if s.Summary["operation"] == "replace" {
			continue
		}
		st := changeStep{snap: s, ordinal: int32(len(steps))}
		if s.ParentSnapshotID != nil {
			st.parent = m.SnapshotByID(*s.ParentSnapshotID)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// Describe is the change log's line in a plan.
func (x *Rel) Describe(q *plan.ColTable) string {
	from, to := "the first snapshot", "no snapshot"
	if x.From != nil {
		from = "snapshot " + strconv.FormatInt(x.From.SnapshotID, 10)
	}
	if x.To != nil {
		to = "snapshot " + strconv.FormatInt(x.To.SnapshotID, 10)
	}
	return fmt.Sprintf("changes of %s after %s through %s (%d snapshots) [%s]", x.Name, from, to, len(x.Steps), plan.FmtCols(q, x.Cols))
}

// Estimate is a guess: counting the rows would cost as much as reading them.
func (r *Rel) Estimate() (rows, base float64) { return plan.SourceGuess() }

// changeTypeDelete and changeTypeInsert are the values of _change_type.
const (
	changeTypeDelete = "DELETE"
	changeTypeInsert = "INSERT"
)
