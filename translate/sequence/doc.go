// Package sequence is what a sequence is. A sequence is a catalog table of
// its own name, with no rows, whose properties hold what it is and where it
// stands:
//
//	icegate.sequence        = its options as JSON (Options)
//	icegate.sequence.state  = "<last_value> <is_called>", as PostgreSQL's
//	                          sequence row: "1 false" before the first nextval
//
// nextval takes values by a commit of the sequence table that moves the
// state forward, asserting the state it read (catalog.AssertProperty): the
// catalog's atomic commit is the compare-and-swap, so two sessions, or two
// icegate processes on one warehouse, never take the same value; the loser
// of a race reloads and tries again. To spare a commit per row, a session
// takes max(CACHE, rows left in the batch being evaluated) values at once
// and hands them out from memory; values a session took but did not use
// are lost, as in PostgreSQL with CACHE > 1. Changes of a sequence are not
// transactional (nor are they in PostgreSQL).
//
// This package holds the model: Options and State and how they are read
// from a table's properties, taking values (Options.Take), and the options
// of CREATE / ALTER SEQUENCE and identity columns (Spec, SpecOf,
// Spec.Resolve). Taking values by commit, the session's cache of values,
// currval and lastval, and the statements that create, alter and drop
// sequences run in package seqexec, over the session's seqexec.Env.
package sequence
