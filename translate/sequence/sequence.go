package sequence

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Properties of a sequence table: its options as JSON (Options) and its
// state ("<last_value> <is_called>").
const (
	OptionsProp = "icegate.sequence"
	StateProp   = "icegate.sequence.state"
)

// Options are a sequence's parameters.
type Options struct {
	Type      string `json:"type"` // smallint, integer, bigint
	Start     int64  `json:"start"`
	Increment int64  `json:"increment"`
	Min       int64  `json:"min"`
	Max       int64  `json:"max"`
	Cache     int64  `json:"cache"`
	Cycle     bool   `json:"cycle"`
	// OwnerTable and OwnerField name the column the sequence belongs to
	// (OWNED BY, serial and identity columns): a table of the sequence's
	// namespace and a field id. DROP TABLE drops it with the table.
	OwnerTable string `json:"owner-table,omitempty"`
	OwnerField int    `json:"owner-field,omitempty"`
}

// State is the sequence's row: the last value taken and whether it was
// taken (false: the next nextval returns last itself).
type State struct {
	Last   int64
	Called bool
}

func (st State) String() string {
	return strconv.FormatInt(st.Last, 10) + " " + strconv.FormatBool(st.Called)
}

func ParseState(s string) (State, error) {
	a, b, ok := strings.Cut(s, " ")
	last, err := strconv.ParseInt(a, 10, 64)
	called, berr := strconv.ParseBool(b)
	if !ok || err != nil || berr != nil {
		return State{}, fmt.Errorf("invalid sequence state %q", s)
	}
	return State{Last: last, Called: called}, nil
}

// Is reports whether a catalog table is a sequence.
func Is(t *catalog.Table) bool {
	return t != nil && t.Metadata != nil && t.Metadata.Properties[OptionsProp] != ""
}

// Read reads a sequence table's options and state.
func Read(t *catalog.Table) (Options, State, error) {
	var o Options
	props := t.Metadata.Properties
	if err := json.Unmarshal([]byte(props[OptionsProp]), &o); err != nil {
		return o, State{}, pgerr.New(pgerr.DataCorrupted, "sequence \"%s\" has invalid options: %v", t.Ident.Name, err)
	}
	st, err := ParseState(props[StateProp])
	if err != nil {
		return o, st, pgerr.New(pgerr.DataCorrupted, "sequence \"%s\": %v", t.Ident.Name, err)
	}
	return o, st, nil
}

// TypeRange is the range of a sequence's data type.
func TypeRange(typ string) (int64, int64) {
	switch typ {
	case "smallint":
		return math.MinInt16, math.MaxInt16
	case "integer":
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// Take takes up to n values from state st: the first, how many (at least
// one, fewer than n when the range ends first) and the state after them.
func (o Options) Take(name string, st State, n int64) (first, count int64, next State, err error) {
	inc := o.Increment
	first = st.Last
	if st.Called {
		switch {
		case inc > 0 && st.Last > o.Max-inc:
			if !o.Cycle {
				return 0, 0, st, pgerr.New(pgerr.SequenceGeneratorLimitExceeded, "nextval: reached maximum value of sequence \"%s\" (%d)", name, o.Max)
			}
			first = o.Min
		case inc < 0 && st.Last < o.Min-inc:
			if !o.Cycle {
				return 0, 0, st, pgerr.New(pgerr.SequenceGeneratorLimitExceeded, "nextval: reached minimum value of sequence \"%s\" (%d)", name, o.Min)
			}
			first = o.Max
		default:
			first = st.Last + inc
		}
	}
	var room uint64 // values from first to the end of the range, minus one
	if inc > 0 {
		room = uint64(o.Max-first) / uint64(inc)
	} else {
		room = uint64(first-o.Min) / uint64(-inc)
	}
	count = n
	if n < 1 {
		count = 1
	}
	if room < uint64(count-1) {
		count = int64(room) + 1
	}
	return first, count, State{Last: first + (count-1)*inc, Called: true}, nil
}
