package translate

import (
	"context"
	"errors"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/translate/settings"
)

// limitMemory wraps a statement's operator tree so that its operators
// account against the session's statement_mem, bounded by the server's
// max_statement_mem (0 means that bound), and spill what passes it to
// temporary files under temp_file_limit when the server has a temporary
// directory.
func (s *session) limitMemory(op engine.Operator) engine.Operator {
	o := &memLimitOp{Operator: op, lim: exec.NewMemoryLimit(s.settings.StatementMem(), settings.StatementMemName)}
	if s.backend.tmp != nil {
		o.tmp = s.backend.tmp.Statement(s.settings.TempFileLimit())
	}
	return o
}

type memLimitOp struct {
	engine.Operator
	lim *exec.MemoryLimit
	tmp *spill.Statement // nil: no spilling
}

func (o *memLimitOp) Open(ctx context.Context) error {
	ctx = exec.WithMemoryLimit(ctx, o.lim)
	if o.tmp != nil {
		ctx = spill.WithStatement(ctx, o.tmp)
	}
	return o.Operator.Open(ctx)
}

// Close closes the tree, then removes every temporary file of the
// statement, also those an operator that failed left.
func (o *memLimitOp) Close() error {
	err := o.Operator.Close()
	if o.tmp != nil {
		err = errors.Join(err, o.tmp.Close())
	}
	return err
}

// TempFiles is the statement's temporary files, nil when it may not
// spill.
func (o *memLimitOp) TempFiles() *spill.Statement { return o.tmp }
