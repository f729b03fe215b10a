package procedure

import (
	"context"
	"math"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/compact"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// The procedures that rewrite a table's files without changing its rows,
// with Spark's names, parameters and result columns:
//
//	rewrite_data_files(table, strategy, sort_order, options, where)
//	rewrite_position_delete_files(table, options)
//	rewrite_manifests(table, use_caching, spec_id)
//
// The work is engine/compact's (data and delete files) and catalog's
// (manifests); each is one "replace" commit validated against what was
// committed meanwhile (40001 when a concurrent change touched the files
// rewritten), and a cancelled or failed run removes the files it wrote.

func rewriteProcedures() []*Procedure {
	return []*Procedure{
		{Name: "rewrite_data_files",
			Params: []Param{tableParam, {Name: "strategy", Type: String}, {Name: "sort_order", Type: String},
				{Name: "options", Type: Map}, {Name: "where", Type: String}},
			Columns: []pgtypes.Column{int4Column("rewritten_data_files_count"), int4Column("added_data_files_count"),
				int8Column("rewritten_bytes_count"), int4Column("failed_data_files_count"), int4Column("removed_delete_files_count")},
			Run: rewriteDataFiles},
		{Name: "rewrite_position_delete_files",
			Params: []Param{tableParam, {Name: "options", Type: Map}},
			Columns: []pgtypes.Column{int4Column("rewritten_delete_files_count"), int4Column("added_delete_files_count"),
				int8Column("rewritten_bytes_count"), int8Column("added_bytes_count")},
			Run: rewritePositionDeleteFiles},
		{Name: "rewrite_manifests",
			Params:  []Param{tableParam, {Name: "use_caching", Type: Bool}, {Name: "spec_id", Type: Int}},
			Columns: []pgtypes.Column{int4Column("rewritten_manifests_count"), int4Column("added_manifests_count")},
			Run:     rewriteManifests},
	}
}

func int4Column(name string) pgtypes.Column {
	return pgtypes.Column{Name: name, TypeOID: pgtypes.Int4, Typmod: -1}
}

// int4 is a count as an int4 result value (saturating).
func int4(n int) int32 { return int32(min(n, math.MaxInt32)) }

// RewriteFilterEnv is the part of the session rewrite_data_files' where
// argument needs: it binds a condition over the table's columns, as in a
// WHERE clause, into the predicates that select files (every AND-ed
// condition a column compared with constants; others are 0A000). The
// session's Env implements it (translate/call_env_rewrite.go).
type RewriteFilterEnv interface {
	RewriteFilter(ctx context.Context, t *catalog.Table, where string) ([]catalog.Predicate, error)
}

func rewriteDataFiles(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	t, mc, err := env.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	spec := compact.Spec{Catalog: mc, Table: t, Progress: func(msg string) { env.Notice(ctx, msg) }}
	strategy, hasStrategy := args.String("strategy")
	sortOrder, hasOrder := args.String("sort_order")
	switch s := strings.ToLower(strings.TrimSpace(strategy)); {
	case !hasStrategy && !hasOrder, s == "binpack" && hasStrategy:
		if hasOrder {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "rewrite_data_files: the binpack strategy takes no sort_order").
				WithHint("Use strategy => 'sort' to write the rows in an order.")
		}
		spec.Strategy = compact.Binpack
	case !hasStrategy || s == "sort":
		spec.Strategy = compact.Sort
		if hasOrder {
			if spec.SortOrder, spec.ZOrder, err = compact.ParseSortOrder(t.Metadata.CurrentSchema(), sortOrder); err != nil {
				return nil, err
			}
			if err := checkZOrder(t.Metadata, spec.ZOrder); err != nil {
				return nil, err
			}
		} else if !hasSortOrder(t.Metadata) {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "rewrite_data_files: cannot sort table %s, which has no sort order", table).
				WithHint("Give sort_order, or set the table's order with ALTER TABLE ... WRITE ORDERED BY.")
		}
	default:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "rewrite_data_files: unsupported strategy %q", strategy).
			WithHint("The strategies are binpack and sort.")
	}
	opts, _ := args.Map("options")
	if spec.Options, err = compact.ParseOptions(t.Metadata.Properties, opts); err != nil {
		return nil, err
	}
	if where, ok := args.String("where"); ok && strings.TrimSpace(where) != "" {
		fe, ok := env.(RewriteFilterEnv)
		if !ok {
			return nil, pgerr.Unsupported("the where argument of rewrite_data_files here")
		}
		if spec.Filter, err = fe.RewriteFilter(ctx, t, where); err != nil {
			return nil, err
		}
	}
	res, err := compact.RewriteDataFiles(ctx, spec)
	if err != nil {
		return nil, err
	}
	return [][]any{{int4(res.RewrittenDataFiles), int4(res.AddedDataFiles), res.RewrittenBytes,
		int4(res.FailedDataFiles), int4(res.RemovedDeleteFiles)}}, nil
}

// checkZOrder refuses a z-order over a column the current spec partitions
// by identity: its value is the same in every row of a file.
func checkZOrder(m *catalog.TableMetadata, ids []int) error {
	spec := m.SpecByID(m.DefaultSpecID)
	if spec == nil {
		return nil
	}
	for _, id := range ids {
		for _, f := range spec.Fields {
			if f.SourceID == id && f.Transform.Name == "identity" {
				name := f.Name
				if c := m.CurrentSchema().FindField(id); c != nil {
					name = c.Name
				}
				return pgerr.New(pgerr.InvalidParameterValue, "rewrite_data_files: cannot z-order by %s, an identity partition column", name).
					WithDetail("Its value is the same in every row of a data file.")
			}
		}
	}
	return nil
}

// hasSortOrder reports whether the table's default sort order has fields.
func hasSortOrder(m *catalog.TableMetadata) bool {
	for _, o := range m.SortOrders {
		if o.ID == m.DefaultSortOrderID && len(o.Fields) > 0 {
			return true
		}
	}
	return false
}

func rewritePositionDeleteFiles(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	t, mc, err := env.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	opts, _ := args.Map("options")
	o, err := compact.ParsePositionDeleteOptions(t.Metadata.Properties, opts)
	if err != nil {
		return nil, err
	}
	res, err := compact.RewritePositionDeletes(ctx, compact.PositionDeleteSpec{Catalog: mc, Table: t, Options: o,
		Progress: func(msg string) { env.Notice(ctx, msg) }})
	if err != nil {
		return nil, err
	}
	return [][]any{{int4(res.RewrittenDeleteFiles), int4(res.AddedDeleteFiles), res.RewrittenBytes, res.AddedBytes}}, nil
}

func rewriteManifests(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	t, mc, err := env.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	var spec catalog.RewriteManifestsSpec
	if id, ok := args.Long("spec_id"); ok {
		if t.Metadata.SpecByID(int(id)) == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "rewrite_manifests: table %s has no partition spec %d", table, id)
		}
		n := int(id)
		spec.SpecID = &n
	}
	res, err := catalog.RewriteManifests(ctx, mc, t.Ident, spec)
	if err != nil {
		return nil, err
	}
	return [][]any{{int4(res.Rewritten), int4(res.Added)}}, nil
}
