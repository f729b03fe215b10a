package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"

	"github.com/icegate/icegate/internal/pgerr"
)

// conflictKey is the column indexes an ON CONFLICT compares: the columns
// it names, else (ON CONSTRAINT <table>_pkey, or no target) the table's
// identifier fields, Iceberg's row identity, which the catalog shows as
// the primary key. Iceberg has no unique constraints: named columns are
// taken as the key as they are. An empty key (DO NOTHING without a target
// on a table without identifier fields) means no row can conflict.
func (b *Binder) conflictKey(u *upsert) ([]int, error) {
	inf := u.oc.Infer
	if inf == nil {
		if u.oc.Action == pg.OnConflictAction_ONCONFLICT_UPDATE {
			return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
				WithHint("For example, ON CONFLICT (column_name)."), u.oc.Location)
		}
		return b.identifierKey(u), nil
	}
	if inf.Conname != "" {
		key := b.identifierKey(u)
		if len(key) == 0 || inf.Conname != u.tg.table.Ident.Name+"_pkey" {
			return nil, b.ErrAt(pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist",
				inf.Conname, u.tg.table.Ident.Name), inf.Location)
		}
		return key, nil
	}
	var key []int
	for _, n := range inf.IndexElems {
		ie := n.GetIndexElem()
		switch {
		case ie == nil || ie.Expr != nil:
			return nil, b.ErrAt(pgerr.NotYet("ON CONFLICT on an expression"), inf.Location)
		case len(ie.Collation) > 0 || len(ie.Opclass) > 0:
			return nil, b.ErrAt(pgerr.NotYet("a collation or operator class in ON CONFLICT"), inf.Location)
		}
		i := FindColumn(u.tg.cols, ie.Name, false)
		if i < 0 {
			return nil, b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", ie.Name), inf.Location)
		}
		dup := false
		for _, k := range key {
			dup = dup || k == i
		}
		if !dup {
			key = append(key, i)
		}
	}
	if inf.WhereClause != nil {
		// The predicate of a partial unique index: Iceberg has none, and
		// PostgreSQL infers a whole-table one regardless, so it is only
		// checked.
		b.where = "index predicates"
		w, err := b.Expr(inf.WhereClause)
		b.where = ""
		if err != nil {
			return nil, err
		}
		if _, err := b.asBool(w, "WHERE", NodeLocation(inf.WhereClause)); err != nil {
			return nil, err
		}
		b.pending = nil
	}
	return key, nil
}

// identifierKey is the column indexes of the target's identifier fields.
func (b *Binder) identifierKey(u *upsert) []int {
	var key []int
	for _, id := range u.tg.schema.IdentifierFieldIDs {
		for i, c := range u.tg.cols {
			if c.FieldID == id {
				key = append(key, i)
			}
		}
	}
	return key
}

// maxKeyFilterRows bounds the VALUES lists whose keys narrow the scan of
// the target.
const maxKeyFilterRows = 1000

// keyFilter is a condition on the target's rows that holds for every row
// a proposed row can conflict with: each key column IN the keys VALUES
// proposes. Put right above the scan it prunes files and row groups, and
// it is the change's conflict filter: a concurrent commit adding rows
// with other keys does not conflict with the upsert. It is nil when the
// rows come from a query or a key is not a constant.
func (b *Binder) keyFilter(u *upsert) expr.Expr {
	if u.ip.Sel != nil || len(u.ip.Values) > maxKeyFilterRows {
		return nil
	}
	var conds []expr.Expr
	for _, k := range u.key {
		args := []Bound{b.ref(u.tg.ids[k])}
		for _, row := range u.ip.Values {
			lit, ok := constantLit(row[k])
			if !ok {
				return nil
			}
			if lit.V != nil {
				args = append(args, Bound{E: row[k], T: u.tg.cols[k].Type})
			}
		}
		if len(args) == 1 {
			// Only NULL keys: no row of the table can match.
			return &expr.Lit{V: false, T: expr.Bool}
		}
		in, err := b.call("in", args, -1)
		if err != nil {
			return nil // not comparable this way: no narrowing
		}
		conds = append(conds, in.E)
	}
	return plan.AndOf(conds)
}

// constantLit is the literal e is, possibly under casts.
func constantLit(e expr.Expr) (*expr.Lit, bool) {
	for {
		switch x := e.(type) {
		case *expr.Lit:
			return x, true
		case *expr.Cast:
			e = x.Arg
		default:
			return nil, false
		}
	}
}
