package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/describe"
	"github.com/icegate/icegate/translate/parse"
)

// metaStatement runs a metadata statement (DESCRIBE, SHOW TABLES,
// SHOW TBLPROPERTIES, SHOW CREATE TABLE, SHOW SCHEMAS). Results are text
// columns shaped like Spark's, tagged SHOW.
type metaStatement struct {
	s *session
	m *parse.MetaStmt
}

func (s *session) prepareMeta(m *parse.MetaStmt) Statement { return &metaStatement{s: s, m: m} }

func (st *metaStatement) ParamTypes() []uint32 { return nil }

func (st *metaStatement) columnNames() []string {
	switch st.m.Kind {
	case parse.MetaDescribe:
		if st.m.Column != "" {
			return []string{"info_name", "info_value"}
		}
		return []string{"col_name", "data_type", "comment"}
	case parse.MetaTblProperties:
		return []string{"key", "value"}
	case parse.MetaShowCreate:
		return []string{"createtab_stmt"}
	case parse.MetaShowTables:
		return []string{"namespace", "tableName", "isTemporary"}
	}
	return []string{"namespace"}
}

func (st *metaStatement) Columns() []pgtypes.Column {
	names := st.columnNames()
	cols := make([]pgtypes.Column, len(names))
	for i, n := range names {
		cols[i] = pgtypes.Column{Name: n, TypeOID: pgtypes.Text, Typmod: -1}
	}
	return cols
}

func (st *metaStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	var rows [][]string
	var err error
	switch st.m.Kind {
	case parse.MetaShowTables:
		rows, err = st.s.showTables(ctx, st.m.Schema)
		if err == nil && st.m.Pattern != nil {
			rows = filterRows(rows, 1, *st.m.Pattern)
		}
	case parse.MetaShowSchemas:
		rows, err = st.s.showSchemas(ctx)
		if err == nil && st.m.Pattern != nil {
			rows = filterRows(rows, 0, *st.m.Pattern)
		}
	default:
		var t *catalog.Table
		if t, err = st.s.ResolveTable(ctx, st.m.Table); err != nil {
			return nil, err
		}
		switch st.m.Kind {
		case parse.MetaDescribe:
			if st.m.Column != "" {
				rows, err = describe.Column(t, st.m.Column, st.m.Extended)
			} else {
				rows = describe.Table(t, st.s.qualifiedName(t), st.m.Extended)
			}
		case parse.MetaTblProperties:
			rows = describe.Properties(t, st.s.qualifiedName(t), st.m.Key)
		case parse.MetaShowCreate:
			rows = [][]string{{describe.CreateTable(t, st.s.qualifiedName(t))}}
		}
	}
	if err != nil {
		return nil, err
	}
	names := st.columnNames()
	cols := make([][]string, len(names))
	for i := range cols {
		cols[i] = make([]string, len(rows))
		for r, row := range rows {
			cols[i][r] = row[i]
		}
	}
	return textTable(names, cols, "SHOW")
}

// qualifiedName is catalog.namespace.table.
func (s *session) qualifiedName(t *catalog.Table) string {
	parts := append([]string{s.cat.Name()}, t.Ident.Namespace...)
	return strings.Join(append(parts, t.Ident.Name), ".")
}
