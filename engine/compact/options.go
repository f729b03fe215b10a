package compact

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// The options of rewrite_data_files (Spark's names), and the table
// property that gives the target size's default.
const (
	OptTargetFileSize        = "target-file-size-bytes"
	OptMinFileSize           = "min-file-size-bytes"
	OptMaxFileSize           = "max-file-size-bytes"
	OptMinInputFiles         = "min-input-files"
	OptRewriteAll            = "rewrite-all"
	OptDeleteFileThreshold   = "delete-file-threshold"
	OptDeleteRatioThreshold  = "delete-ratio-threshold"
	OptPartialProgress       = "partial-progress.enabled"
	OptPartialProgressMax    = "partial-progress.max-commits"
	OptRemoveDanglingDeletes = "remove-dangling-deletes"
	OptMaxFileGroupSize      = "max-file-group-size-bytes"
	OptMaxConcurrentGroups   = "max-concurrent-file-group-rewrites"
	OptOutputSpecID          = "output-spec-id"
	OptRewriteJobOrder       = "rewrite-job-order"
	// Spark options icegate accepts and has nothing to do for: the new
	// files always get the commit's sequence number (a concurrent
	// equality delete then fails the commit instead of applying to
	// them), and the shuffle is Spark's own.
	optUseStartingSeq   = "use-starting-sequence-number"
	optShufflePartition = "shuffle-partitions-per-file"
	optCompressionFac   = "compression-factor"

	propTargetFileSize = "write.target-file-size-bytes"

	defaultTargetFileSize   = 512 << 20
	defaultMinInputFiles    = 5
	defaultMaxCommits       = 10
	defaultMaxFileGroupSize = 100 << 30
)

// Options are rewrite_data_files' options, parsed and defaulted.
type Options struct {
	// TargetFileSize is the size new files roll at; files outside
	// [MinFileSize, MaxFileSize] are rewritten.
	TargetFileSize, MinFileSize, MaxFileSize int64
	// MinInputFiles is how many candidate files a group needs to be
	// rewritten (unless its size or deletes call for it).
	MinInputFiles int
	// RewriteAll rewrites every file the filter selects, whatever its size.
	RewriteAll bool
	// DeleteFileThreshold: a file with at least this many delete files is
	// rewritten whatever its size.
	DeleteFileThreshold int
	// DeleteRatioThreshold: a file whose file-scoped deletes (deletion
	// vectors, position delete files of that file alone) remove at least
	// this fraction of its rows is rewritten whatever its size.
	DeleteRatioThreshold float64
	// PartialProgress commits the groups in up to MaxCommits commits, so a
	// failed commit loses only its own groups.
	PartialProgress bool
	MaxCommits      int
	// RemoveDanglingDeletes also removes delete files that apply to no
	// live data file (those that applied only to rewritten files always
	// go).
	RemoveDanglingDeletes bool
	// MaxFileGroupSize bounds the bytes of one group (one partition's files
	// are split into groups of at most this size).
	MaxFileGroupSize int64
	// MaxConcurrentGroups is how many groups are rewritten at once.
	MaxConcurrentGroups int
	// OutputSpecID is the partition spec the new files are written with
	// (nil: the table's default spec); files of other specs are
	// rewritten together into it.
	OutputSpecID *int
	// JobOrder is the order groups are rewritten and committed in:
	// "none" (partition order), "bytes-asc", "bytes-desc", "files-asc",
	// "files-desc".
	JobOrder string
}

// knownOptions lists every option ParseOptions accepts.
var knownOptions = []string{
	OptTargetFileSize, OptMinFileSize, OptMaxFileSize, OptMinInputFiles, OptRewriteAll,
	OptDeleteFileThreshold, OptDeleteRatioThreshold, OptPartialProgress, OptPartialProgressMax, OptRemoveDanglingDeletes,
	OptMaxFileGroupSize, OptMaxConcurrentGroups,
	OptOutputSpecID, OptRewriteJobOrder, optUseStartingSeq, optShufflePartition, optCompressionFac,
}

