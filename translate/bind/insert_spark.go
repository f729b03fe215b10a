package bind

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// branchTarget resolves Spark's t.branch_<name> (ns.t.branch_<name>) as
// the target of a write, when tn names no table (err is why): the table
// and the branch. ok is false with the error to report: err itself when
// tn is not such a name, or why the branch cannot be written.
func (b *Binder) branchTarget(tn parse.TableName, err error) (*catalog.Table, string, bool, error) {
	// ns.t.branch_b reads as a three-part name: a cross-database reference.
	if c := pgerr.Code(err); (c != pgerr.UndefinedTable && c != pgerr.FeatureNotSupported) || tn.Schema == "" {
		return nil, "", false, err
	}
	var kind, ref string
	switch {
	case strings.HasPrefix(tn.Name, "branch_"):
		kind, ref = "branch", strings.TrimPrefix(tn.Name, "branch_")
	case strings.HasPrefix(tn.Name, "tag_"):
		kind, ref = "tag", strings.TrimPrefix(tn.Name, "tag_")
	}
	if ref == "" {
		return nil, "", false, err
	}
	base := parse.TableName{Schema: tn.Catalog, Name: tn.Schema, Written: tn.Written}
	t, berr := b.env.ResolveTable(b.ctx, base)
	if berr != nil || t.Metadata == nil {
		return nil, "", false, err
	}
	if kind == "tag" {
		return nil, "", false, pgerr.New(pgerr.WrongObjectType, "cannot write to tag \"%s\" of table \"%s\"", ref, tn.Schema).
			WithHint("Tags are read-only; write to a branch (%s.branch_<name>).", tn.Schema)
	}
	r, found := t.Metadata.Refs[ref]
	switch {
	case !found:
		return nil, "", false, pgerr.New(pgerr.UndefinedObject, "branch \"%s\" of table \"%s\" does not exist", ref, tn.Schema).
			WithHint("Create it with ALTER TABLE %s CREATE BRANCH %s.", tn.Schema, ref)
	case r.Type != "branch":
		return nil, "", false, pgerr.New(pgerr.WrongObjectType, "cannot write to tag \"%s\" of table \"%s\"", ref, tn.Schema)
	}
	return t, ref, true, nil
}

// sparkPartition is the PARTITION (...) clause of a Spark INSERT (nil:
// none).
func (b *Binder) sparkPartition() []parse.PartitionValue {
	if x := b.stmt.Extras; x != nil && x.Insert != nil && x.Insert.HasPartition {
		return x.Insert.Partition
	}
	return nil
}

// withoutStatic drops the columns PARTITION (...) gives a static value from
// the columns the query fills when INSERT names none (Spark: the query
// supplies the other columns, in the table's order); a static column the
// INSERT names is an error.
func (b *Binder) withoutStatic(ins *pg.InsertStmt, targets []int, cols []Column) ([]int, error) {
	part := b.sparkPartition()
	if part == nil {
		return targets, nil
	}
	static := map[int]bool{}
	for _, pv := range part {
		i := FindColumn(cols, pv.Column, false)
		if i < 0 {
			return nil, b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of PARTITION does not exist", pv.Column), int32(pv.Loc))
		}
		if pv.Value != "" {
			static[i] = true
		}
	}
	if len(ins.Cols) > 0 {
		for k, i := range targets {
			if static[i] {
				return nil, b.ErrAt(pgerr.New(pgerr.DuplicateColumn, "column \"%s\" has a value in PARTITION and in the column list", cols[i].Name),
					ins.Cols[k].GetResTarget().GetLocation())
			}
		}
		return targets, nil
	}
	var out []int
	for _, i := range targets {
		if !static[i] {
			out = append(out, i)
		}
	}
	return out, nil
}

// applyStatic gives the static columns of PARTITION (...) their values in
// every row p writes.
func (b *Binder) applyStatic(p *InsertPlan) error {
	for _, pv := range b.sparkPartition() {
		if pv.Value == "" {
			continue
		}
		c := FindColumn(p.Cols, pv.Column, false)
		if c < 0 {
			return b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of PARTITION does not exist", pv.Column), int32(pv.Loc))
		}
		node, err := b.StaticValueNode(pv)
		if err != nil {
			return err
		}
		x, err := b.Expr(node)
		if err != nil {
			return err
		}
		e, err := b.Assign(x, p.Cols[c], int32(pv.ValueLoc))
		if err != nil {
			return err
		}
		if b.LitErr != nil {
			return b.LitErr
		}
		for _, row := range p.Values {
			row[c] = e
		}
		if p.Project != nil {
			p.Project[c] = e
		}
	}
	return nil
}

// StaticValueNode parses the value of a static PARTITION item in place: a
// blank text with the value where it was written, so that the positions
// of its errors are the user's.
func (b *Binder) StaticValueNode(pv parse.PartitionValue) (*pg.Node, error) {
	buf := []byte(strings.Repeat(" ", max(len(b.stmt.SQL), pv.ValueLoc+len(pv.Value))))
	copy(buf, "SELECT")
	copy(buf[pv.ValueLoc:], pv.Value)
	tree, err := pg.Parse(string(buf))
	var sel *pg.SelectStmt
	if err == nil && len(tree.Stmts) == 1 {
		sel = tree.Stmts[0].Stmt.GetSelectStmt()
	}
	if sel == nil || len(sel.TargetList) != 1 || sel.FromClause != nil || sel.WhereClause != nil || sel.TargetList[0].GetResTarget().GetName() != "" {
		return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "syntax error in the PARTITION value of column \"%s\"", pv.Column), int32(pv.ValueLoc))
	}
	return sel.TargetList[0].GetResTarget().GetVal(), nil
}

// SparkStructFn names the calls Spark's struct(...) makes (package
// translate/sparkfunc): a named_struct whose field names are its own
// (col1, col2, ... or the columns'), which a write into
// a struct column of as many fields replaces by the column's, in order, as
// Spark matches a struct by position (sparkStructAssign).
const SparkStructFn = "spark_struct"

// sparkStructAssign renames the fields of a struct(...) value written
// into a struct column with as many fields; x is returned as it is
// otherwise.
func sparkStructAssign(x Bound, to arrow.DataType) Bound {
	call, ok := x.E.(*expr.Call)
	st, isStruct := to.(*arrow.StructType)
	if !ok || call.Fn != SparkStructFn || !isStruct || len(call.Args) != 2*st.NumFields() {
		return x
	}
	args := append([]expr.Expr(nil), call.Args...)
	for k, f := range st.Fields() {
		args[2*k] = &expr.Lit{V: f.Name, T: expr.Text}
	}
	x.E = &expr.Call{Fn: "named_struct", Args: args, T: call.T}
	return x
}
