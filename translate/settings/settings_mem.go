package settings

import (
	"os"
	"strconv"
	"strings"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/internal/pgerr"
)

// StatementMemName caps the memory one statement's operators hold
// (sorts, hash tables, windows): past it the statement fails with 53200
// instead of the server running out of memory. Greenplum calls the same
// idea statement_mem.
const StatementMemName = "statement_mem"

// defaultStatementMem is its default: 4GB.
const defaultStatementMem = "4GB"

// StatementMem is the limit statement_mem sets now: its value, 0 meaning
// the server's bound, never above the bound.
func (s *Values) StatementMem() int64 {
	v, ok := s.Get(StatementMemName)
	if !ok {
		v = defaultStatementMem
	}
	n, err := parseMemory(v)
	if err != nil || n <= 0 || (s.maxMem > 0 && n > s.maxMem) {
		n = s.maxMem
	}
	return n
}

// BoundMemory sets the server's bound of statement_mem and lowers the
// session's value to it when the default is above it.
func (s *Values) BoundMemory(max int64) {
	s.maxMem = max
	s.values[StatementMemName] = s.defaultOf(Lookup(StatementMemName))
}

// defaultOf is the value RESET gives a setting: statement_mem's default
// is 4GB or the server's bound when that is lower.
func (s *Values) defaultOf(d *Def) string {
	if d.Name == StatementMemName && s.maxMem > 0 {
		if n, err := parseMemory(d.Default); err == nil && n > s.maxMem {
			return exec.FormatBytes(s.maxMem)
		}
	}
	return d.Default
}

// checkMemoryMax refuses a statement_mem above the server's bound (22023,
// as PostgreSQL refuses a value outside a setting's range). 0 (no limit of
// the session's own) stands for the bound.
func (s *Values) checkMemoryMax(v string) error {
	n, err := parseMemory(v)
	if err != nil {
		return err
	}
	if s.maxMem > 0 && n > s.maxMem {
		return pgerr.New(pgerr.InvalidParameterValue, "%s is outside the valid range for parameter \"%s\" (0 .. %s)",
			v, StatementMemName, exec.FormatBytes(s.maxMem)).
			WithDetail("The server's max_statement_mem is %s; 0 means that much.", exec.FormatBytes(s.maxMem))
	}
	return nil
}

// DefaultMaxStatementMem is the bound of statement_mem when the
// configuration sets none: a quarter of the memory the process may use
// (the cgroup's limit when there is one, else the machine's), rounded down
// to a megabyte, at least 64MB; 4GB when neither can be read. A quarter:
// Go's collector lets the heap grow to about twice what is live before it
// collects, so one statement at its limit can take half the memory, and
// the other half is left to the other sessions and the page cache.
func DefaultMaxStatementMem() int64 {
	total := physicalMemory()
	if total <= 0 {
		return 4 << 30
	}
	return max(total/4&^(1<<20-1), 64<<20)
}

// physicalMemory is the memory this process may use, in bytes: the
// cgroup's limit (v2, then v1) when set, else MemTotal; 0 when unknown.
func physicalMemory() int64 {
	var total int64
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					total = kb << 10
				}
			}
		}
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
		break
	}
	return total
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
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", StatementMemName, v)
	}
	if n <= 0 {
		return 0, nil
	}
	unit := strings.TrimSpace(s[i:])
	mult := map[string]int64{"": 1 << 10, "B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[unit]
	if mult == 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", StatementMemName, v).
			WithHint("Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".")
	}
	if n > (1<<62)/mult {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\"", n, unit, StatementMemName)
	}
	return n * mult, nil
}

// TempFileLimitName is PostgreSQL's temp_file_limit: the most temporary
// file space one statement's operators may use when they spill past
// statement_mem (kB; -1, the default, means no limit). Past it the
// statement fails with 53400.
const TempFileLimitName = "temp_file_limit"

// TempFileLimit is temp_file_limit in bytes; -1 means no limit.
func (s *Values) TempFileLimit() int64 {
	d := Lookup(TempFileLimitName)
	if d == nil || d.Server == nil {
		return -1
	}
	v, _ := s.Get(TempFileLimitName)
	n, err := parseServerInt(d.Server, v)
	if err != nil || n < 0 {
		return -1
	}
	return n << 10
}
