package translate

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// pushWith makes a WITH clause's queries visible until pop is called.
// Each reference binds the query anew (the query is inlined), so a WITH
// query referenced twice is planned twice.
func (b *binder) pushWith(w *pg.WithClause) (pop func(), err error) {
	n := len(b.ctes)
	pop = func() { b.ctes = b.ctes[:n] }
	seen := map[string]bool{}
	for _, c := range w.Ctes {
		cte := c.GetCommonTableExpr()
		if cte == nil {
			pop()
			return nil, notYet("this WITH item")
		}
		if seen[cte.Ctename] {
			pop()
			return nil, b.errAt(pgerr.New("42712", "WITH query name \"%s\" specified more than once", cte.Ctename), cte.Location)
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
		b.ctes = append(b.ctes, def)
	}
	return pop, nil
}

// findCTE returns the innermost WITH query of that name, or nil.
func (b *binder) findCTE(name string) *cteDef {
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if c := b.ctes[i]; c.name == name && !c.binding {
			return c
		}
	}
	return nil
}

// bindCTERef binds a reference to a WITH query as a FROM item.
func (b *binder) bindCTERef(def *cteDef, rv *pg.RangeVar, alias string, colAliases []string) (rel, error) {
	if dc := b.dmlCTEOf(def); dc != nil {
		return b.bindDMLCTERef(def, dc, rv, alias, colAliases)
	}
	if def.inRecursiveTerm || def.recursive {
		return b.bindRecursiveRef(def, rv, alias, colAliases)
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
	if len(def.aliases) > len(p.out) {
		return nil, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified",
			def.name, len(p.out), len(def.aliases)), rv.Location)
	}
	if err := b.addDerivedItem(p, alias, def.name, aliases, rv.Location); err != nil {
		return nil, err
	}
	return p.root, nil
}

// refersTo reports whether a query mentions an unqualified relation name.
func refersTo(sel *pg.SelectStmt, name string) bool {
	found := false
	walkAST(sel.ProtoReflect(), func(m protoreflectMessage) bool {
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
func (b *binder) bindRecursiveRef(def *cteDef, rv *pg.RangeVar, alias string, colAliases []string) (rel, error) {
	if def.inRecursiveTerm {
		wr := &workTableRel{wt: def.wt}
		p := &selectPlan{}
		for _, m := range def.wtMetas {
			id := b.newCol(m.name, m.t, m.at)
			wr.cols = append(wr.cols, id)
			p.out = append(p.out, id)
			p.cols = append(p.cols, pgtypes.Column{Name: m.name, TypeOID: m.t.OID, Typmod: m.t.Typmod})
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
	if len(def.aliases) > len(anchor.out) {
		return nil, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified",
			def.name, len(anchor.out), len(def.aliases)), rv.Location)
	}
	wt := &workTableRef{name: def.name}
	def.wt, def.wtMetas = wt, nil
	for i, id := range anchor.out {
		m := b.q.meta(id)
		m.name = anchor.cols[i].Name
		if i < len(def.aliases) {
			m.name = def.aliases[i]
		}
		m.t = b.typeOfOutput(anchor, i)
		def.wtMetas = append(def.wtMetas, m)
	}
	def.inRecursiveTerm = true
	rec, err := b.bindSubqueryIn(def.scope, union.Rarg)
	def.inRecursiveTerm = false
	b.ctes = saved
	if err != nil {
		return nil, err
	}
	if len(rec.out) != len(anchor.out) {
		return nil, pgerr.New(pgerr.SyntaxError, "each UNION query must have the same number of columns")
	}
	// The recursive term's columns take the anchor's types.
	proj := &projectRel{in: rec.root}
	for i, id := range rec.out {
		want := def.wtMetas[i]
		got := b.q.meta(id)
		if !arrow.TypeEqual(got.at, want.at) && !expr.CanCast(got.at, want.at) {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
				def.name, i+1, want.t, b.typeOfOutput(rec, i))
		}
		proj.exprs = append(proj.exprs, castIfNeeded(b.ref(id).e, want.at))
		proj.cols = append(proj.cols, b.newCol(want.name, want.t, want.at))
	}
	rr := &recursiveRel{anchor: anchor.root, anchorCols: anchor.out, recursive: proj, recursCols: proj.cols,
		distinct: !union.All, wt: wt}
	p := &selectPlan{}
	for _, m := range def.wtMetas {
		id := b.newCol(m.name, m.t, m.at)
		rr.cols = append(rr.cols, id)
		p.out = append(p.out, id)
		p.cols = append(p.cols, pgtypes.Column{Name: m.name, TypeOID: m.t.OID, Typmod: m.t.Typmod})
	}
	p.root = rr
	if err := b.addDerivedItem(p, alias, def.name, colAliases, rv.Location); err != nil {
		return nil, err
	}
	return p.root, nil
}
