package bind

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/enumtype"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Writing into a column whose PostgreSQL type Iceberg lacks
// (plan.PGTypesProperty): the value is stored as the plain Iceberg type
// (string, int) after the checks PostgreSQL's assignment makes.

// recordedAssignable reports assignments PostgreSQL allows into the types
// icegate records beyond those of assignable: json and jsonb into each
// other.
func recordedAssignable(from, to plan.Type) bool {
	j := func(o uint32) bool { return o == pgtypes.JSON || o == pgtypes.JSONB }
	return j(from.OID) && j(to.OID)
}

// assignRecorded wraps e, x converted to c's Arrow type, in the check of
// c's recorded PostgreSQL type: jsonb normalised (22P02 for bad JSON), json
// checked and kept as written, varchar(n) and char(n) at most n characters
// (22001) and char(n) blank-padded, smallint in range (22003).
func assignRecorded(x Bound, c Column, e expr.Expr) expr.Expr {
	if x.null {
		return e
	}
	switch c.Type.OID {
	case pgtypes.JSONB, pgtypes.JSON:
		// Always parsed: a json or jsonb parameter arrives as the client
		// wrote it.
		if e.Type().ID() != arrow.STRING {
			return e
		}
		fn := "jsonb_in"
		if c.Type.OID == pgtypes.JSON {
			fn = "json_in"
		}
		return &expr.Call{Fn: fn, Args: []expr.Expr{e}, T: expr.Text}
	case pgtypes.Varchar, pgtypes.BPChar:
		fn := "varchar_assign"
		if c.Type.OID == pgtypes.BPChar {
			fn = "bpchar_assign"
		}
		return &expr.Call{Fn: fn, Args: []expr.Expr{e, &expr.Lit{V: c.Type.Typmod - 4, T: expr.Int4}}, T: expr.Text}
	case pgtypes.VarcharArray, pgtypes.BPCharArray:
		if c.Type.Typmod < 5 || !textList(e.Type()) {
			return e
		}
		fn := "varchar_assign_elems"
		if c.Type.OID == pgtypes.BPCharArray {
			fn = "bpchar_assign_elems"
		}
		return &expr.Call{Fn: fn, Args: []expr.Expr{e, &expr.Lit{V: c.Type.Typmod - 4, T: expr.Int4}}, T: e.Type()}
	case pgtypes.JSONArray:
		// Always checked, as json is: a json[] parameter arrives as the
		// client wrote it.
		if !textList(e.Type()) {
			return e
		}
		return &expr.Call{Fn: "json_in_elems", Args: []expr.Expr{e}, T: e.Type()}
	case pgtypes.Int2:
		if x.T.OID == pgtypes.Int2 && !x.Unknown() {
			return e
		}
		return &expr.Cast{Arg: &expr.Cast{Arg: e, T: plan.ArrowOf(plan.TInt2)}, T: c.Arrow}
	}
	return e
}

// recordedColumn reports a column typed by a recorded PostgreSQL type
// rather than by its Iceberg type (a variant read as jsonb is not one).
func recordedColumn(c Column) bool {
	if c.Arrow == nil {
		return false
	}
	switch c.Type.OID {
	case pgtypes.JSON, pgtypes.JSONB:
		return c.Arrow.ID() == arrow.STRING
	case pgtypes.Int2:
		return c.Arrow.ID() == arrow.INT32
	case pgtypes.Varchar, pgtypes.BPChar:
		return c.Type.Typmod >= 5 && c.Arrow.ID() == arrow.STRING
	case pgtypes.VarcharArray, pgtypes.BPCharArray:
		return c.Type.Typmod >= 5 && textList(c.Arrow)
	case pgtypes.JSONArray:
		return textList(c.Arrow)
	}
	return false
}

// textList reports lists (of any number of dimensions) of strings: the
// values of varchar[], char[] and json[].
func textList(t arrow.DataType) bool {
	d, leaf := expr.ArrayLeaf(t)
	return d >= 1 && leaf.ID() == arrow.STRING
}

// RecordedText wraps e, a column's value read from text (COPY FROM) and
// converted to the column's Arrow type, in the check of the column's
// recorded PostgreSQL type, as INSERT makes it.
func RecordedText(c Column, e expr.Expr) expr.Expr {
	if !recordedColumn(c) {
		return e
	}
	return assignRecorded(Bound{T: plan.TUnknown}, c, e)
}

// arrayAssignable reports an array assigned to an array column whose
// element types PostgreSQL converts on assignment (bigint[] into int[]).
func arrayAssignable(from, to plan.Type) bool {
	fe, te := pgtypes.ElemOf(from.OID), pgtypes.ElemOf(to.OID)
	return fe != 0 && te != 0 && assignable(plan.Type{OID: fe, Typmod: -1}, plan.Type{OID: te, Typmod: -1})
}

// assignEnum wraps e, a value for a column of an enum type, in the check
// that it is one of the type's labels (22P02), read when bound: ALTER TYPE
// ... ADD VALUE is seen by the next statement.
func (b *Binder) assignEnum(c Column, e expr.Expr) (expr.Expr, error) {
	labels, name, err := b.EnumLabels(c.Enum)
	if err != nil {
		return nil, err
	}
	return EnumCheck(e, labels, name), nil
}

// EnumCheck wraps e, a text value for a column of enum type name whose
// labels are the JSON array labels, in the check that it is one of them.
func EnumCheck(e expr.Expr, labels, name string) expr.Expr {
	return &expr.Call{Fn: "enum_in", Args: []expr.Expr{e, &expr.Lit{V: labels, T: expr.Text}, &expr.Lit{V: name, T: expr.Text}}, T: expr.Text}
}

// EnumLabels reads the labels of enum type qual ("schema.name") as the
// JSON array its table keeps, and the type's name.
func (b *Binder) EnumLabels(qual string) (labels, name string, err error) {
	i := strings.LastIndexByte(qual, '.')
	tn := parse.TableName{Schema: qual[:max(i, 0)], Name: qual[i+1:], Written: qual}
	t, err := b.env.ResolveTable(b.ctx, tn)
	if err != nil || !enumtype.Is(t) {
		return "", "", pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", qual)
	}
	return t.Metadata.Properties[enumtype.LabelsProp], tn.Name, nil
}
