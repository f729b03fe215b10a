package sysfunc

import "github.com/icegate/icegate/translate/bind"

// Builtins are the system catalog functions icegate has, by name.
func Builtins() bind.SysFuncs {
	m := map[string]bind.SysFuncDef{}
	for _, add := range []func(map[string]bind.SysFuncDef){
		addACLFuncs, addAdminFuncs, addDefFuncs, addFunctionDefFuncs, addSignatureFuncs, addFormatFuncs, addMiscFuncs,
		addPrivFuncs, addSetConfigFuncs, addSizeFuncs, addSnapshotFuncs, addTextFuncs, addUUIDFuncs, addJSONFuncs,
	} {
		add(m)
	}
	return m
}
