package bind

import (
	"context"

	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// set_config(name, value, is_local) and current_setting(name [,
// missing_ok]) run when the statement does (never folded at bind), so a
// column may give the name and set_config changes the session as SET
// (is_local: SET LOCAL) would, with the same transaction-block rules.
func init() {
	registerSysFuncs(map[string]sysFuncDef{
		"current_setting": {bind: bindCurrentSetting},
		"set_config":      {bind: bindSetConfig},
	})
}

func bindCurrentSetting(b *Binder, c *sysCallSite) (Bound, error) {
	if err := b.sysArity(c, 1, 2); err != nil {
		return Bound{}, err
	}
	args := b.sysArgs(c, plan.TText)
	if len(c.args) == 2 {
		args = b.sysArgs(c, plan.TText, plan.TBool)
	}
	e := b.env
	return b.sysCall(c, plan.TText, args, sysCallOpts{volatile: true, lenient: true}, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
		return e.CurrentSetting(a)
	})
}

func bindSetConfig(b *Binder, c *sysCallSite) (Bound, error) {
	if err := b.sysArity(c, 3); err != nil {
		return Bound{}, err
	}
	args := b.sysArgs(c, plan.TText, plan.TText, plan.TBool)
	e := b.env
	return b.sysCall(c, plan.TText, args, sysCallOpts{volatile: true, lenient: true}, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
		return e.SetConfig(a)
	})
}
