package conf

import (
	"sort"
	"strings"
)

// Iceberg's configuration levels (seed 000). An option of a read or a
// write takes its value from, highest first: the statement (a hint after
// the table name, translate/parse/hints.go), the session (SET iceberg.<option>), the
// table's property, the default. This file is the one registry of those
// options: their levels, defaults, table properties and whether icegate
// acts on them; the session settings iceberg.<option> are made from it.

// OptionLevel is a set of levels an option is given at.
type OptionLevel uint8

const (
	LevelSession OptionLevel = 1 << iota // SET iceberg.<option>
	LevelRead                            // a read's option (hint on a table read)
	LevelWrite                           // a write's option (hint on a written table)
	levelTable                           // the table property
)

// IcebergOption is one option of seed 000.
type IcebergOption struct {
	Name     string      // Iceberg's spelling: "split-size", "vectorization.enabled"
	Levels   OptionLevel // where it may be given (levelTable: when Property is set)
	Spark    string      // Spark's session configuration name, when it has one
	Property string      // the table property it falls back to ("" none)
	Default  string      // the value when no level gives one ("" = null)
	Doc      string
	Check    optionCheck
	// Acts is the set of levels at which icegate honours the option; at
	// the others it is accepted with a NOTICE saying Ignored.
	Acts    OptionLevel
	Ignored string // why icegate does not act on it, for the NOTICE
	// Matches is the value icegate's behaviour already is, whatever the
	// option says: set to it, the option gets no NOTICE ("" none).
	Matches string
}

// Reasons repeated across the registry.
const (
	whyNoVectorSwitch = "icegate always reads data files in Arrow batches."
	whyNoSplits       = "icegate plans its own scan of whole data files; Spark's split planning has no counterpart."
	whyNoStreaming    = "icegate does not run streaming reads."
	whyNoSparkPlan    = "It tunes Spark's planner or executors, which icegate does not have."
	whyWriterProps    = "icegate's writer reads it from the table property only; set the property with ALTER TABLE ... SET TBLPROPERTIES."
)

