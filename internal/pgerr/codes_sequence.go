package pgerr

// SQLSTATEs of sequences and identity columns.
const (
	// GeneratedAlways: a value given to a GENERATED ALWAYS column.
	GeneratedAlways = "428C9"
	// SequenceGeneratorLimitExceeded: nextval past MAXVALUE / MINVALUE.
	SequenceGeneratorLimitExceeded = "2200H"
)
