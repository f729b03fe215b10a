// Package sparkfunc holds the functions icegate takes from Spark SQL that
// PostgreSQL lacks: the constructors of nested values (named_struct,
// struct, map) and the functions that are PostgreSQL's under another name
// or with Spark's argument types (nvl, ifnull, lcase, ucase, instr,
// datediff, date_add, date_sub, array_contains).
//
// Each function is a bind.FuncDef: it binds the call as written, over the
// binder's exported API (Binder.Exprs, Call, CastTo, Coerce), and may leave
// a call it does not take (an aggregate's use of nvl) to PostgreSQL's
// functions. Builtins lists them; the backend builds it once and every
// session's binder finds a function there by name (bind.Env.SparkFuncs),
// after the system catalog functions and before the aggregates, as the
// catalog functions of package translate/sysfunc are found. The binder
// knows nothing of this package: a new Spark function needs no change in
// bind. Spark's functions the engine computes as they are (the date and
// time functions, round) are the engine's (engine/expr/spark_funcs.go);
// writing struct(...) into a struct column by position is INSERT's
// (bind.SparkStructFn).
//
// sparkfunc imports bind and plan; nothing under translate/ but package
// translate imports it.
package sparkfunc
