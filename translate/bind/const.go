package bind

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// constant binds a literal: integers are int4 (int8 when too big, numeric
// beyond), decimal constants numeric, strings untyped until their context
// types them.
func (b *Binder) constant(c *pg.A_Const) (Bound, error) {
	if c.Isnull {
		return Bound{null: true}, nil
	}
	switch v := c.Val.(type) {
	case *pg.A_Const_Ival:
		return Bound{E: &expr.Lit{V: v.Ival.Ival, T: expr.Int4}, T: plan.TInt4}, nil
	case *pg.A_Const_Fval:
		return b.numericConst(v.Fval.Fval, c.Location)
	case *pg.A_Const_Boolval:
		return Bound{E: &expr.Lit{V: v.Boolval.Boolval, T: expr.Bool}, T: plan.TBool}, nil
	case *pg.A_Const_Sval:
		s := v.Sval.Sval
		return Bound{lit: &s, loc: c.Location}, nil
	case *pg.A_Const_Bsval:
		return Bound{}, b.ErrAt(pgerr.NotYetPlural("bit string constants"), c.Location)
	}
	return Bound{}, b.ErrAt(pgerr.NotYet("this constant"), c.Location)
}

// numericConst binds a constant the grammar did not make an int4: int8
// when it is an integer that fits, else numeric.
func (b *Binder) numericConst(s string, loc int32) (Bound, error) {
	if numericOverflows(s) {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format"), loc)
	}
	if i, err := strconv.ParseInt(s, 10, 32); err == nil {
		return Bound{E: &expr.Lit{V: int32(i), T: expr.Int4}, T: plan.TInt4}, nil // -2147483648
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Bound{E: &expr.Lit{V: i, T: expr.Int8}, T: plan.TInt8}, nil
	}
	d, ok := parseDecimal(s)
	if !ok {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", s), loc)
	}
	prec := len(strings.TrimLeft(new(big.Int).Abs(d.Unscaled).String(), "0"))
	if prec < d.Scale+1 {
		prec = d.Scale + 1
	}
	if prec > 38 {
		return Bound{}, b.ErrAt(pgerr.NotYetPlural("numeric constants of more than 38 digits"), loc)
	}
	return Bound{E: &expr.Lit{V: d, T: &arrow.Decimal128Type{Precision: int32(prec), Scale: int32(d.Scale)}}, T: plan.TNumeric}, nil
}

// numericOverflows reports whether the numeric constant s is beyond
// PostgreSQL's numeric format (131,072 digits before the point, 16,383
// after), which PostgreSQL refuses with 22003 as it reads the constant.
// It looks at the text only: 1e123456789 must not be computed.
func numericOverflows(s string) bool {
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			var ne *strconv.NumError
			return errors.As(err, &ne) && ne.Err == strconv.ErrRange
		}
		mant, exp = s[:i], e
	}
	if exp >= math.MaxInt32/2 || exp <= -math.MaxInt32/2 {
		return true
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if len(frac)-exp > 16383 {
		return true // even for zero: the scale is kept
	}
	sig := strings.TrimLeft(intPart+frac, "0")
	return sig != "" && len(sig)-len(frac)+exp > 131072
}

// parseDecimal parses "12.50", "1e3", ".5", "1.5E-3" exactly, with an
// optional leading minus: the grammar folds a unary minus into the
// constant ("-1.5").
func parseDecimal(s string) (catalog.Decimal, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	d, ok := parseUnsignedDecimal(s)
	if ok && neg {
		d.Unscaled.Neg(d.Unscaled)
	}
	return d, ok
}

func parseUnsignedDecimal(s string) (catalog.Decimal, bool) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return catalog.Decimal{}, false
		}
		mant, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return catalog.Decimal{}, false
	}
	u, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return catalog.Decimal{}, false
	}
	scale := len(frac) - exp
	if scale < 0 && u.Sign() == 0 {
		scale = 0 // 0e999999999: nothing to multiply
	} else if scale < 0 {
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-scale)), nil))
		scale = 0
	}
	return catalog.Decimal{Unscaled: u, Scale: scale}, true
}

// Numeric constants of more than 38 digits do not fit the engine's
// numeric; PostgreSQL converts them to float8 wherever they meet a float
// (a cast to float8 or float4, an operator whose other operand is a
// float), and those uses are bound here as float8 constants. Any other use
// stays a 0A000 error (numericConst).

