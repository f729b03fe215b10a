package pgerr

// The SQL/JSON path errors (class 22) jsonb_path_query and its kin raise.
const (
	InvalidSQLJSONSubscript      = "22033"
	SingletonSQLJSONItemRequired = "22038"
	SQLJSONArrayNotFound         = "22039"
	SQLJSONMemberNotFound        = "2203A"
	SQLJSONObjectNotFound        = "2203C"
)