// IcebergOptions is the registry, in the seed's order: its session
// options, then its read options, then its write options.
var IcebergOptions = []IcebergOption{
	{Name: "vectorization.enabled", Levels: LevelSession, Spark: "spark.sql.iceberg.vectorization.enabled",
		Property: "read.parquet.vectorization.enabled", Default: "true", Check: checkOptionBool,
		Doc: "Read data files in column batches.", Ignored: whyNoVectorSwitch},
	{Name: "parquet.reader-type", Levels: LevelSession, Spark: "spark.sql.iceberg.parquet.reader-type",
		Default: "ICEBERG", Check: checkOptionEnum("ICEBERG", "COMET"),
		Doc: "The Parquet reader implementation (ICEBERG or COMET).", Ignored: "icegate has one Parquet reader of its own."},
	{Name: "check-nullability", Levels: LevelSession | LevelWrite, Spark: "spark.sql.iceberg.check-nullability",
		Default: "true", Check: checkOptionBool,
		Doc: "Fail a write that puts a null into a NOT NULL column.", Matches: "false",
		Ignored: "icegate checks the values written, as PostgreSQL does and as Spark does with false: a NULL written into a NOT NULL column fails (23502); a nullable input column alone is not refused."},
	{Name: "check-ordering", Levels: LevelSession | LevelWrite, Spark: "spark.sql.iceberg.check-ordering",
		Default: "true", Check: checkOptionBool,
		Doc: "Fail a write whose columns are not in the table's order.", Ignored: "An INSERT matches columns by its column list."},
	{Name: "planning.preserve-data-grouping", Levels: LevelSession, Spark: "spark.sql.iceberg.planning.preserve-data-grouping",
		Default: "false", Check: checkOptionBool,
		Doc: "Keep one partition's scan tasks together (storage-partitioned joins).", Ignored: whyNoSparkPlan},
	{Name: "aggregate-push-down.enabled", Levels: LevelSession, Spark: "spark.sql.iceberg.aggregate-push-down.enabled",
		Default: "true", Check: checkOptionBool,
		Doc: "Answer MIN, MAX and COUNT from file statistics.", Ignored: "The planner decides this itself."},
	{Name: "distribution-mode", Levels: LevelSession | LevelWrite | levelTable, Spark: "spark.sql.iceberg.distribution-mode",
		Property: "write.distribution-mode", Check: checkOptionEnum("none", "hash", "range"), Acts: levelTable,
		Doc:     "How written rows are distributed among writers (none, hash, range).",
		Ignored: whyWriterProps},
	{Name: "wap-id", Levels: LevelSession, Spark: "spark.wap.id", Check: checkOptionText, Acts: LevelSession,
		Doc: "Write tables with write.wap.enabled as staged snapshots under this id (write-audit-publish)."},
	{Name: "wap-branch", Levels: LevelSession, Spark: "spark.wap.branch", Check: checkOptionText, Acts: LevelSession,
		Doc: "Read and write tables with write.wap.enabled on this branch."},
	{Name: "list-metadata-tables", Levels: LevelSession, Default: "false", Check: checkOptionBool, Acts: LevelSession,
		Doc: "List each table's metadata tables (t$snapshots, t$files...) as views in the system catalog, for BI tools to browse (icegate's own)."},
	{Name: "compression-codec", Levels: LevelSession | LevelWrite | levelTable, Spark: "spark.sql.iceberg.compression-codec",
		Property: "write.parquet.compression-codec", Default: "snappy", Acts: levelTable,
		Check: checkOptionEnum("uncompressed", "none", "null", "snappy", "gzip", "lz4", "zstd", "brotli", "lzo", "lzop", "bz2", "bzip2", "xz", "deflate", "zlib", "zstd-no-seek"),
		Doc:   "Compression codec of written data files (icegate's default snappy reads fastest; Iceberg's is zstd).", Ignored: whyWriterProps},
	{Name: "compression-level", Levels: LevelSession | LevelWrite | levelTable, Spark: "spark.sql.iceberg.compression-level",
		Property: "write.parquet.compression-level", Check: checkOptionInt(0, 22), Acts: levelTable,
		Doc: "Compression level of written data files (null: the codec's default; zstd: 1, its fastest).", Ignored: whyWriterProps},
	{Name: "compression-strategy", Levels: LevelSession | LevelWrite | levelTable, Spark: "spark.sql.iceberg.compression-strategy",
		Property: "write.orc.compression-strategy", Default: "speed", Check: checkOptionEnum("speed", "compression"),
		Doc: "ORC compression strategy (speed or compression).", Ignored: "icegate does not write ORC files."},
	{Name: "data-planning-mode", Levels: LevelSession | levelTable, Spark: "spark.sql.iceberg.data-planning-mode",
		Property: "read.data-planning-mode", Default: "AUTO", Check: checkOptionEnum("AUTO", "LOCAL", "DISTRIBUTED"),
		Doc: "Where data files are planned (AUTO, LOCAL, DISTRIBUTED).", Ignored: "icegate always plans locally."},
	{Name: "delete-planning-mode", Levels: LevelSession | levelTable, Spark: "spark.sql.iceberg.delete-planning-mode",
		Property: "read.delete-planning-mode", Default: "AUTO", Check: checkOptionEnum("AUTO", "LOCAL", "DISTRIBUTED"),
		Doc: "Where delete files are planned (AUTO, LOCAL, DISTRIBUTED).", Ignored: "icegate always plans locally."},
	{Name: "advisory-partition-size", Levels: LevelSession, Spark: "spark.sql.iceberg.advisory-partition-size",
		Default: "536870912", Check: checkOptionInt(1, 1<<62),
		Doc: "Advisory partition size in bytes for writes under adaptive execution.", Ignored: whyNoSparkPlan},
	{Name: "locality.enabled", Levels: LevelSession, Spark: "spark.sql.iceberg.locality.enabled",
		Default: "false", Check: checkOptionBool,
		Doc: "Report where data blocks are to the scheduler.", Ignored: whyNoSparkPlan},
	{Name: "executor-cache.enabled", Levels: LevelSession, Spark: "spark.sql.iceberg.executor-cache.enabled",
		Default: "true", Check: checkOptionBool,
		Doc: "Cache delete files on executors.", Ignored: whyNoSparkPlan},
	{Name: "executor-cache.timeout", Levels: LevelSession, Spark: "spark.sql.iceberg.executor-cache.timeout",
		Default: "10", Check: checkOptionInt(0, 1<<31-1),
		Doc: "Minutes an unused executor cache entry is kept.", Ignored: whyNoSparkPlan},
	{Name: "executor-cache.max-entry-size", Levels: LevelSession, Spark: "spark.sql.iceberg.executor-cache.max-entry-size",
		Default: "67108864", Check: checkOptionInt(0, 1<<62),
		Doc: "Largest executor cache entry in bytes.", Ignored: whyNoSparkPlan},
	{Name: "executor-cache.max-total-size", Levels: LevelSession, Spark: "spark.sql.iceberg.executor-cache.max-total-size",
		Default: "134217728", Check: checkOptionInt(0, 1<<62),
		Doc: "Executor cache size in bytes.", Ignored: whyNoSparkPlan},
	{Name: "executor-cache.locality.enabled", Levels: LevelSession, Spark: "spark.sql.iceberg.executor-cache.locality.enabled",
		Default: "false", Check: checkOptionBool,
		Doc: "Prefer executor caches local to the data.", Ignored: whyNoSparkPlan},
	{Name: "merge-schema", Levels: LevelSession, Spark: "spark.sql.iceberg.merge-schema",
		Default: "false", Check: checkOptionBool,
		Doc: "Add a written column the table lacks to its schema.", Ignored: "An INSERT writes the table's columns; use ALTER TABLE ... ADD COLUMN."},
	{Name: "report-column-stats", Levels: LevelSession, Spark: "spark.sql.iceberg.report-column-stats",
		Default: "true", Check: checkOptionBool,
		Doc: "Report Puffin column statistics to the cost-based optimizer.", Ignored: whyNoSparkPlan},

	// Read options.
	{Name: "snapshot-id", Levels: LevelRead, Check: checkOptionLong, Acts: LevelRead,
		Doc: "Read this snapshot (time travel; wins over as-of-timestamp)."},
	{Name: "as-of-timestamp", Levels: LevelRead, Check: checkOptionTimestamp, Acts: LevelRead,
		Doc: "Read the snapshot current at this time (epoch milliseconds, or a timestamp)."},
	{Name: "split-size", Levels: LevelSession | LevelRead | levelTable, Property: "read.split.target-size",
		Default: "134217728", Check: checkOptionInt(1, 1<<62),
		Doc: "Target size of a read split in bytes.", Ignored: whyNoSplits},
	{Name: "lookback", Levels: LevelSession | LevelRead | levelTable, Property: "read.split.planning-lookback",
		Default: "10", Check: checkOptionInt(1, 1<<31-1),
		Doc: "Bins considered when packing splits.", Ignored: whyNoSplits},
	{Name: "file-open-cost", Levels: LevelSession | LevelRead | levelTable, Property: "read.split.open-file-cost",
		Default: "4194304", Check: checkOptionInt(0, 1<<62),
		Doc: "Estimated cost of opening a file, in bytes.", Ignored: whyNoSplits},
	{Name: "vectorization-enabled", Levels: LevelSession | LevelRead | levelTable, Property: "read.parquet.vectorization.enabled",
		Default: "true", Check: checkOptionBool,
		Doc: "Read this table in column batches.", Ignored: whyNoVectorSwitch},
	{Name: "batch-size", Levels: LevelSession | LevelRead | levelTable, Property: "read.parquet.vectorization.batch-size",
		Default: "5000", Check: checkOptionInt(1, 1<<31-1),
		Doc: "Rows per batch of a vectorized read.", Ignored: "icegate sizes its batches from the row groups it reads."},
	{Name: "stream-from-timestamp", Levels: LevelRead, Check: checkOptionLong,
		Doc: "Start of a streaming read (epoch milliseconds).", Ignored: whyNoStreaming},
	{Name: "streaming-max-files-per-micro-batch", Levels: LevelSession | LevelRead, Default: "2147483647", Check: checkOptionInt(1, 1<<31-1),
		Doc: "Most files in one micro-batch of a streaming read.", Ignored: whyNoStreaming},
	{Name: "streaming-max-rows-per-micro-batch", Levels: LevelSession | LevelRead, Default: "2147483647", Check: checkOptionInt(1, 1<<31-1),
		Doc: "Soft limit of rows in one micro-batch of a streaming read.", Ignored: whyNoStreaming},

	// Write options.
	{Name: "write-format", Levels: LevelSession | LevelWrite | levelTable, Property: "write.format.default",
		Default: "parquet", Check: checkOptionWriteFormat, Acts: LevelSession | LevelWrite | levelTable,
		Doc: "File format of written data files (parquet, avro; icegate does not write orc)."},
	{Name: "target-file-size-bytes", Levels: LevelSession | LevelWrite | levelTable, Property: "write.target-file-size-bytes",
		Default: "536870912", Check: checkOptionInt(1, 1<<62), Acts: levelTable,
		Doc: "Target size of a written data file in bytes.", Ignored: whyWriterProps},
	{Name: "snapshot-property.", Levels: LevelWrite, Check: checkOptionText, Acts: LevelWrite,
		Doc: "snapshot-property.<key>: an entry of the written snapshot's summary."},
	{Name: "fanout-enabled", Levels: LevelSession | LevelWrite | levelTable, Property: "write.spark.fanout.enabled",
		Default: "false", Check: checkOptionBool,
		Doc: "Keep a file open per partition while writing.", Ignored: "icegate's writer always keeps a file open per partition."},
	{Name: "isolation-level", Levels: LevelSession | LevelWrite | levelTable, Property: "write.delete.isolation-level",
		Check: checkOptionEnum("serializable", "snapshot"), Acts: LevelSession | LevelWrite | levelTable,
		Doc:     "Isolation of row-level changes (serializable, snapshot; null: the table's write.<operation>.isolation-level, serializable).",
		Ignored: "It applies to DELETE, UPDATE and MERGE only."},
	{Name: "validate-from-snapshot-id", Levels: LevelSession | LevelWrite, Check: checkOptionLong, Acts: LevelSession | LevelWrite,
		Doc:     "Validate a row-level change against every snapshot after this one (null: the one the statement read).",
		Ignored: "It applies to DELETE, UPDATE and MERGE only."},
	{Name: "delete-granularity", Levels: LevelSession | LevelWrite | levelTable, Property: "write.delete.granularity",
		Default: "file", Check: checkOptionEnum("file", "partition"), Acts: levelTable,
		Doc: "Granularity of position delete files (file, partition).", Ignored: whyWriterProps},
}

