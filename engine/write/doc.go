// Package write turns Arrow record batches into Iceberg data files.
//
// It sits at the end of a write statement's flow: translate plans an
// INSERT (or CREATE TABLE AS) whose rows arrive as Arrow batches of the
// table's schema; a Writer routes every row to the data file of its
// partition (the partition transforms run on Arrow arrays), writes Parquet
// through parquet-go's column writers with Iceberg field ids in the Parquet
// schema, or Avro object container files with the spec's Avro schema when
// write.format.default is avro, and collects the per-column metrics the
// manifests carry. When the table has a sort order, rows are buffered,
// sorted and each data file holds one sorted run (sort.go); how many rows
// one run holds follows write.distribution-mode (distribution.go). Close
// hands back the catalog.DataFile values that catalog commits in a new
// snapshot; Abort removes every file written when the statement fails.
package write
