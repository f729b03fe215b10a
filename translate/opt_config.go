package translate

import (
	"strings"

	"github.com/icegate/icegate/translate/opt"
)

// optimizerPassesSetting names the optimizer passes a session skips.
const optimizerPassesSetting = "optimizer_disabled_passes"

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

// optConfig is the optimizer's configuration for the session's settings.
func (s *session) optConfig() opt.Config {
	v, _ := s.settings.get(optimizerPassesSetting)
	d, err := opt.ParseDisabled(v)
	if err != nil || len(d) == 0 {
		return opt.Config{} // the setting was checked when set
	}
	return opt.Config{Disabled: d}
}
