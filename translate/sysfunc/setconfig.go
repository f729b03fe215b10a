package sysfunc

import (
	"context"
	"maps"

	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// set_config(name, value, is_local) and current_setting(name [,
// missing_ok]) run when the statement does (never folded at bind), so a
// column may give the name and set_config changes the session as SET
// (is_local: SET LOCAL) would, with the same transaction-block rules.
func addSetConfigFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"current_setting": {Bind: bindCurrentSetting},
		"set_config":      {Bind: bindSetConfig},
	})
}

func bindCurrentSetting(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1, 2); err != nil {
		return bind.Bound{}, err
	}
	args := b.SysArgs(c, plan.TText)
	if len(c.Args) == 2 {
		args = b.SysArgs(c, plan.TText, plan.TBool)
	}
	e := b.Env()
	return b.SysCall(c, plan.TText, args, bind.SysCallOpts{Volatile: true, Lenient: true}, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
		return e.CurrentSetting(a)
	})
}

func bindSetConfig(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 3); err != nil {
		return bind.Bound{}, err
	}
	args := b.SysArgs(c, plan.TText, plan.TText, plan.TBool)
	e := b.Env()
	return b.SysCall(c, plan.TText, args, bind.SysCallOpts{Volatile: true, Lenient: true}, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
		return e.SetConfig(a)
	})
}