// optionSettingPrefix starts the session setting names of the options.
const optionSettingPrefix = "iceberg."

// settingName is the option's session setting: iceberg.<name> with '_'
// for '-', which PostgreSQL identifiers cannot hold.
func (o *IcebergOption) SettingName() string {
	return optionSettingPrefix + strings.ReplaceAll(o.Name, "-", "_")
}

// levels are the option's levels, the table's when it has a property.
func (o *IcebergOption) AllLevels() OptionLevel {
	if o.Property != "" {
		return o.Levels | levelTable
	}
	return o.Levels
}

// isPrefix reports whether the option is a family of keys (snapshot-property.<key>).
func (o *IcebergOption) IsPrefix() bool { return strings.HasSuffix(o.Name, ".") }

// LookupOption finds an option by its Iceberg name (case-insensitive;
// '_' may stand for '-').
func LookupOption(name string) *IcebergOption {
	n := normalizeOptionName(name)
	for i := range IcebergOptions {
		o := &IcebergOptions[i]
		on := normalizeOptionName(o.Name)
		if on == n || o.IsPrefix() && strings.HasPrefix(n, on) && len(n) > len(on) {
			return o
		}
	}
	return nil
}

// LookupOptionSetting finds an option by a session setting name:
// iceberg.<name> or the option's Spark name.
func LookupOptionSetting(name string) *IcebergOption {
	if i, ok := optionSettingIndex[normalizeOptionName(name)]; ok {
		return &IcebergOptions[i]
	}
	return nil
}

