package translate

import (
	"context"
	"strconv"
	"strings"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/internal/pgerr"
)

// statementMemSetting caps the memory one statement's operators hold
// (sorts, hash tables, windows): past it the statement fails with 53200
// instead of the server running out of memory. Greenplum calls the same
// idea statement_mem.
const statementMemSetting = "statement_mem"

// defaultStatementMem is its default: 4GB.
const defaultStatementMem = "4GB"

// limitMemory wraps a statement's operator tree so that its operators
// account against the session's statement_mem.
func (s *session) limitMemory(op engine.Operator) engine.Operator {
	v, ok := s.settings.get(statementMemSetting)
	if !ok {
		v = defaultStatementMem
	}
	n, err := parseMemory(v)
	if err != nil {
		n = 0
	}
	return &memLimitOp{Operator: op, lim: exec.NewMemoryLimit(n, statementMemSetting)}
}

type memLimitOp struct {
	engine.Operator
	lim *exec.MemoryLimit
}

func (o *memLimitOp) Open(ctx context.Context) error {
	return o.Operator.Open(exec.WithMemoryLimit(ctx, o.lim))
}

// checkMemory validates a statement_mem value and prints it as SHOW does.
func checkMemory(v, _ string) (string, error) {
	n, err := parseMemory(v)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "0", nil
	}
	return exec.FormatBytes(n), nil
}

// parseMemory reads a memory setting as PostgreSQL writes them: a number
// of kilobytes, or a number with a unit (B, kB, MB, GB, TB). 0 and -1
// mean no limit.
func parseMemory(v string) (int64, error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && (s[i] == '-' || (s[i] >= '0' && s[i] <= '9')) {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", statementMemSetting, v)
	}
	if n <= 0 {
		return 0, nil
	}
	unit := strings.TrimSpace(s[i:])
	mult := map[string]int64{"": 1 << 10, "B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[unit]
	if mult == 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", statementMemSetting, v).
			WithHint("Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".")
	}
	if n > (1<<62)/mult {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\"", n, unit, statementMemSetting)
	}
	return n * mult, nil
}
