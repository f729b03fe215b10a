// Package expr is the engine's bound scalar expression tree and its
// vectorized evaluation over Arrow record batches.
//
// translate builds these trees after binding: names are resolved to column
// indexes of the input batch, every node is typed, and PostgreSQL's implicit
// coercions have been made explicit as Cast nodes, so each Call's arguments
// have the types its kernel expects. Compile turns a tree into a program once;
// Eval runs it per batch.
package expr

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// Expr is a bound, typed scalar expression. Trees are immutable.
type Expr interface {
	// Type is the Arrow type of the expression's result.
	Type() arrow.DataType
	// String renders the expression for EXPLAIN and errors.
	String() string
}

// Col reads column Idx of the input batch.
type Col struct {
	Idx  int
	Name string // for String only
	T    arrow.DataType
}

// Lit is a constant. V is nil for NULL, else the Go value of T:
// bool, int16, int32, int64, float32, float64, string, []byte,
// catalog.Decimal (Decimal128), int32 days (Date32), int64 microseconds
// (Time64, Timestamp us), [16]byte (FixedSizeBinary(16)) and so on, as
// catalog/value.go lists them.
type Lit struct {
	V any
	T arrow.DataType
}

// Call applies a scalar function or operator by name. The names and their
// semantics are PostgreSQL's; the kernels live in this package (funcs.go
// lists every name with its argument and result types).
type Call struct {
	Fn   string
	Args []Expr
	T    arrow.DataType
	// Go, when set, computes the call row by row instead of a kernel
	// chosen by Fn (which then only names it).
	Go RowFn
}

// RowFn computes a scalar function on one row's Go values: args has one
// value per argument (nil for NULL, else the value's Go form as Lit
// documents; a list is []any), and the result is the Go form of the
// Call's type, or nil for NULL. It serves functions that are not hot, such
// as the system catalog's lookups (pg_table_is_visible, format_type).
type RowFn func(ctx context.Context, args []any) (any, error)

// Cast converts Arg to T with PostgreSQL's cast semantics (rounding,
// overflow errors 22003, invalid text 22P02...).
type Cast struct {
	Arg Expr
	T   arrow.DataType
}

// Case is a searched CASE: the Then of the first When whose Cond is true,
// else Else (nil Else means NULL). A simple CASE is bound into this form.
type Case struct {
	Whens []When
	Else  Expr
	T     arrow.DataType
}

// When is one arm of a Case.
type When struct {
	Cond Expr
	Then Expr
}

func (e *Col) Type() arrow.DataType  { return e.T }
func (e *Lit) Type() arrow.DataType  { return e.T }
func (e *Call) Type() arrow.DataType { return e.T }
func (e *Cast) Type() arrow.DataType { return e.T }
func (e *Case) Type() arrow.DataType { return e.T }
