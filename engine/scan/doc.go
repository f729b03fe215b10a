// Package scan reads an Iceberg table's data files into Arrow record batches.
//
// It sits at the bottom of the statement flow: translate plans a table scan
// as an engine.ScanSpec (the FileScanTasks that catalog.PlanFiles produced
// for a snapshot, the read schema and the projected field ids), and New turns
// it into an engine.Operator. Each task's data file is read by a format
// reader (Parquet through parquet-go's typed page API, Avro through
// twmb/avro, ORC through the orcfile subpackage), projected onto the read schema by field id (name mapping or
// names for files without ids, defaults and identity-partition values for
// missing columns, type promotions), and its deletes (position deletes,
// equality deletes, deletion vectors) are applied before a batch leaves the
// scan. Files are read in parallel by a bounded pool of workers and batches
// stream out as they are ready.
//
// Parquet columns take the fastest path that fits them: top-level
// primitives, structs of primitives and lists of primitives decode page
// values straight into Arrow builders; other nested shapes (maps, lists of
// structs, nested lists, variants) assemble each row from repetition and
// definition levels. Variants are produced as JSON text.
//
// ORC files are decoded stripe by stripe into column vectors (orcfile),
// reading only the projected columns' streams, and converted to Arrow.
//
// Besides the schema's columns a scan produces the metadata columns _file,
// _pos, _spec_id, _partition and _deleted when FieldIDs holds their
// reserved field ids (metacol.go); they are computed from the task and the
// row positions the readers report, never read from the file.
package scan
