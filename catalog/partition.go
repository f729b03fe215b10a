package catalog

// Transform is a partition transform as the spec spells it: "identity",
// "bucket[N]", "truncate[W]", "year", "month", "day", "hour", "void".
// Name is the transform without parameter; Param is N or W (0 otherwise).
type Transform struct {
	Name  string
	Param int
}

// PartitionField is one field of a partition spec.
type PartitionField struct {
	SourceID  int // field id in the table schema
	FieldID   int // partition field id (1000+)
	Name      string
	Transform Transform
}

// PartitionSpec is a partition spec of a table.
type PartitionSpec struct {
	ID     int
	Fields []PartitionField
}

// SortField is one field of a sort order.
type SortField struct {
	SourceID  int
	Transform Transform
	Direction string // "asc" | "desc"
	NullOrder string // "nulls-first" | "nulls-last"
}

// SortOrder is a sort order of a table.
type SortOrder struct {
	ID     int
	Fields []SortField
}