// bigConst returns the text of n when n is a numeric constant of more than
// 38 digits.
func bigConst(n *pg.Node) (string, bool) {
	c := n.GetAConst()
	if c == nil || c.GetFval() == nil {
		return "", false
	}
	s := c.GetFval().GetFval()
	if numericOverflows(s) {
		return "", false // numericConst reports it
	}
	d, ok := parseDecimal(s)
	if !ok {
		return "", false
	}
	prec := len(strings.TrimLeft(new(big.Int).Abs(d.Unscaled).String(), "0"))
	if prec < d.Scale+1 {
		prec = d.Scale + 1
	}
	return s, prec > 38
}

// bigConstFloat is the float8 constant for a big numeric constant; like
// PostgreSQL's numeric to float8 cast it fails with 22003 beyond float8's
// range.
func (b *Binder) bigConstFloat(s string, loc int32) (Bound, error) {
	f, err := strconv.ParseFloat(s, 64)
	// Beyond float8's range either way (Go rounds an underflow to 0
	// without an error; a constant with a nonzero digit is not 0).
	if err != nil && math.IsInf(f, 0) || f == 0 && strings.ContainsAny(strings.SplitN(strings.ToLower(s), "e", 2)[0], "123456789") {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type double precision", s), loc)
	}
	return Bound{E: &expr.Lit{V: f, T: expr.Float8}, T: plan.TFloat8}, nil
}

// exprAssigned binds n, a value assigned to a column of type t (INSERT
// VALUES, UPDATE SET): a big numeric constant assigned to a float column
// is the float8 constant PostgreSQL's assignment cast makes of it.
func (b *Binder) exprAssigned(n *pg.Node, t plan.Type) (Bound, error) {
	if s, ok := bigConst(n); ok && (t.OID == pgtypes.Float4 || t.OID == pgtypes.Float8) {
		return b.bigConstFloat(s, n.GetAConst().Location)
	}
	return b.Expr(n)
}

// isFloatType reports whether x is float4 or float8.
func isFloatType(x Bound) bool {
	return !x.Unknown() && (x.T.OID == pgtypes.Float4 || x.T.OID == pgtypes.Float8)
}

// bigConstCast binds a cast of a big numeric constant: to float8 or
// float4 through float8, else as any cast (which fails with 0A000).
func (b *Binder) bigConstCast(tc *pg.TypeCast, s string) (Bound, error) {
	t, typName, err := b.TypeName(tc.TypeName)
	if err != nil {
		return Bound{}, err
	}
	if t.OID != pgtypes.Float4 && t.OID != pgtypes.Float8 {
		return b.typeCast(tc)
	}
	f, err := b.bigConstFloat(s, tc.Arg.GetAConst().Location)
	if err != nil {
		return Bound{}, err
	}
	out, err := b.castTo(f, t, tc.Location)
	if err != nil {
		return Bound{}, err
	}
	if t.OID == pgtypes.Float4 {
		v := f.E.(*expr.Lit).V.(float64)
		if a := math.Abs(v); a > math.MaxFloat32 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow"), tc.Location)
		} else if a != 0 && a < math.SmallestNonzeroFloat32 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow"), tc.Location)
		}
	}
	out.Name, out.strong = typName, false
	return out, nil
}

// bigConstOperands binds the operands of l op r when one of them is a big
// numeric constant: it becomes a float8 constant when the other operand is
// a float. ok is false when neither operand is a big constant.
func (b *Binder) bigConstOperands(l, r *pg.Node) (lb, rb Bound, ok bool, err error) {
	ls, lbig := bigConst(l)
	rs, rbig := bigConst(r)
	switch {
	case lbig && !rbig:
		if rb, err = b.Expr(r); err != nil {
			return lb, rb, true, err
		}
		if !isFloatType(rb) {
			lb, err = b.Expr(l)
			return lb, rb, true, err
		}
		lb, err = b.bigConstFloat(ls, l.GetAConst().Location)
		return lb, rb, true, err
	case rbig && !lbig:
		if lb, err = b.Expr(l); err != nil {
			return lb, rb, true, err
		}
		if !isFloatType(lb) {
			rb, err = b.Expr(r)
			return lb, rb, true, err
		}
		rb, err = b.bigConstFloat(rs, r.GetAConst().Location)
		return lb, rb, true, err
	}
	return lb, rb, false, nil
}
