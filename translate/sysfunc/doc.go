// Package sysfunc holds the system catalog functions clients call while
// introspecting: format_type, pg_get_indexdef and the other pg_get_*def,
// pg_table_is_visible, obj_description, has_*_privilege, acldefault,
// pg_size_pretty and pg_relation_size, quote_ident and parse_ident,
// current_setting / set_config, and the like.
//
// Each function is a bind.SysFuncDef: it checks its arity, coerces its
// arguments to the types PostgreSQL declares (Binder.SysArity, SysArgs),
// and returns a call (Binder.SysCall) whose Go function runs row by row;
// one that reads the warehouse takes the statement's catalog snapshot
// inside that function, so a prepared statement sees the warehouse of each
// execution. Builtins lists them all; the backend builds it once and every
// session's binder finds a function there by name (bind.Env.SysFuncs).
// The binder knows nothing of this package: the dependency runs from the
// definitions to the binder's function API, as a new function needs no
// change in bind.
package sysfunc
