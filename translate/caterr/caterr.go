package caterr

import (
	"context"
	"errors"
	"io/fs"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Kind says what a catalog call was about, for the SQLSTATE and the
// message of its errors.
type Kind int

const (
	Table Kind = iota
	Schema
)

// Convert converts an error of a catalog call about the object name
// (a table or a schema, as written) into the PostgreSQL error a client
// expects. Errors that already carry a SQLSTATE pass through.
func Convert(err error, kind Kind, name string) error {
	if err == nil {
		return nil
	}
	if pe := pgerr.As(err); pe != nil {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to user request")
	}
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		if kind == Schema {
			return pgerr.Wrap(err, pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
		}
		return pgerr.Wrap(err, pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	case errors.Is(err, catalog.ErrAlreadyExists):
		if kind == Schema {
			return pgerr.Wrap(err, pgerr.DuplicateSchema, "schema \"%s\" already exists", name)
		}
		return pgerr.Wrap(err, pgerr.DuplicateTable, "relation \"%s\" already exists", name)
	case errors.Is(err, catalog.ErrNotEmpty):
		return pgerr.Wrap(err, pgerr.DependentObjectsStillExist, "cannot drop schema %s because other objects depend on it", name).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	case errors.Is(err, catalog.ErrFileLive):
		return pgerr.Wrap(err, pgerr.ObjectNotInPrerequisiteState, "cannot commit to \"%s\": the change adds a file the table already lists", name).
			WithDetail("%s", err.Error())
	case errors.Is(err, catalog.ErrCommitStateUnknown):
		return pgerr.Wrap(err, pgerr.StatementCompletionUnknown, "the commit to \"%s\" may or may not have been applied: the catalog did not answer", name).
			WithDetail("%s", err.Error()).
			WithHint("Look at the table before running the statement again.")
	case errors.Is(err, catalog.ErrCommitConflict):
		return pgerr.Wrap(err, pgerr.SerializationFailure, "could not serialize access due to concurrent update of \"%s\"", name).
			WithDetail("%s", err.Error())
	case errors.Is(err, catalog.ErrUnsupported):
		return pgerr.Wrap(err, pgerr.FeatureNotSupported, "%s", err.Error())
	case errors.Is(err, catalog.ErrDataInvalid):
		return pgerr.Wrap(err, pgerr.InvalidParameterValue, "%s", err.Error())
	case errors.Is(err, fs.ErrPermission):
		what := "table"
		if kind == Schema {
			what = "schema"
		}
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege, "permission denied for %s %s", what, name).
			WithDetail("%v", err).
			WithHint("The icegate process cannot write into this part of the warehouse.")
	}
	return pgerr.Wrap(err, pgerr.IOError, "%s: %v", name, err)
}
