package bind

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// pushWith makes a WITH clause's queries visible until pop is called.
// As in PostgreSQL, a query referenced more than once or written AS
// MATERIALIZED is computed once and shared (plan/cte.go); any other one
// is inlined: each reference binds it anew, as a subquery.
func (b *Binder) pushWith(w *pg.WithClause) (pop func(), err error) {
	n := len(b.ctes)
	pop = func() { b.ctes = b.ctes[:n] }
	seen := map[string]bool{}
	for _, c := range w.Ctes {
		cte := c.GetCommonTableExpr()
		if cte == nil {
			pop()
			return nil, pgerr.NotYet("this WITH item")
		}
		if seen[cte.Ctename] {
			pop()
			return nil, b.ErrAt(pgerr.New(pgerr.DuplicateAlias, "WITH query name \"%s\" specified more than once", cte.Ctename), cte.Location)
		}
		seen[cte.Ctename] = true
		sel := cte.Ctequery.GetSelectStmt()
		if sel == nil {
			// A data-modifying query (dml_with_bind.go).
			def, err := b.pushDMLCTE(w, cte)
			if err != nil {
				pop()
				return nil, err
			}
			b.ctes = append(b.ctes, def)
			continue
		}
		def := &cteDef{name: cte.Ctename, query: sel, scope: b.scope}
		def.recursive = w.Recursive && sel.Op == pg.SetOperation_SETOP_UNION && refersTo(sel.Rarg, cte.Ctename)
		for _, a := range cte.Aliascolnames {
			def.aliases = append(def.aliases, a.GetString_().GetSval())
		}
		def.materialize = !def.recursive && b.materializes(w, cte)
		b.ctes = append(b.ctes, def)
	}
	return pop, nil
}

// findCTE returns the innermost WITH query of that name, or nil.
func (b *Binder) findCTE(name string) *cteDef {
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if c := b.ctes[i]; c.name == name && !c.binding {
			return c
		}
	}
	return nil
}

// bindCTERef binds a reference to a WITH query as a FROM item.
func (b *Binder) bindCTERef(def *cteDef, rv *pg.RangeVar, alias string, colAliases []string) (plan.Rel, error) {
	if dc := b.dmlCTEOf(def); dc != nil {
		return b.bindDMLCTERef(def, dc, rv, alias, colAliases)
	}
	if def.inRecursiveTerm || def.recursive {
		return b.bindRecursiveRef(def, rv, alias, colAliases)
	}
	if def.shared != nil {
		return b.bindSharedRef(def, rv, alias, colAliases)
	}
	def.binding = true
	// The WITH queries defined after this one are not visible in it.
	saved := b.ctes
	for i, c := range b.ctes {
		if c == def {
			b.ctes = b.ctes[:i:i]
			break
		}
	}
	p, err := b.bindSubqueryIn(def.scope, def.query)
	b.ctes = saved
	def.binding = false
	if err != nil {
		return nil, err
	}
	aliases := def.aliases
	if len(colAliases) > 0 {
		aliases = colAliases
	}
	if len(def.aliases) > len(p.Out) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified",
			def.name, len(p.Out), len(def.aliases)), rv.Location)
	}
	if def.materialize && shareable(p.Root) {
		def.shared = &plan.CTE{Name: def.name, Body: p.Root, Out: p.Out, Cols: p.Cols}
		return b.bindSharedRef(def, rv, alias, colAliases)
	}
	def.materialize = false
	if err := b.addDerivedItem(p, alias, def.name, aliases, rv.Location); err != nil {
		return nil, err
	}
	return p.Root, nil
}

// refersTo reports whether a query mentions an unqualified relation name.
func refersTo(sel *pg.SelectStmt, name string) bool {
	found := false
	WalkAST(sel.ProtoReflect(), func(m ProtoreflectMessage) bool {
		if rv, ok := m.Interface().(*pg.RangeVar); ok && rv.Schemaname == "" && rv.Relname == name {
			found = true
		}
		return !found
	})
	return found
}

