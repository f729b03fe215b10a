// Package caterr turns the errors of catalog calls (catalog.ErrNotFound,
// ErrAlreadyExists, ErrCommitConflict, permission errors...) into the
// PostgreSQL errors a client expects: 42P01, 42P07, 40001, 42501... It is a
// leaf: it imports catalog and internal/pgerr only, so the session and the
// packages that run statements for it (sequences, views) speak of catalog
// failures alike.
package caterr
