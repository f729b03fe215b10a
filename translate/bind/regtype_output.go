package bind

import (
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// regOutput prints the result columns of a reg* type (SELECT
// 'pg_class'::regclass, SELECT c.oid::regclass FROM pg_class c) as the
// names of their objects: a projection above the query computes them as
// text from the statement's catalog snapshot, while the columns keep their
// type OIDs in the row description. Rows are ordered and compared by OID
// below it, as PostgreSQL does; wire sends a text column of a reg* type
// as it is.
func (b *Binder) regOutput(p *plan.Select) (*plan.Select, error) {
	need := false
	for _, c := range p.Cols {
		need = need || pgtypes.IsRegType(c.TypeOID) || isRegArray(c.TypeOID)
	}
	if !need || b.env.RegTypes() == nil {
		return p, nil
	}
	proj := &plan.Project{In: p.Root}
	for i, id := range p.Out {
		e := b.ref(id).E
		typ := p.Cols[i].TypeOID
		if isRegArray(typ) {
			text, err := b.env.RegTypes().Text(b, e, typ)
			if err != nil {
				return nil, err
			}
			proj.Exprs = append(proj.Exprs, text)
			proj.Cols = append(proj.Cols, b.newCol(p.Cols[i].Name, plan.Type{OID: typ, Typmod: -1}, text.Type()))
			continue
		}
		if !pgtypes.IsRegType(typ) {
			proj.Exprs = append(proj.Exprs, e)
			proj.Cols = append(proj.Cols, id)
			continue
		}
		text, err := b.env.RegTypes().Text(b, e, typ)
		if err != nil {
			return nil, err
		}
		proj.Exprs = append(proj.Exprs, text)
		proj.Cols = append(proj.Cols, b.newCol(p.Cols[i].Name, plan.Type{OID: typ, Typmod: -1}, text.Type()))
	}
	p.Root, p.Out = proj, proj.Cols
	b.finish(p)
	return p, nil
}
