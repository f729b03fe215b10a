// Package opt is the optimizer: an ordered list of named passes
// (passes.go) that rewrite a bound relational tree (package plan) into an
// equivalent one that is cheaper to run, before package lower turns it
// into engine operators.
//
// Every pass is a function from tree to tree that copies what it changes.
// The order matters: constants are computed first and dates compared with
// them rewritten (fold.go), so that the later passes and the scans' pruning
// see plain column-versus-constant conditions; predicates are pushed down
// before joins are ordered
// (so each join sees the conditions that link it), and again after (so
// the new join conditions reach the inputs), then semi joins sink and
// aggregations a join looks groups up in are restricted to the keys looked
// up. A pass can be switched off by name with the setting
// optimizer_disabled_passes, and EXPLAIN VERBOSE names the passes that ran.
//
// opt sees nothing but plan and the engine's expressions: no catalog, no
// data, and of the session only what Config carries (the TimeZone that
// constants of timestamp with time zone are computed in). Its tests
// build trees directly: testdata/*.txt write them in a small indented
// language over a catalog declared in the file (tree_test.go) and hold
// the optimized plans as EXPLAIN renders them (datadriven_test.go;
// go test ./translate/opt -rewrite rewrites them).
package opt
