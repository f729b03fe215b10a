package pgerr

// Notice is a message sent to the client before the command completes: a
// NoticeResponse with its severity ("NOTICE", "WARNING"), SQLSTATE and
// text. It lives beside Error so that every package that runs a statement
// can say what it did without importing the session.
type Notice struct {
	Severity string // "NOTICE", "WARNING"
	Code     string
	Message  string
	Detail   string
}
