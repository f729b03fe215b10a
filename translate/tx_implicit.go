package translate

import "context"

// Implicit transactions.
//
// PostgreSQL runs a query string of several statements, and the statements
// of an extended-protocol batch up to Sync, in one transaction: when one
// fails, the data changes of the others are undone too (pgx batches and
// scripts rely on it). wire calls BeginImplicit before such statements and
// EndImplicit when the string or batch ends. The first data change, or
// the first schema change a block stages (every ddlStatement but those
// marked atOnce: CREATE / DROP SCHEMA, CREATE INDEX, DROP TABLE ...
// PURGE), then opens an implicit block (txBlock.implicit) that stages
// writes as an explicit one does (tx_writes.go); EndImplicit commits it, or rolls it back
// when a statement failed. An implicit block looks idle to the client
// (ReadyForQuery 'I'); BEGIN turns it into an explicit one, COMMIT and
// ROLLBACK end it with PostgreSQL's warning, and savepoints need an explicit
// block. Single statements commit when they end, as before.

// BeginImplicit marks the statements that follow, until EndImplicit, as
// one implicit transaction.
func (s *session) BeginImplicit() { s.implicit = true }

// EndImplicit ends the implicit transaction: it commits the writes staged
// in an implicit block, or drops them when a statement failed.
func (s *session) EndImplicit(ctx context.Context) error {
	s.implicit = false
	if s.tx == nil {
		// Transaction-level advisory locks taken outside a block end with
		// the implicit transaction.
		s.releaseAdvisory(true)
	}
	if s.tx == nil || !s.tx.implicit {
		return nil
	}
	if s.tx.failed {
		s.rollbackWrites()
		return s.endBlock(false)
	}
	err := s.commitWrites(ctx)
	if eerr := s.endBlock(err == nil); err == nil {
		err = eerr
	}
	return err
}

// openImplicitBlock opens the implicit block a write inside an implicit
// transaction stages into.
func (s *session) openImplicitBlock() {
	if s.tx != nil || !s.implicit {
		return
	}
	if err := s.beginBlock(nil); err != nil {
		return
	}
	s.tx.implicit = true
}

// inImplicitBlock reports whether the open block is an implicit one.
func (s *session) inImplicitBlock() bool { return s.tx != nil && s.tx.implicit }

// commitImplicitBlock commits what the open implicit block staged and ends
// it; the statements after it in the query string open another.
func (s *session) commitImplicitBlock(ctx context.Context) error {
	if !s.inImplicitBlock() {
		return nil
	}
	err := s.commitWrites(ctx)
	if eerr := s.endBlock(err == nil); err == nil {
		err = eerr
	}
	return err
}
