package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// Binding data-modifying statements in WITH.
//
// A statement whose top-level WITH holds a DELETE, UPDATE, INSERT or
// MERGE binds each of those sub-statements once, when its WITH is
// pushed, into a DMLPlan of its own (bound at the tables' current
// snapshots, like the outer statement). A reference to such a WITH query
// is a plan.Values without rows: translate's dml_with.go fills it with the
// sub-statement's RETURNING rows after running it, before the outer
// statement is lowered. The Binder finds what it needs (which WITH is the
// top-level one, the sub-statements bound so far) in the state it is
// given (DMLWith), and hands it to the binders of the sub-statements.

// DMLWithState is what binding one statement with data-modifying WITH
// queries collects.
type DMLWithState struct {
	// Top is the statement's own WITH clause: the only one that may hold
	// data-modifying queries.
	Top *pg.WithClause
	// Subs are the data-modifying WITH queries in the order they are
	// written (the order they run in).
	Subs  []*DMLCTE
	byDef map[*cteDef]*DMLCTE
}

// DMLCTE is one data-modifying WITH query.
type DMLCTE struct {
	name string
	Plan *DMLPlan
	// Q is the column table plan's query was bound in (its RETURNING
	// columns' types are there).
	Q *plan.ColTable
	// Refs are the references to the query: each gets the RETURNING rows.
	Refs []*plan.Values
}

// DMLWith has b bind a statement whose top-level WITH holds
// data-modifying queries, collecting them into st; it returns b.
func (b *Binder) DMLWith(st *DMLWithState) *Binder {
	b.dmlWith = st
	return b
}

// errDMLWithNotTop is PostgreSQL's error for a data-modifying WITH query
// anywhere but in the statement's own WITH.
func errDMLWithNotTop() *pgerr.Error {
	return pgerr.New(pgerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level")
}

// pushDMLCTE binds the data-modifying WITH query cte of w and returns
// its definition.
func (b *Binder) pushDMLCTE(w *pg.WithClause, cte *pg.CommonTableExpr) (*cteDef, error) {
	st := b.dmlWith
	if st == nil || st.Top != w {
		return nil, b.ErrAt(errDMLWithNotTop(), cte.Location)
	}
	if w.Recursive && dmlRefersTo(cte.Ctequery, cte.Ctename) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidRecursion, "recursive query \"%s\" must not contain data-modifying statements", cte.Ctename), cte.Location)
	}
	sub := New(b.ctx, b.env, b.stmt, b.params, b.now).DMLWith(st)
	sub.ctes = append([]*cteDef(nil), b.ctes...)
	var p *DMLPlan
	var err error
	switch x := cte.Ctequery.Node.(type) {
	case *pg.Node_DeleteStmt:
		p, err = sub.BindDelete(x.DeleteStmt)
	case *pg.Node_UpdateStmt:
		p, err = sub.BindUpdate(x.UpdateStmt)
	case *pg.Node_MergeStmt:
		p, err = sub.BindMerge(x.MergeStmt)
	case *pg.Node_InsertStmt:
		p, err = sub.BindUpsert(x.InsertStmt)
	default:
		return nil, b.ErrAt(pgerr.NotYet("this WITH item"), cte.Location)
	}
	if err != nil {
		return nil, err
	}
	def := &cteDef{name: cte.Ctename, scope: b.scope}
	for _, a := range cte.Aliascolnames {
		def.aliases = append(def.aliases, a.GetString_().GetSval())
	}
	if p.Returning != nil && len(def.aliases) > len(p.Returning) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified",
			def.name, len(p.Returning), len(def.aliases)), cte.Location)
	}
	dc := &DMLCTE{name: cte.Ctename, Plan: p, Q: sub.q}
	st.Subs = append(st.Subs, dc)
	if st.byDef == nil {
		st.byDef = map[*cteDef]*DMLCTE{}
	}
	st.byDef[def] = dc
	return def, nil
}

