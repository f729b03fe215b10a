package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// mergeActionColumn names the hidden column merge_action() reads in a
// MERGE's RETURNING list; the parentheses keep it from any column a
// user can name without quotes.
const mergeActionColumn = "merge_action()"

// bindMergeReturning binds MERGE's RETURNING list. Target columns read the
// row the action wrote (the old row for a DELETE: retIDs), source columns
// the source row, and merge_action() the action's name (nameID). * lists
// the source's columns, then the target's.
func (b *Binder) bindMergeReturning(m *mergeBinding, list []*pg.Node, retIDs []plan.ColID, nameID plan.ColID) ([]target, error) {
	list = mergeActionRefs(list)
	tgt := &rangeItem{table: m.tgt.item.table, tn: m.tgt.item.tn, alias: m.tgt.item.alias, name: m.tgt.item.name}
	for i, c := range m.tgt.item.cols {
		if i < len(retIDs) {
			c.id = retIDs[i]
		}
		tgt.cols = append(tgt.cols, c)
	}
	action := &rangeItem{name: mergeActionColumn, cols: []itemCol{{name: mergeActionColumn, id: nameID, hidden: true}}}
	items := append(append([]*rangeItem(nil), m.srcItems...), tgt, action)
	var out []target
	err := b.withVisible(items, m.srcMerged, nil, func() error {
		saved := b.where
		b.where = "RETURNING"
		defer func() { b.where = saved }()
		var err error
		out, err = b.bindTargets(list)
		return err
	})
	if err != nil {
		return nil, err
	}
	if b.LitErr != nil {
		return nil, b.LitErr
	}
	return out, nil
}

// mergeActionRefs returns a copy of a RETURNING list in which each
// merge_action() is a reference to the hidden column mergeActionColumn
// (an item that is just merge_action() is named merge_action, as
// PostgreSQL names it).
func mergeActionRefs(list []*pg.Node) []*pg.Node {
	out := make([]*pg.Node, len(list))
	for i, n := range list {
		n = proto.Clone(n).(*pg.Node)
		if rt := n.GetResTarget(); rt != nil && rt.Name == "" && rt.Val.GetMergeSupportFunc() != nil {
			rt.Name = "merge_action"
		}
		WalkAST(n.ProtoReflect(), func(m protoreflect.Message) bool {
			if x, ok := m.Interface().(*pg.Node); ok {
				if f := x.GetMergeSupportFunc(); f != nil {
					x.Node = &pg.Node_ColumnRef{ColumnRef: &pg.ColumnRef{
						Fields:   []*pg.Node{{Node: &pg.Node_String_{String_: &pg.String{Sval: mergeActionColumn}}}},
						Location: f.Location,
					}}
				}
			}
			return true
		})
		out[i] = n
	}
	return out
}

// rejectMergeAction fails on a merge_action() outside the RETURNING list,
// as PostgreSQL.
func (b *Binder) rejectMergeAction(nodes ...*pg.Node) error {
	var err error
	for _, n := range nodes {
		if n == nil || err != nil {
			continue
		}
		WalkAST(n.ProtoReflect(), func(m protoreflect.Message) bool {
			if f, ok := m.Interface().(*pg.MergeSupportFunc); ok && err == nil {
				err = b.ErrAt(pgerr.New(pgerr.SyntaxError, "MERGE_ACTION() can only be used in the RETURNING list of a MERGE command"), f.Location)
			}
			return err == nil
		})
	}
	return err
}
