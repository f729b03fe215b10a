// Package pgerr is the one place where icegate's errors get a PostgreSQL
// SQLSTATE. Every layer may import it; it imports nothing of icegate.
//
// An error that reaches the wire without a code goes out as XX000
// (internal_error) and is logged with its whole chain.
package pgerr

import (
	"context"
	"errors"
	"fmt"
)

// SQLSTATE codes used by icegate, named as in PostgreSQL's errcodes.txt.
const (
	SuccessfulCompletion         = "00000"
	Warning                      = "01000"
	PrivilegeNotRevoked          = "01006"
	PrivilegeNotGranted          = "01007"
	FeatureNotSupported          = "0A000"
	InvalidGrantOperation        = "0LP01"
	ReservedName                 = "42939"
	ObjectInUse                  = "55006"
	CardinalityViolation         = "21000"
	DataException                = "22000"
	StringDataRightTruncation    = "22001"
	NumericValueOutOfRange       = "22003"
	NullValueNotAllowed          = "22004"
	InvalidDatetimeFormat        = "22007"
	DatetimeFieldOverflow        = "22008"
	DivisionByZero               = "22012"
	InvalidParameterValue        = "22023"
	InvalidTextRepresentation    = "22P02"
	InvalidBinaryRepresentation  = "22P03"
	UntranslatableCharacter      = "22P05"
	IntegrityConstraintViolation = "23000"
	NotNullViolation             = "23502"
	UniqueViolation              = "23505"
	InvalidCursorState           = "24000"
	InvalidTransactionState      = "25000"
	InFailedSQLTransaction       = "25P02"
	NoActiveSQLTransaction       = "25P01"
	InvalidSQLStatementName      = "26000"
	DuplicatePreparedStatement   = "42P05"
	InvalidAuthorizationSpec     = "28000"
	InvalidPassword              = "28P01"
	InvalidCatalogName           = "3D000"
	InvalidSchemaName            = "3F000"
	SerializationFailure         = "40001"
	StatementCompletionUnknown   = "40003"
	SyntaxError                  = "42601"
	InsufficientPrivilege        = "42501"
	UndefinedColumn              = "42703"
	UndefinedFunction            = "42883"
	UndefinedTable               = "42P01"
	UndefinedParameter           = "42P02"
	UndefinedObject              = "42704"
	DuplicateTable               = "42P07"
	DuplicateSchema              = "42P06"
	DuplicateObject              = "42710"
	AmbiguousColumn              = "42702"
	GroupingError                = "42803"
	DatatypeMismatch             = "42804"
	WrongObjectType              = "42809"
	InvalidColumnReference       = "42P10"
	UndefinedSchema              = "3F000"
	OutOfMemory                  = "53200"
	TooManyConnections           = "53300"
	ConfigurationLimitExceeded   = "53400"
	ProgramLimitExceeded         = "54000"
	StatementTooComplex          = "54001"
	QueryCanceled                = "57014"
	AdminShutdown                = "57P01"
	IOError                      = "58030"
	UndefinedFile                = "58P01"
	DiskFull                     = "53100"
	ConfigFileError              = "F0000"
	InternalError                = "XX000"
	DataCorrupted                = "XX001"
	ProtocolViolation            = "08P01"
	ConnectionException          = "08000"
)

// More SQLSTATE codes, named as in PostgreSQL's errcodes.txt.
const (
	ConnectionFailure                     = "08006"
	SubstringError                        = "22011"
	InvalidPrecedingOrFollowingSize       = "22013"
	InvalidArgumentForNtile               = "22014"
	IntervalFieldOverflow                 = "22015"
	InvalidArgumentForNthValue            = "22016"
	CharacterNotInRepertoire              = "22021"
	InvalidEscapeSequence                 = "22025"
	InvalidRegularExpression              = "2201B"
	InvalidArgumentForLog                 = "2201E"
	InvalidArgumentForPowerFunction       = "2201F"
	InvalidArgumentForWidthBucketFunction = "2201G"
	BadCopyFileFormat                     = "22P04"
	IdleInTransactionSessionTimeout       = "25P03"
	InvalidCursorName                     = "34000"
	DuplicateCursor                       = "42P03"
	IndeterminateDatatype                 = "42P18"
	WindowingError                        = "42P20"
	AmbiguousFunction                     = "42725"
	ArraySubscriptError                   = "2202E"
)

// Error is an error with a SQLSTATE and the fields of PostgreSQL's
// ErrorResponse. Messages follow PostgreSQL's style guide: a short
// lower-case primary message, detail and hint as full sentences.
type Error struct {
	Code     string
	Severity string // "ERROR" when empty; "FATAL" closes the connection
	Message  string
	Detail   string
	Hint     string
	Position int32 // 1-based character position in the statement text; 0 = none
	cause    error
}

// SQLSTATE codes translate names (errcodes.txt spellings).
const (
	ActiveSQLTransaction                = "25001"
	CannotCoerce                        = "42846"
	CantChangeRuntimeParam              = "55P02"
	DependentObjectsStillExist          = "2BP01"
	DuplicateAlias                      = "42712"
	DuplicateColumn                     = "42701"
	InvalidName                         = "42602"
	InvalidObjectDefinition             = "42P17"
	InvalidRecursion                    = "42P19"
	InvalidRowCountInLimitClause        = "2201W"
	InvalidRowCountInResultOffsetClause = "2201X"
	InvalidSavepointSpecification       = "3B001"
	InvalidTableDefinition              = "42P16"
	ObjectNotInPrerequisiteState        = "55000"
	ReadOnlySQLTransaction              = "25006"
	TooManyArguments                    = "54023"
)

func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// New returns an error with code and a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap attaches code and message to cause; the cause stays reachable with
// errors.Is / errors.As.
func Wrap(cause error, code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), cause: cause}
}

// WithDetail returns e with Detail set (e is modified and returned).
func (e *Error) WithDetail(format string, args ...any) *Error {
	e.Detail = fmt.Sprintf(format, args...)
	return e
}

// WithHint returns e with Hint set (e is modified and returned).
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// WithPosition returns e with Position set (e is modified and returned).
func (e *Error) WithPosition(pos int32) *Error {
	e.Position = pos
	return e
}

// Unsupported is the error for a feature icegate does not have (0A000).
// The message names the feature: "X is not supported".
func Unsupported(format string, args ...any) *Error {
	return &Error{Code: FeatureNotSupported, Message: fmt.Sprintf(format, args...) + " is not supported"}
}

// As returns the first *Error in err's chain, or nil.
func As(err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// Code returns the SQLSTATE of err: the code of the first *Error in its chain,
// 57014 for context cancellation, XX000 otherwise.
func Code(err error) string {
	if pe := As(err); pe != nil {
		return pe.Code
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return QueryCanceled
	}
	return InternalError
}

// NotYet is the 0A000 error for SQL icegate does not handle yet; feature
// names it ("EXPLAIN of this statement").
func NotYet(feature string) *Error {
	return New(FeatureNotSupported, "%s is not supported yet", feature)
}

// NotYetPlural is NotYet for a feature named in the plural.
func NotYetPlural(features string) *Error {
	return New(FeatureNotSupported, "%s are not supported yet", features)
}
