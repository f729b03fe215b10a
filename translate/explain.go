package translate

import (
	"strings"

	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// planText is the plan EXPLAIN shows for p with the default optimizer
// settings, one node per line from the result down to the scans (tests).
func planText(p *plan.Select) string {
	return strings.Join(explainLines(p, opt.Config{}, false), "\n")
}

// explainLines is EXPLAIN's text of p, optimized with cfg; verbose adds the
// optimizer's passes.
func explainLines(p *plan.Select, cfg opt.Config, verbose bool) []string {
	lines := opt.Statement(p, cfg).Render(nil)
	if verbose {
		lines = append(lines, "Optimizer passes: "+strings.Join(opt.Applied(cfg), ", "))
	}
	return lines
}
