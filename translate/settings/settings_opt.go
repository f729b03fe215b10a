package settings

import (
	"strings"

	"github.com/icegate/icegate/translate/opt"
)

// OptimizerPassesName names the optimizer passes a session skips.
const OptimizerPassesName = "optimizer_disabled_passes"

// checkOptimizerPasses accepts a list of known pass names, normalised.
func checkOptimizerPasses(v, _ string) (string, error) {
	d, err := opt.ParseDisabled(v)
	if err != nil {
		return "", err
	}
	var names []string
	for _, p := range opt.Passes() {
		if d[p.Name] {
			names = append(names, p.Name)
		}
	}
	return strings.Join(names, ","), nil
}
