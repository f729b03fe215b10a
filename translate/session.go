package translate

import (
	"context"
	"math/big"
	"net"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/copyexec"
)

// The contract between the protocol (package wire) and the SQL layer. wire
// imports these interfaces and knows nothing of
// Iceberg: it hands statement text to a Session and encodes the Arrow batches
// it gets back, choosing one encoder per column by the column's type OID.
// Errors returned by these methods should be *pgerr.Error; any other error
// goes out as XX000.

// Backend creates sessions; one per client connection, after authentication.
type Backend interface {
	NewSession(ctx context.Context, info StartupInfo) (Session, error)
}

// StartupInfo is what the client sent at startup, after authentication.
type StartupInfo struct {
	User     string
	Database string
	// Params holds every startup parameter (application_name, DateStyle,
	// TimeZone, search_path, options, client_encoding...).
	Params map[string]string
	// Notify, when set, sends a notice to the client at once: a long
	// statement's progress (a procedure's NOTICE lines) then arrives while
	// it runs rather than with its result. It is called only while Execute
	// runs (perhaps from the statement's worker goroutines, one call at a
	// time), never after Execute returns.
	Notify func(Notice)
	// PID is the process id the client was given (BackendKeyData):
	// pg_backend_pid() and pg_stat_activity show it, pg_cancel_backend and
	// pg_terminate_backend take it. 0: the backend numbers the session.
	PID int32
	// Hooks let other sessions act on this one's connection.
	Hooks SessionHooks
	// ClientAddr is the client's address (pg_stat_activity.client_addr
	// and client_port); nil when unknown.
	ClientAddr net.Addr
}

// SessionHooks are what wire lets other sessions do to a connection
// (pg_cancel_backend, pg_terminate_backend) and know of it
// (pg_stat_activity.state). Each may be nil, and each may be called from
// any goroutine.
type SessionHooks struct {
	// Running reports whether one of the session's statements runs now.
	Running func() bool
	// Cancel cancels the running statement, as a CancelRequest does.
	Cancel func()
	// Terminate ends the connection with FATAL 57P01.
	Terminate func()
}

// Session is one client's SQL session. Its methods are called from one
// goroutine at a time (the connection's), never concurrently.
type Session interface {
	// Prepare parses and binds the statements of sql. The simple protocol
	// passes whole query strings (zero statements means an empty query); the
	// extended protocol passes one statement with the parameter types the
	// client declared (0 = unspecified, to be inferred). A syntax error is
	// 42601 with Position set.
	Prepare(ctx context.Context, sql string, paramTypes []uint32) ([]Statement, error)
	// Setting returns the current value of a session setting ("TimeZone",
	// "DateStyle", "IntervalStyle", "extra_float_digits", "bytea_output"...),
	// as SHOW prints it, or "" when unknown. wire reads it to encode values.
	Setting(name string) string
	// ReportedParams returns the current values of the settings PostgreSQL
	// reports with ParameterStatus (server_version, server_encoding,
	// client_encoding, DateStyle, TimeZone, integer_datetimes,
	// standard_conforming_strings, application_name, is_superuser,
	// IntervalStyle, session_authorization). wire sends those that changed
	// after each statement.
	ReportedParams() map[string]string

	// TxStatus is the transaction status ReadyForQuery reports: 'I' idle,
	// 'T' in a transaction block, 'E' in a failed block.
	TxStatus() byte
	// BeginImplicit and EndImplicit bracket a query string of several
	// statements, or an extended-protocol batch up to Sync, as one implicit
	// transaction: wire calls BeginImplicit before its statements and
	// EndImplicit when it ends (after the error of a failed statement went
	// to the session); EndImplicit's error, a failed commit, goes to the
	// client.
	BeginImplicit()
	EndImplicit(ctx context.Context) error
	// StatementFailed tells the session an error is going to the client
	// (a transaction block then fails).
	StatementFailed(err error)
	// IdleInTransactionTimeout is idle_in_transaction_session_timeout:
	// inside a block wire ends a connection idle longer (0: never).
	IdleInTransactionTimeout() time.Duration

	// Cursors are portals too, as in PostgreSQL: Describe, Execute and
	// Close of a portal name that is not one of Bind's reach the session's
	// cursor of that name.
	CursorPortals

	Close() error
}