// optionSettingIndex maps the normalised session names of the options
// (iceberg.<name> and Spark's) to their index in IcebergOptions.
var optionSettingIndex = func() map[string]int {
	m := map[string]int{}
	for i := range IcebergOptions {
		o := &IcebergOptions[i]
		if o.Levels&LevelSession == 0 {
			continue
		}
		m[normalizeOptionName(o.SettingName())] = i
		if o.Spark != "" {
			m[normalizeOptionName(o.Spark)] = i
		}
	}
	return m
}()

func normalizeOptionName(n string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(n)), "-", "_")
}

// NormalizeSettingName folds '-' to '_' in the iceberg.* and Spark
// spellings of the options' settings, so SET "iceberg.split-size" and
// SET iceberg.split_size are one setting.
func NormalizeSettingName(n string) string {
	if o := LookupOptionSetting(n); o != nil {
		return strings.ToLower(o.SettingName())
	}
	return n
}

// IsReservedOptionName reports whether name is in the iceberg.* family
// without being one of its settings: SET refuses it rather than making a
// placeholder that nothing reads.
func IsReservedOptionName(name string) bool {
	return strings.HasPrefix(strings.ToLower(name), optionSettingPrefix) && LookupOptionSetting(name) == nil
}

// levelNames spells a set of levels for iceberg.options().
func (l OptionLevel) Names() string {
	var out []string
	for _, x := range []struct {
		l OptionLevel
		n string
	}{{LevelSession, "session"}, {LevelRead, "read"}, {LevelWrite, "write"}, {levelTable, "table"}} {
		if l&x.l != 0 {
			out = append(out, x.n)
		}
	}
	return strings.Join(out, ", ")
}

// OptionNames are the Iceberg names of the options given at level, sorted.
func OptionNames(level OptionLevel) []string {
	var out []string
	for _, o := range IcebergOptions {
		if o.AllLevels()&level != 0 {
			n := o.Name
			if o.IsPrefix() {
				n += "<key>"
			}
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
