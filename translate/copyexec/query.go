package copyexec

import pg "github.com/pganalyze/pg_query_go/v6"

// TableQuery is SELECT cols FROM t for COPY t [(cols)] TO STDOUT.
func TableQuery(rel *pg.RangeVar, cols []string) *pg.SelectStmt {
	sel := &pg.SelectStmt{FromClause: []*pg.Node{{Node: &pg.Node_RangeVar{RangeVar: rel}}}, LimitOption: pg.LimitOption_LIMIT_OPTION_DEFAULT, Op: pg.SetOperation_SETOP_NONE}
	if len(cols) == 0 {
		star := &pg.Node{Node: &pg.Node_AStar{AStar: &pg.A_Star{}}}
		sel.TargetList = []*pg.Node{{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{
			Val: &pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: &pg.ColumnRef{Fields: []*pg.Node{star}, Location: rel.Location}}}, Location: rel.Location}}}}
		return sel
	}
	for _, c := range cols {
		name := &pg.Node{Node: &pg.Node_String_{String_: &pg.String{Sval: c}}}
		sel.TargetList = append(sel.TargetList, &pg.Node{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{
			Val: &pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: &pg.ColumnRef{Fields: []*pg.Node{name}, Location: -1}}}, Location: -1}}})
	}
	return sel
}