// bindRecursiveRef binds a reference to a recursive WITH query: inside
// its recursive term, the work table of the previous iteration; elsewhere,
// the whole recursion (anchor UNION [ALL] recursive term).
func (b *Binder) bindRecursiveRef(def *cteDef, rv *pg.RangeVar, alias string, colAliases []string) (plan.Rel, error) {
	if def.inRecursiveTerm {
		wr := &plan.WorkTable{WT: def.wt}
		p := &plan.Select{}
		for _, m := range def.wtMetas {
			id := b.newCol(m.Name, m.T, m.ArrowType)
			wr.Cols = append(wr.Cols, id)
			p.Out = append(p.Out, id)
			p.Cols = append(p.Cols, pgtypes.Column{Name: m.Name, TypeOID: m.T.OID, Typmod: m.T.Typmod})
		}
		if err := b.addDerivedItem(p, alias, def.name, colAliases, rv.Location); err != nil {
			return nil, err
		}
		return wr, nil
	}
	union := def.query
	saved := b.ctes
	def.binding = true
	anchor, err := b.bindSubqueryIn(def.scope, union.Larg)
	def.binding = false
	if err != nil {
		return nil, err
	}
	if len(def.aliases) > len(anchor.Out) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified",
			def.name, len(anchor.Out), len(def.aliases)), rv.Location)
	}
	wt := &plan.WorkTableRef{Name: def.name}
	def.wt, def.wtMetas = wt, nil
	for i, id := range anchor.Out {
		m := b.q.Meta(id)
		m.Name = anchor.Cols[i].Name
		if i < len(def.aliases) {
			m.Name = def.aliases[i]
		}
		m.T = b.typeOfOutput(anchor, i)
		def.wtMetas = append(def.wtMetas, m)
	}
	def.inRecursiveTerm = true
	rec, err := b.bindSubqueryIn(def.scope, union.Rarg)
	def.inRecursiveTerm = false
	b.ctes = saved
	if err != nil {
		return nil, err
	}
	if len(rec.Out) != len(anchor.Out) {
		return nil, pgerr.New(pgerr.SyntaxError, "each UNION query must have the same number of columns")
	}
	// The recursive term's columns take the anchor's types.
	proj := &plan.Project{In: rec.Root}
	for i, id := range rec.Out {
		want := def.wtMetas[i]
		got := b.q.Meta(id)
		if !arrow.TypeEqual(got.ArrowType, want.ArrowType) && !expr.CanCast(got.ArrowType, want.ArrowType) {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
				def.name, i+1, want.T, b.typeOfOutput(rec, i))
		}
		proj.Exprs = append(proj.Exprs, CastIfNeeded(b.ref(id).E, want.ArrowType))
		proj.Cols = append(proj.Cols, b.newCol(want.Name, want.T, want.ArrowType))
	}
	rr := &plan.Recursive{Anchor: anchor.Root, AnchorCols: anchor.Out, Recursive: proj, RecursCols: proj.Cols,
		Distinct: !union.All, WT: wt}
	p := &plan.Select{}
	for _, m := range def.wtMetas {
		id := b.newCol(m.Name, m.T, m.ArrowType)
		rr.Cols = append(rr.Cols, id)
		p.Out = append(p.Out, id)
		p.Cols = append(p.Cols, pgtypes.Column{Name: m.Name, TypeOID: m.T.OID, Typmod: m.T.Typmod})
	}
	p.Root = rr
	if err := b.addDerivedItem(p, alias, def.name, colAliases, rv.Location); err != nil {
		return nil, err
	}
	return p.Root, nil
}

// materializes reports whether the WITH query cte of w is computed once
// and shared: written AS MATERIALIZED, or, unless written AS NOT
// MATERIALIZED, referenced more than once. Statements with
// data-modifying WITH queries keep every WITH query inlined.
func (b *Binder) materializes(w *pg.WithClause, cte *pg.CommonTableExpr) bool {
	if b.dmlWith != nil {
		return false
	}
	for _, c := range w.Ctes {
		if c.GetCommonTableExpr().GetCtequery().GetSelectStmt() == nil {
			return false
		}
	}
	switch cte.Ctematerialized {
	case pg.CTEMaterialize_CTEMaterializeAlways:
		return true
	case pg.CTEMaterialize_CTEMaterializeNever:
		return false
	}
	return b.cteRefCount(w, cte) > 1
}