// dmlCTEOf is the data-modifying query a WITH definition stands for, or
// nil for a plain one.
func (b *Binder) dmlCTEOf(def *cteDef) *DMLCTE {
	if def.query != nil {
		return nil
	}
	if b.dmlWith != nil {
		return b.dmlWith.byDef[def]
	}
	return nil
}

// bindDMLCTERef binds a reference to a data-modifying WITH query: its
// RETURNING rows, filled in when the query has run.
func (b *Binder) bindDMLCTERef(def *cteDef, dc *DMLCTE, rv *pg.RangeVar, alias string, colAliases []string) (plan.Rel, error) {
	p := dc.Plan
	if p.Returning == nil {
		return nil, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "WITH query \"%s\" does not have a RETURNING clause", def.name), rv.Location)
	}
	aliases := def.aliases
	if len(colAliases) > 0 {
		aliases = colAliases
	}
	first := DmlColValues + len(p.Cols)
	vr := &plan.Values{}
	sp := &plan.Select{Root: vr}
	for j, c := range p.Returning {
		m := dc.Q.Meta(p.Sel.Out[first+j])
		id := b.newCol(c.Name, m.T, m.ArrowType)
		vr.Cols = append(vr.Cols, id)
		sp.Out = append(sp.Out, id)
		sp.Cols = append(sp.Cols, pgtypes.Column{Name: c.Name, TypeOID: c.TypeOID, Typmod: c.Typmod})
	}
	if err := b.addDerivedItem(sp, alias, def.name, aliases, rv.Location); err != nil {
		return nil, err
	}
	dc.Refs = append(dc.Refs, vr)
	return vr, nil
}

// dmlRefersTo reports whether a data-modifying statement mentions an
// unqualified relation name other than as its target.
func dmlRefersTo(n *pg.Node, name string) bool {
	var target *pg.RangeVar
	switch x := n.Node.(type) {
	case *pg.Node_DeleteStmt:
		target = x.DeleteStmt.Relation
	case *pg.Node_UpdateStmt:
		target = x.UpdateStmt.Relation
	case *pg.Node_MergeStmt:
		target = x.MergeStmt.Relation
	case *pg.Node_InsertStmt:
		target = x.InsertStmt.Relation
	}
	found := false
	WalkAST(n.ProtoReflect(), func(m ProtoreflectMessage) bool {
		if rv, ok := m.Interface().(*pg.RangeVar); ok && rv != target && rv.Schemaname == "" && rv.Relname == name {
			found = true
		}
		return !found
	})
	return found
}

// DMLWithClause returns the statement's WITH clause when it holds a
// data-modifying query, else nil.
func DMLWithClause(n *pg.Node) *pg.WithClause {
	var w *pg.WithClause
	switch x := n.Node.(type) {
	case *pg.Node_SelectStmt:
		w = x.SelectStmt.WithClause
	case *pg.Node_InsertStmt:
		w = x.InsertStmt.WithClause
	case *pg.Node_UpdateStmt:
		w = x.UpdateStmt.WithClause
	case *pg.Node_DeleteStmt:
		w = x.DeleteStmt.WithClause
	case *pg.Node_MergeStmt:
		w = x.MergeStmt.WithClause
	}
	if w == nil {
		return nil
	}
	for _, c := range w.Ctes {
		if cte := c.GetCommonTableExpr(); cte != nil && cte.Ctequery.GetSelectStmt() == nil {
			return w
		}
	}
	return nil
}

// DMLWithWhat names the first data-modifying query of w, for the
// read-only errors.
func DMLWithWhat(w *pg.WithClause) string {
	for _, c := range w.Ctes {
		cte := c.GetCommonTableExpr()
		if cte == nil {
			continue
		}
		switch cte.Ctequery.Node.(type) {
		case *pg.Node_DeleteStmt:
			return "DELETE"
		case *pg.Node_UpdateStmt:
			return "UPDATE"
		case *pg.Node_MergeStmt:
			return "MERGE"
		case *pg.Node_InsertStmt:
			return "INSERT"
		}
	}
	return "SELECT"
}
