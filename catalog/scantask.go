package catalog

// FileScanTask is one data file to read with the delete files that apply to
// it, as planned from a snapshot. Planning has already applied the
// sequence-number rules of the spec: a position delete or DV applies when its
// data sequence number is >= the data file's, an equality delete when it is
// strictly greater; dangling deletes are dropped; an equality delete in a
// partitioned spec applies only within its partition (an unpartitioned
// equality delete applies everywhere).
type FileScanTask struct {
	File    *DataFile
	Spec    *PartitionSpec // the spec the file was written with
	Deletes []*DataFile    // position deletes, DVs and equality deletes
}
