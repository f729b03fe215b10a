package restmsg

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/icegate/icegate/catalog"
)

// Exception types of the protocol's error responses.
const (
	BadRequest           = "BadRequestException"
	NotAuthorized        = "NotAuthorizedException"
	Forbidden            = "ForbiddenException"
	NoSuchNamespace      = "NoSuchNamespaceException"
	NoSuchTable          = "NoSuchTableException"
	NoSuchView           = "NoSuchViewException"
	AlreadyExists        = "AlreadyExistsException"
	CommitFailed         = "CommitFailedException"
	NamespaceNotEmpty    = "NamespaceNotEmptyException"
	UnsupportedOperation = "UnsupportedOperationException"
	CommitStateUnknown   = "CommitStateUnknownException"
	ServiceUnavailable   = "ServiceUnavailableException"
	ServiceFailure       = "ServiceFailureException"
)

// internalMessage replaces the message of errors of no catalog kind.
const internalMessage = "internal error"

// NewErrorResponse describes a catalog error for a response: the status
// and type follow the error kind it wraps. notFound is the type for
// catalog.ErrNotFound (NoSuchTable, NoSuchNamespace or NoSuchView: which
// object was missing is the handler's knowledge). Errors of no kind are
// 500 ServiceFailureException with a generic message, so internals do not
// leak.
func NewErrorResponse(err error, notFound string) ErrorResponse {
	e := ErrorModel{Message: err.Error()}
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		e.Code, e.Type = http.StatusNotFound, notFound
	case errors.Is(err, catalog.ErrAlreadyExists):
		e.Code, e.Type = http.StatusConflict, AlreadyExists
	case errors.Is(err, catalog.ErrCommitStateUnknown):
		e.Code, e.Type = http.StatusInternalServerError, CommitStateUnknown
	case errors.Is(err, catalog.ErrCommitConflict):
		e.Code, e.Type = http.StatusConflict, CommitFailed
	case errors.Is(err, catalog.ErrNotEmpty):
		e.Code, e.Type = http.StatusConflict, NamespaceNotEmpty
	case errors.Is(err, catalog.ErrUnsupported):
		e.Code, e.Type = http.StatusNotAcceptable, UnsupportedOperation
	case errors.Is(err, catalog.ErrDataInvalid):
		e.Code, e.Type = http.StatusBadRequest, BadRequest
	default:
		e.Code, e.Type, e.Message = http.StatusInternalServerError, ServiceFailure, internalMessage
	}
	return ErrorResponse{Error: e}
}

// Err is the error a client reports for a response: it wraps the catalog
// error kind of the response's type (or, for types it does not know, of
// its status), and says the server's message.
func (r ErrorResponse) Err() error {
	e := r.Error
	var kind error
	switch e.Type {
	case NoSuchNamespace, NoSuchTable, NoSuchView:
		kind = catalog.ErrNotFound
	case AlreadyExists:
		kind = catalog.ErrAlreadyExists
	case CommitFailed:
		kind = catalog.ErrCommitConflict
	case CommitStateUnknown:
		kind = catalog.ErrCommitStateUnknown
	case NamespaceNotEmpty:
		kind = catalog.ErrNotEmpty
	case UnsupportedOperation:
		kind = catalog.ErrUnsupported
	case BadRequest:
		kind = catalog.ErrDataInvalid
	default:
		switch e.Code {
		case http.StatusNotFound:
			kind = catalog.ErrNotFound
		case http.StatusBadRequest:
			kind = catalog.ErrDataInvalid
		case http.StatusNotAcceptable:
			kind = catalog.ErrUnsupported
		}
	}
	if kind == nil {
		return fmt.Errorf("REST catalog: %s", e)
	}
	return fmt.Errorf("REST catalog: %s: %w", e, kind)
}
