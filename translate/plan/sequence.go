package plan

// A sequence is a catalog table with no rows whose properties hold what it
// is and where it stands (translate/seq.go): SequenceOptionsProperty its
// options as JSON, SequenceStateProperty "<last_value> <is_called>".
const (
	SequenceOptionsProperty = "icegate.sequence"
	SequenceStateProperty   = "icegate.sequence.state"
)
