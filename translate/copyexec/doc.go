// Package copyexec is COPY's part that needs no session: its options
// (Options, ParseOptions: the WITH list and the legacy words, with
// PostgreSQL's defaults and checks), the copied columns of COPY FROM
// (Targets), the conversion of COPY FROM's text rows into batches of the
// table's columns with PostgreSQL's input rules, write defaults and the
// defaults kept in the table's properties (Converter), and the query of
// COPY t TO STDOUT (TableQuery).
//
// The statements stay in translate (copy_exec.go): COPY FROM writes
// through the session's table writer and COPY TO runs the session's
// select statement. translate.CopyOptions, part of wire's contract, is an
// alias of Options. This package imports bind, ddl and parse, never
// translate.
package copyexec
