package bind

import (
	"context"
	"sort"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Binder binds one statement. It is used once.
type Binder struct {
	ctx  context.Context
	env  Env
	stmt parse.Stmt
	now  time.Time
	// privRole is the role privileges are checked as: "" the current
	// user; inside a view, its owner (privilege.go).
	privRole string
	// cols are the column privilege checks left for the end of the
	// statement (privilege_column.go).
	cols colChecks

	// params are the statement's parameters ($1...): their types (0 =
	// not yet inferred) and, at Execute, their values.
	params *ParamSet

	// q holds the column ids of the statement (shared by its subqueries).
	q     *plan.ColTable
	scope *scope    // the names of the query being bound; nil outside a query
	agg   *aggScope // non-nil while binding expressions above an aggregation
	// hiddenAgg is the aggregation of the query whose grouped expression
	// holds the subquery being bound (agg is nil meanwhile).
	hiddenAgg *aggScope
	win       *windowScope
	// pending are the joins subqueries in the clause being bound need
	// (pendingPre: those inside aggregate arguments).
	pending, pendingPre []pendingJoin
	// outerJoinSubqueries: the condition being bound is an outer join's
	// ON, whose subqueries bindOuterJoinCond places (outer_join_subquery.go).
	outerJoinSubqueries bool
	// ctes is the stack of WITH clauses in effect.
	ctes []*cteDef
	// viewNS is the namespace of the view being expanded (its unqualified
	// names resolve there first); viewStack the views being expanded.
	viewNS    []string
	viewStack []string
	where     string // the clause being bound when aggregates are not allowed there ("WHERE"...)
	inAgg     bool   // binding the arguments of an aggregate
	tok       []*pg.ScanToken
	// lastTypmod is the length of the varchar(n)/char(n) TypeName last
	// resolved (0 = none).
	lastTypmod int
	// LitErr is the first error converting a string literal (coerce).
	LitErr error
	// dmlWith collects the data-modifying WITH queries of the statement
	// (nil: it has none; dml_with_bind.go).
	dmlWith *DMLWithState
	// enumExprs are the expressions other than column references whose
	// values are of an enum type (enum.go), by the type ("schema.name").
	enumExprs map[expr.Expr]string
}

// ParamSet holds the types and values of $n parameters.
type ParamSet struct {
	Types  []uint32
	Values []*string // nil slice at Prepare
	Bound  bool      // values are present (Execute)
	// Template asks for a plan to serve every Execute of a prepared
	// query: each reference to a parameter of a known type becomes a
	// placeholder expression (listed in Placeholders, in binding order)
	// that Execute replaces by the parameter's value.
	Template     bool
	Placeholders []Placeholder
	// Unstable is set when binding used what a later Execute may see
	// differently: a parameter's value (LIMIT $1), a parameter whose type
	// is not known, or the clock (now(), CURRENT_DATE). A template bound
	// so must not be reused.
	Unstable bool
}

// Placeholder is where a template refers to parameter N: the expression
// E, of Arrow type T, stands for the parameter's value (bind.ParamSet).
type Placeholder struct {
	N int
	E expr.Expr
	T arrow.DataType
}

// NewParamSet is the parameter set of one binding of a prepared
// statement: at Prepare (values nil, inferred not yet known) the types
// the client declared; at Execute the inferred types with the values.
func NewParamSet(declared, inferred []uint32, values []*string) *ParamSet {
	types := declared
	if values != nil || inferred != nil {
		types = inferred
	}
	return &ParamSet{Types: append([]uint32(nil), types...), Values: values, Bound: values != nil}
}

// ResolveUntyped gives the parameters nothing typed text, as PostgreSQL
// resolves an unused or untyped parameter.
func (p *ParamSet) ResolveUntyped() {
	for i, t := range p.Types {
		if t == 0 {
			p.Types[i] = pgtypes.Text
		}
	}
}

func (p *ParamSet) typeOf(n int) uint32 {
	if n-1 < len(p.Types) {
		return p.Types[n-1]
	}
	return 0
}

func (p *ParamSet) setType(n int, oid uint32) {
	for len(p.Types) < n {
		p.Types = append(p.Types, 0)
	}
	if p.Types[n-1] == 0 {
		p.Types[n-1] = oid
	}
}

func New(ctx context.Context, e Env, stmt parse.Stmt, params *ParamSet, now time.Time) *Binder {
	return &Binder{ctx: ctx, env: e, stmt: stmt, params: params, now: now, q: &plan.ColTable{}, enumExprs: map[expr.Expr]string{}}
}

// ErrAt sets the error position (a byte offset into the query string) on a
// *pgerr.Error that has none.
func (b *Binder) ErrAt(err error, loc int32) error {
	if pe := pgerr.As(err); pe != nil && pe.Position == 0 && loc >= 0 {
		pe.Position = parse.CharPos(b.stmt.SQL, loc)
	}
	return err
}

// fullIdents recovers the n dotted identifier parts starting at byte
// offset loc from the source text, undoing the parser's truncation of
// identifiers to 63 bytes (Iceberg names may be longer). Unquoted parts fold
// to lower case; quoted parts keep their case. It returns nil when the
// tokens there do not form such a name.
func (b *Binder) fullIdents(loc int32, n int) []string {
	if b.tok == nil {
		if res, err := pg.Scan(b.stmt.SQL); err == nil {
			b.tok = res.Tokens
		}
	}
	i := sort.Search(len(b.tok), func(i int) bool { return b.tok[i].Start >= loc })
	var parts []string
	for k := 0; k < n; k++ {
		j := i + 2*k
		if j >= len(b.tok) {
			return nil
		}
		raw := b.stmt.SQL[b.tok[j].Start:b.tok[j].End]
		if strings.HasPrefix(raw, `"`) && strings.HasSuffix(raw, `"`) && len(raw) >= 2 {
			parts = append(parts, strings.ReplaceAll(raw[1:len(raw)-1], `""`, `"`))
		} else {
			parts = append(parts, parse.ASCIILower(raw))
		}
	}
	return parts
}

// identQuoted reports whether part k (0-based) of a dotted name starting at
// byte offset loc was written as a quoted identifier.
func (b *Binder) identQuoted(loc int32, k int) bool {
	if b.stmt.Quoted == nil {
		return false
	}
	if k == 0 {
		return b.stmt.Quoted[loc]
	}
	if b.tok == nil {
		if res, err := pg.Scan(b.stmt.SQL); err == nil {
			b.tok = res.Tokens
		}
	}
	i := sort.Search(len(b.tok), func(i int) bool { return b.tok[i].Start >= loc })
	j := i + 2*k // ident . ident . ident
	if j < len(b.tok) {
		return b.stmt.Quoted[b.tok[j].Start]
	}
	return false
}

// finish fills output once root and out are set.
func (b *Binder) finish(p *plan.Select) {
	p.ColTable = b.q
	p.Output = make([]expr.Expr, len(p.Out))
	for i, id := range p.Out {
		p.Output[i] = b.ref(id).E
	}
}