// Statement is one prepared statement.
type Statement interface {
	// ParamTypes are the OIDs of the statement's parameters ($1...), after
	// inference.
	ParamTypes() []uint32
	// Columns describes the rows the statement returns; nil when it returns
	// none (SET, BEGIN...: the protocol's NoData).
	Columns() []pgtypes.Column
	// Execute runs the statement with its parameters in text form (nil =
	// NULL; wire decodes binary parameters to text first).
	Execute(ctx context.Context, params []*string) (Rows, error)
}

// TypedStatement is implemented by a Statement that takes parameter
// values wire decoded from binary as they are, without their text form.
type TypedStatement interface {
	Statement
	// ExecuteTyped is Execute where typed[i], when not nil, is the value
	// of parameter i (params[i] is then ignored) as expr.Lit holds a value
	// of the parameter's type: bool, int16, int32, int64, float32,
	// float64, string, []byte (bytea, uuid), Numeric,
	// int32 days (date), int64 microseconds (time; timestamp and
	// timestamptz from 1970-01-01 UTC) or arrow.MonthDayNanoInterval.
	ExecuteTyped(ctx context.Context, params []*string, typed []any) (Rows, error)
}

// Numeric is a numeric parameter's value (TypedStatement): Unscaled
// times 10 to the power -Scale, Scale being the value's display scale.
type Numeric struct {
	Unscaled *big.Int
	Scale    int
}

// Rows is the result of one execution. Results stream: the first batch
// reaches the client before the statement has read all its input.
type Rows interface {
	// Next returns the next batch, nil at the end. The batch's columns match
	// Statement.Columns one to one. It is valid until the next call to Next
	// or Close. ctx may differ between calls (portals resumed later).
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Tag is the CommandComplete tag, given the number of rows sent:
	// "SELECT 3", "SHOW", "SET", "INSERT 0 1"...
	Tag(rowsSent int64) string
	// Notices are messages to send before CommandComplete (NOTICE/WARNING).
	Notices() []Notice
	Close() error
}

// Notice is a NoticeResponse (pgerr.Notice: the packages that run
// statements for the session build them too).
type Notice = pgerr.Notice

// CopyOptions are the options of a COPY statement, as the binder resolved
// them (copyexec.Options).
type CopyOptions = copyexec.Options

// CopyFromStatement is implemented by a Statement that is
// COPY ... FROM STDIN. wire sends CopyInResponse with Columns() (one
// column per copied column), parses the CopyData stream by Options, and
// feeds the rows to CopyIn; PostgreSQL's errors for malformed input
// (22P02, 22P04 "bad COPY file format", with the 1-based line number in the
// message's CONTEXT-like Detail "COPY t, line 3") come from wire's parser
// or from CopyIn's value conversion. A statement either commits every row
// or nothing.
type CopyFromStatement interface {
	Statement
	Options() CopyOptions
	// CopyIn consumes all rows of src and returns the command tag
	// ("COPY n").
	CopyIn(ctx context.Context, src CopySource) (tag string, err error)
}

// CopySource yields the rows of a COPY FROM stream in chunks. Each row has
// one field per copied column, in text form (nil = NULL), already
// unescaped. Next returns nil rows at the end. LineOf gives the 1-based
// input line of row i of the last chunk, for error messages.
type CopySource interface {
	Next(ctx context.Context) (rows [][]*string, err error)
	LineOf(i int) int
}

// CopyToStatement is implemented by a Statement that is COPY ... TO STDOUT
// (of a table or a query). It executes like a query (Columns, Execute,
// Rows); wire sends CopyOutResponse and encodes each row as one CopyData
// line by Options instead of DataRows, then CopyDone and the tag "COPY n".
type CopyToStatement interface {
	Statement
	Options() CopyOptions
}
