// Package needcgo stops a build without cgo with a message that says why.
// icegate parses SQL with pg_query_go, which wraps PostgreSQL's own parser
// (C code) through cgo; without cgo that package compiles empty and the
// build would fail far from the cause with "undefined: pg.Parse". translate
// imports this package, so a build with CGO_ENABLED=0 (Go's default when no
// C compiler is on PATH) fails here first, naming what is missing.
package needcgo
