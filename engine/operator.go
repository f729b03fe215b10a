package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// Operator is a node of a physical plan: it yields Arrow record batches.
//
// Call order: Open once, then Next until it returns a nil batch (the end),
// then Close exactly once (also after an error, and after Open failed).
// A batch returned by Next is owned by the operator and valid until the next
// call to Next or Close: a consumer that keeps it must Retain it. Batches have
// at least one row; nil means the stream ended. Every long-running Next
// honours the ctx given to Open (check ctx.Err() per batch and every 1024
// iterations of long loops) and returns its error.
type Operator interface {
	Open(ctx context.Context) error
	Next() (arrow.RecordBatch, error)
	Close() error
	// Schema is the schema of every batch, known before Open.
	Schema() *arrow.Schema
}
