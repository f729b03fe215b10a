package dml

import (
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// opName is the operation's word in table property names.
func (op Operation) opName() string {
	switch op {
	case OpUpdate:
		return "update"
	case OpMerge:
		return "merge"
	default:
		return "delete"
	}
}

// ModeOf is the mode the table's properties choose for op
// (copy-on-write unless the property says merge-on-read). An unknown value
// is an error naming the property.
func ModeOf(props map[string]string, op Operation) (Mode, error) {
	key := "write." + op.opName() + ".mode"
	v, ok := props[key]
	if !ok {
		return CopyOnWrite, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "copy-on-write":
		return CopyOnWrite, nil
	case "merge-on-read":
		return MergeOnRead, nil
	}
	return CopyOnWrite, pgerr.New(pgerr.InvalidParameterValue, "invalid value for table property %q: %q", key, v).
		WithHint(`Valid values are "copy-on-write" and "merge-on-read".`)
}

// IsolationOf is the isolation level the table's properties choose for op
// (write.<op>.isolation-level: serializable, the default, or snapshot).
func IsolationOf(props map[string]string, op Operation) (catalog.IsolationLevel, error) {
	key := "write." + op.opName() + ".isolation-level"
	v, ok := props[key]
	if !ok {
		return catalog.Serializable, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "serializable":
		return catalog.Serializable, nil
	case "snapshot":
		return catalog.SnapshotIsolation, nil
	}
	return catalog.Serializable, pgerr.New(pgerr.InvalidParameterValue, "invalid value for table property %q: %q", key, v).
		WithHint(`Valid values are "serializable" and "snapshot".`)
}

// defaultRewriteThreshold is PropRewriteThreshold's default.
const defaultRewriteThreshold = 0.5

// rewriteThreshold reads PropRewriteThreshold.
func rewriteThreshold(props map[string]string) (float64, error) {
	v, ok := props[PropRewriteThreshold]
	if !ok {
		return defaultRewriteThreshold, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f < 0 || f > 1 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for table property %q: %q", PropRewriteThreshold, v).
			WithHint("The value is a fraction between 0 and 1.")
	}
	return f, nil
}
