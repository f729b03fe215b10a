package opt

import (
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// A Pass is one named rewrite of a relational tree. A pass copies the
// nodes it changes and never changes a node in place: a prepared
// statement's bound tree is optimized again at each Execute.
type Pass struct {
	Name string // as EXPLAIN VERBOSE and the disabled-passes setting spell it
	Doc  string
	run  func(plan.Rel, Config) plan.Rel
}

// Passes lists the optimizer's passes in the order they run.
func Passes() []Pass {
	return []Pass{
		{Name: "fold_constants", Doc: "expressions without columns or volatile functions are computed once, as the engine computes them; one that fails stays, to fail only if a row evaluates it (fold.go)", run: foldConstants},
		{Name: "date_comparisons", Doc: "a date compared with a constant timestamp, as a timestamp, is compared with the date that rounds it exactly, so that scans can prune on the date column (fold.go)", run: dateComparisons},
		{Name: "push_down", Doc: "WHERE conditions move below projections, sorts and group keys and into the join inputs they concern; conditions over both sides of an inner join become its join condition", run: pushDownAll},
		{Name: "cost_order_joins", Doc: "each cluster of inner joins whose tables' row counts are known puts its tables in the order, every join linked by an equality, that keeps the estimated intermediate results least, when that is clearly cheaper than order_joins' own (joinorder.go)", run: costOrderJoinsPass},
		{Name: "order_joins", Doc: "each cluster of inner joins is rebuilt so that every join has a condition linking it to the tables joined before; a table a join reduces is joined first (reduce.go)", run: treeOnly(orderJoins)},
		{Name: "push_down_joined", Doc: "push_down again over the reordered joins", run: pushDownAll},
		{Name: "sink_semi_joins", Doc: "a semi join moves below the joins and projections that do not need its right side (semi.go)", run: treeOnly(sinkSemiJoins)},
		{Name: "restrict_keys", Doc: "an aggregation a join looks groups up in computes only the groups looked up (keys.go)", run: treeOnly(restrictKeys)},
	}
}

// costOrderJoinsPass chooses only the order order_joins builds: with
// order_joins disabled it does nothing.
func costOrderJoinsPass(r plan.Rel, cfg Config) plan.Rel {
	if cfg.Disabled["order_joins"] {
		return r
	}
	return costOrderJoins(r)
}

func pushDownAll(r plan.Rel, _ Config) plan.Rel { return pushDown(r, nil) }

// treeOnly adapts a pass that needs nothing but the tree.
func treeOnly(f func(plan.Rel) plan.Rel) func(plan.Rel, Config) plan.Rel {
	return func(r plan.Rel, _ Config) plan.Rel { return f(r) }
}

// Config chooses what the optimizer does. The zero value runs every pass.
type Config struct {
	// Disabled names passes to skip, for debugging a plan (the setting
	// optimizer_disabled_passes).
	Disabled map[string]bool
	// TimeZone is the session's TimeZone setting, which constants of
	// type timestamp with time zone are computed in (nil means UTC).
	TimeZone *time.Location
}

// Optimize runs the passes cfg enables over r, in order.
func Optimize(r plan.Rel, cfg Config) plan.Rel {
	for _, p := range Passes() {
		if !cfg.Disabled[p.Name] {
			r = p.run(r, cfg)
		}
	}
	return r
}

// Applied lists the names of the passes cfg runs, in order (EXPLAIN
// VERBOSE shows them).
func Applied(cfg Config) []string {
	var out []string
	for _, p := range Passes() {
		if !cfg.Disabled[p.Name] {
			out = append(out, p.Name)
		}
	}
	return out
}

// ParseDisabled reads a comma-separated list of pass names, as the
// setting holds it; an unknown name is 22023.
func ParseDisabled(v string) (map[string]bool, error) {
	known := map[string]bool{}
	var names []string
	for _, p := range Passes() {
		known[p.Name] = true
		names = append(names, p.Name)
	}
	out := map[string]bool{}
	for _, f := range strings.Split(v, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		if !known[f] {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unknown optimizer pass %q", f).
				WithHint("The passes are: %s.", strings.Join(names, ", "))
		}
		out[f] = true
	}
	return out, nil
}
