package catalog

// FileContent is what a file listed in a manifest holds.
type FileContent int

// File contents, as the spec numbers them.
const (
	ContentData           FileContent = 0
	ContentPositionDelete FileContent = 1
	ContentEqualityDelete FileContent = 2
)

// FileFormat is a data or delete file's format as written in the manifest.
type FileFormat string

// File formats.
const (
	FormatParquet FileFormat = "PARQUET"
	FormatAvro    FileFormat = "AVRO"
	FormatORC     FileFormat = "ORC"
	FormatPuffin  FileFormat = "PUFFIN"
)

// DataFile is a data or delete file as a manifest entry describes it, with
// the entry's inherited sequence numbers filled in.
type DataFile struct {
	Content FileContent
	// Path is the path exactly as written in the manifest; open it through
	// the table's FileIO, which resolves foreign prefixes.
	Path   string
	Format FileFormat
	SpecID int
	// Partition holds the partition tuple in the order of the spec's fields
	// (values as in value.go; the Go type follows what the manifest's Avro
	// schema encodes, which may predate a type promotion of the column).
	Partition       []any
	RecordCount     int64
	FileSizeInBytes int64
	ColumnSizes     map[int]int64
	ValueCounts     map[int]int64
	NullValueCounts map[int]int64
	NaNValueCounts  map[int]int64
	LowerBounds     map[int][]byte // single-value binary serialization
	UpperBounds     map[int][]byte
	KeyMetadata     []byte
	SplitOffsets    []int64
	EqualityIDs     []int // equality deletes: the field ids compared
	SortOrderID     *int
	FirstRowID      *int64 // v3 row lineage

	// Deletion vectors (v3): the data file whose rows this DV deletes, and
	// where the blob sits inside the Puffin file.
	ReferencedDataFile *string
	ContentOffset      *int64
	ContentSizeInBytes *int64

	// From the manifest entry, after inheritance from the manifest list.
	SnapshotID         int64
	DataSequenceNumber int64
	FileSequenceNumber int64
}