// withOwner is a statement that may carry a WITH clause.
type withOwner interface{ GetWithClause() *pg.WithClause }

// cteRefCount counts the references to cte in the statement w belongs
// to: its main query and the WITH queries of w that can see it. A nested
// WITH that defines the same name hides it (nothing below it counts).
func (b *Binder) cteRefCount(w *pg.WithClause, cte *pg.CommonTableExpr) int {
	var owner ProtoreflectMessage
	if b.stmt.Node != nil {
		WalkAST(b.stmt.Node.ProtoReflect(), func(m ProtoreflectMessage) bool {
			if o, ok := m.Interface().(withOwner); ok && o.GetWithClause() == w {
				owner = m
			}
			return owner == nil
		})
	}
	if owner == nil {
		return 0
	}
	self := -1
	for i, c := range w.Ctes {
		if c.GetCommonTableExpr() == cte {
			self = i
		}
	}
	n := 0
	WalkAST(owner, func(m ProtoreflectMessage) bool {
		if o, ok := m.Interface().(withOwner); ok && o.GetWithClause() != nil && o.GetWithClause() != w {
			for _, c := range o.GetWithClause().Ctes {
				if c.GetCommonTableExpr().GetCtename() == cte.Ctename {
					return false
				}
			}
		}
		switch x := m.Interface().(type) {
		case *pg.RangeVar:
			if x.Catalogname == "" && x.Schemaname == "" && x.Relname == cte.Ctename {
				n++
			}
		case *pg.WithClause:
			if x == w {
				// Only the WITH queries after it see it (all but itself
				// under RECURSIVE).
				for i, c := range w.Ctes {
					if i > self || (w.Recursive && i != self) {
						WalkAST(c.ProtoReflect(), func(m ProtoreflectMessage) bool {
							if rv, ok := m.Interface().(*pg.RangeVar); ok && rv.Catalogname == "" && rv.Schemaname == "" && rv.Relname == cte.Ctename {
								n++
							}
							return true
						})
					}
				}
				return false
			}
		}
		return true
	})
	return n
}

// shareable reports whether a bound WITH query can be computed once for
// the whole statement: it refers to no column of an enclosing query and
// reads no recursive query's work table (both change while it runs).
func shareable(r plan.Rel) bool {
	if len(plan.FreeRefs(r)) > 0 {
		return false
	}
	ok := true
	plan.Visit(r, func(n plan.Rel) {
		if _, wt := n.(*plan.WorkTable); wt {
			ok = false
		}
	})
	return ok
}

// bindSharedRef binds a reference to a shared WITH query: a scan of its
// result with column ids of its own.
func (b *Binder) bindSharedRef(def *cteDef, rv *pg.RangeVar, alias string, colAliases []string) (plan.Rel, error) {
	sh := def.shared
	aliases := def.aliases
	if len(colAliases) > 0 {
		aliases = colAliases
	}
	scan := &plan.CTEScan{CTE: sh}
	p := &plan.Select{Root: scan, Cols: sh.Cols}
	for i, id := range sh.Out {
		m := b.q.Meta(id)
		nid := b.q.Add(plan.ColMeta{Name: sh.Cols[i].Name, T: plan.Type{OID: sh.Cols[i].TypeOID, Typmod: sh.Cols[i].Typmod}, ArrowType: m.ArrowType, Origin: m.Origin})
		scan.Cols = append(scan.Cols, nid)
		p.Out = append(p.Out, nid)
	}
	if err := b.addDerivedItem(p, alias, def.name, aliases, rv.Location); err != nil {
		return nil, err
	}
	return p.Root, nil
}
