package procedure

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// TrinoCommand is one of Trino's ALTER TABLE t EXECUTE <name>(...) table
// procedures and the procedure it runs: its parameters are Trino's, and
// Args turns their values into the procedure's arguments.
type TrinoCommand struct {
	Name      string  // Trino's name: "optimize"
	Procedure string  // the procedure run: "rewrite_data_files"
	Params    []Param // Trino's parameters (the table is the statement's)
	// Args converts the bound Trino arguments to the procedure's arguments,
	// the table excluded.
	Args func(env Env, a Args) (Args, error)
}

// TrinoCommands lists Trino's table procedures icegate maps.
func TrinoCommands() []*TrinoCommand {
	return []*TrinoCommand{
		{Name: "optimize", Procedure: "rewrite_data_files",
			Params: []Param{{Name: "file_size_threshold", Type: String, Default: "100MB"}},
			Args: func(_ Env, a Args) (Args, error) {
				s, _ := a.String("file_size_threshold")
				n, err := ParseDataSize(s)
				if err != nil {
					return nil, err
				}
				// Trino rewrites the files under the threshold, in every
				// partition holding more than one of them.
				return Args{"options": map[string]string{
					"min-file-size-bytes": strconv.FormatInt(n, 10),
					"min-input-files":     "2",
				}}, nil
			}},
		{Name: "expire_snapshots", Procedure: "expire_snapshots",
			Params: []Param{{Name: "retention_threshold", Type: String, Default: "7d"}},
			Args:   retentionToOlderThan},
		{Name: "remove_orphan_files", Procedure: "remove_orphan_files",
			Params: []Param{{Name: "retention_threshold", Type: String, Default: "7d"}},
			Args:   retentionToOlderThan},
	}
}

// LookupTrino finds a Trino table procedure by name.
func LookupTrino(name string) (*TrinoCommand, bool) {
	for _, c := range TrinoCommands() {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// Proc is the command as a procedure for Bind: Trino's name and
// parameters.
func (c *TrinoCommand) Proc() *Procedure {
	return &Procedure{Name: c.Name, Params: c.Params}
}

// retentionToOlderThan is Trino's retention_threshold ('7d') as Spark's
// older_than (the statement's time minus the duration).
func retentionToOlderThan(env Env, a Args) (Args, error) {
	s, _ := a.String("retention_threshold")
	d, err := ParseDuration(s)
	if err != nil {
		return nil, err
	}
	return Args{"older_than": env.Now().Add(-d)}, nil
}

// ParseDuration reads a duration as Trino writes it: a number and a unit
// (ns, us, ms, s, m, h, d), '7d', '1.5h', '30 m'.
func ParseDuration(s string) (time.Duration, error) {
	num, unit, ok := splitNumberUnit(s)
	units := map[string]time.Duration{"ns": time.Nanosecond, "us": time.Microsecond, "ms": time.Millisecond,
		"s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour}
	u, known := units[unit]
	if !ok || !known {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid duration \"%s\"", s).
			WithHint("A duration is a number and a unit: ns, us, ms, s, m, h or d ('7d').")
	}
	v := num * float64(u)
	if v > math.MaxInt64 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "duration \"%s\" is out of range", s)
	}
	return time.Duration(v), nil
}

// ParseDataSize reads a data size as Trino writes it: a number and a unit
// (B, kB, MB, GB, TB, PB; powers of 1024), '128MB'.
func ParseDataSize(s string) (int64, error) {
	num, unit, ok := splitNumberUnit(s)
	units := map[string]float64{"b": 1, "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40, "pb": 1 << 50}
	u, known := units[strings.ToLower(unit)]
	if !ok || !known {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid data size \"%s\"", s).
			WithHint("A data size is a number and a unit: B, kB, MB, GB, TB or PB ('128MB').")
	}
	v := num * u
	if v > math.MaxInt64 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "data size \"%s\" is out of range", s)
	}
	return int64(v), nil
}

// splitNumberUnit splits "1.5 h" into 1.5 and "h".
func splitNumberUnit(s string) (float64, string, bool) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 {
		return 0, "", false
	}
	num, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || num < 0 {
		return 0, "", false
	}
	return num, strings.TrimSpace(s[i:]), true
}

// WithDefaults adds p's defaults for the parameters a lacks.
func WithDefaults(p *Procedure, a Args) Args {
	for _, q := range p.Params {
		if _, ok := a[q.Name]; !ok && q.Default != nil {
			a[q.Name] = q.Default
		}
	}
	return a
}