// ParseOptions reads rewrite_data_files' options (keys as Spark spells
// them) over the table's properties: the target size defaults to
// write.target-file-size-bytes, else 512 MB; the minimum to 75% and the
// maximum to 180% of the target. An unknown key or a value out of range is
// 22023 naming it.
func ParseOptions(tableProps, opts map[string]string) (Options, error) {
	o := Options{
		MinInputFiles:        defaultMinInputFiles,
		DeleteFileThreshold:  math.MaxInt32,
		DeleteRatioThreshold: 0.3,
		MaxCommits:           defaultMaxCommits,
		MaxFileGroupSize:     defaultMaxFileGroupSize,
		MaxConcurrentGroups:  1,
	}
	for k := range opts {
		if !slices.Contains(knownOptions, k) {
			return o, pgerr.New(pgerr.InvalidParameterValue, "unknown option for rewrite_data_files: %q", k).
				WithHint("Valid options: %s.", strings.Join(knownOptions, ", "))
		}
	}
	var err error
	o.TargetFileSize = defaultTargetFileSize
	if v, ok := tableProps[propTargetFileSize]; ok {
		n, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if perr != nil || n <= 0 {
			return o, pgerr.New(pgerr.InvalidParameterValue, "invalid value for table property %q: %q", propTargetFileSize, v)
		}
		o.TargetFileSize = n
	}
	if o.TargetFileSize, err = positive(opts, OptTargetFileSize, o.TargetFileSize); err != nil {
		return o, err
	}
	if o.MinFileSize, err = nonNegative(opts, OptMinFileSize, o.TargetFileSize*3/4); err != nil {
		return o, err
	}
	if o.MaxFileSize, err = positive(opts, OptMaxFileSize, o.TargetFileSize*9/5); err != nil {
		return o, err
	}
	// Spark's bounds around the target; checked only when both sides are
	// given (Trino's optimize sets a minimum whatever the target).
	_, minGiven := opts[OptMinFileSize]
	_, maxGiven := opts[OptMaxFileSize]
	_, targetGiven := opts[OptTargetFileSize]
	switch {
	case minGiven && targetGiven && o.MinFileSize > o.TargetFileSize:
		return o, pgerr.New(pgerr.InvalidParameterValue, "option %s (%d) must not exceed %s (%d)", OptMinFileSize, o.MinFileSize, OptTargetFileSize, o.TargetFileSize)
	case maxGiven && o.MaxFileSize < o.TargetFileSize:
		return o, pgerr.New(pgerr.InvalidParameterValue, "option %s (%d) must not be below %s (%d)", OptMaxFileSize, o.MaxFileSize, OptTargetFileSize, o.TargetFileSize)
	}
	n, err := positive(opts, OptMinInputFiles, int64(o.MinInputFiles))
	if err != nil {
		return o, err
	}
	o.MinInputFiles = int(min(n, math.MaxInt32))
	if n, err = positive(opts, OptDeleteFileThreshold, int64(o.DeleteFileThreshold)); err != nil {
		return o, err
	}
	o.DeleteFileThreshold = int(min(n, math.MaxInt32))
	if v, ok := opts[OptDeleteRatioThreshold]; ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 1 {
			return o, pgerr.New(pgerr.InvalidParameterValue, "invalid value for option %s: %q", OptDeleteRatioThreshold, v).
				WithHint("The value is a fraction between 0 and 1.")
		}
		o.DeleteRatioThreshold = f
	}
	if n, err = positive(opts, OptPartialProgressMax, int64(o.MaxCommits)); err != nil {
		return o, err
	}
	o.MaxCommits = int(min(n, math.MaxInt32))
	if o.MaxFileGroupSize, err = positive(opts, OptMaxFileGroupSize, o.MaxFileGroupSize); err != nil {
		return o, err
	}
	if n, err = positive(opts, OptMaxConcurrentGroups, int64(o.MaxConcurrentGroups)); err != nil {
		return o, err
	}
	o.MaxConcurrentGroups = int(min(n, 64))
	if o.RewriteAll, err = boolOpt(opts, OptRewriteAll); err != nil {
		return o, err
	}
	if o.PartialProgress, err = boolOpt(opts, OptPartialProgress); err != nil {
		return o, err
	}
	if o.RemoveDanglingDeletes, err = boolOpt(opts, OptRemoveDanglingDeletes); err != nil {
		return o, err
	}
	if v, ok := opts[OptOutputSpecID]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return o, pgerr.New(pgerr.InvalidParameterValue, "invalid value for option %s: %q", OptOutputSpecID, v)
		}
		o.OutputSpecID = &n
	}
	o.JobOrder = "none"
	if v, ok := opts[OptRewriteJobOrder]; ok {
		switch j := strings.ToLower(strings.TrimSpace(v)); j {
		case "none", "bytes-asc", "bytes-desc", "files-asc", "files-desc":
			o.JobOrder = j
		default:
			return o, pgerr.New(pgerr.InvalidParameterValue, "invalid value for option %s: %q", OptRewriteJobOrder, v).
				WithHint("Valid values are none, bytes-asc, bytes-desc, files-asc and files-desc.")
		}
	}
	for _, k := range []string{optUseStartingSeq} {
		if _, err := boolOpt(opts, k); err != nil {
			return o, err
		}
	}
	return o, nil
}

func intOpt(opts map[string]string, key string, def int64) (int64, bool, error) {
	v, ok := opts[key]
	if !ok {
		return def, false, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, true, pgerr.New(pgerr.InvalidParameterValue, "invalid value for option %s: %q", key, v).
			WithHint("The value is a whole number.")
	}
	return n, true, nil
}

func positive(opts map[string]string, key string, def int64) (int64, error) {
	n, given, err := intOpt(opts, key, def)
	if err == nil && given && n <= 0 {
		err = pgerr.New(pgerr.InvalidParameterValue, "option %s must be positive, not %d", key, n)
	}
	return n, err
}

func nonNegative(opts map[string]string, key string, def int64) (int64, error) {
	n, given, err := intOpt(opts, key, def)
	if err == nil && given && n < 0 {
		err = pgerr.New(pgerr.InvalidParameterValue, "option %s must not be negative, not %d", key, n)
	}
	return n, err
}

func boolOpt(opts map[string]string, key string) (bool, error) {
	v, ok := opts[key]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, pgerr.New(pgerr.InvalidParameterValue, "invalid value for option %s: %q", key, v).
		WithHint(`The value is "true" or "false".`)
}
