package translate

import (
	"context"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/translate/settings"
)

// limitMemory wraps a statement's operator tree so that its operators
// account against the session's statement_mem, bounded by the server's
// max_statement_mem (0 means that bound).
func (s *session) limitMemory(op engine.Operator) engine.Operator {
	return &memLimitOp{Operator: op, lim: exec.NewMemoryLimit(s.settings.StatementMem(), settings.StatementMemName)}
}

type memLimitOp struct {
	engine.Operator
	lim *exec.MemoryLimit
}

func (o *memLimitOp) Open(ctx context.Context) error {
	return o.Operator.Open(exec.WithMemoryLimit(ctx, o.lim))
}
