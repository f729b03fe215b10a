// Package jsonfunc holds the JSON building functions and aggregates and
// jsonb's modification operators:
//
//   - build.go: json_build_object, json_build_array, to_json, to_jsonb,
//     row_to_json, array_to_json and their jsonb forms, and the aggregates
//     json_agg, jsonb_agg, json_object_agg and jsonb_object_agg. Each value
//     becomes a JSON fragment (a row, whole-row reference or ROW(...) an
//     object of its columns) and the functions assemble fragments
//     (engine/expr/json_build.go); an aggregate is array_agg of fragments,
//     so ORDER BY, FILTER, DISTINCT and OVER work as there;
//   - modify.go: jsonb || jsonb, jsonb - text / int / text[] and
//     jsonb #- text[], computed per row over jsonb's text.
//
// Funcs implements bind.JSONFuncs: the session hands it to the binder
// (bind.Env.JSONFuncs), which calls it where a call or an operator is one
// of these (func.go, jsonb_ops.go). The definitions bind over the
// binder's exported API (Binder.Expr, Call, Coerce, WholeRow, JSONText,
// AggregateWith, WindowFuncWith, JSONBText); the binder keeps what types
// jsonb values (casts, comparison, containment, its order, COALESCE over
// json) and knows nothing of this package.
//
// jsonfunc imports bind, plan and regtype; nothing under translate/ but
// package translate imports it.
package jsonfunc
