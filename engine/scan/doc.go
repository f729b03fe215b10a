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
// fixed-width primitives, strings and binaries are written straight into
// the buffers of each batch's arrays (parquet_direct*.go), buffers the scan
// can recycle once downstream operators release the batches
// (Options.RecycleBuffers, recycle.go: the parts of a parallel
// aggregation do) or else take uncleared from the Go heap; dictionary
// strings are gathered from a flat copy of the dictionary
// (parquet_direct_gather.go); structs of
// primitives and lists of primitives decode page values into Arrow
// builders; other nested shapes (maps, lists of structs, nested lists,
// variants) assemble each row from repetition and definition levels.
// Variants are produced as JSON text.
//
// A parallel plan reads a table with fewer files than CPUs as shards of
// one scan each (Options.Shards), and SplitFiles does the same among one
// scan's workers: a Parquet file with offset indexes is split by rows, so
// the shards stay even whatever the row groups' sizes (parquet_shard.go).
//
// ScanSpec.Exact are the conjuncts of a filter directly above the scan,
// which the scan applies itself (exec.RowFilter, evaluated as the Filter
// operator does) to each batch it decodes, before handing it on. A
// conjunct on one text or binary column that cannot fail is judged by the
// Parquet readers once per dictionary entry and row by row by code
// (dictfilter.go): the rows it drops are not copied out of the
// dictionary, the other conjuncts skip them, and a row group whose column
// chunk is all dictionary pages with no entry passing is not decoded.
//
// ScanSpec.Filters let a Parquet reader skip work (Exact, or the filter
// above the scan, still decides which rows match): row groups by their statistics
// (prune.go) and by bloom filters for = and IN, and pages by the column
// index, whose surviving rows every projected column reads by seeking
// through its offset index (prune_page.go). Rows keep their positions in
// the file, so deletes by position apply unchanged. ScanStats counts it.
//
// ORC files are decoded stripe by stripe into column vectors (orcfile),
// reading only the projected columns' streams, and converted to Arrow.
//
// Besides the schema's columns a scan produces the metadata columns _file,
// _pos, _spec_id, _partition and _deleted when FieldIDs holds their
// reserved field ids (metacol.go); they are computed from the task and the
// row positions the readers report, never read from the file.
package scan
