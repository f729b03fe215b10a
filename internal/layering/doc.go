// Package layering holds the test that keeps icegate's imports flowing one
// way: cmd -> wire/auth/conf -> translate -> engine -> catalog, with
// syscat (the PostgreSQL system catalog, which translate fills) beside
// engine, and
// internal/pgerr, internal/pgtypes and internal/pgtext as leaves any layer
// may use.
package layering
