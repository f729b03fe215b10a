package parse

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Spark's branch and tag DDL, clauses of ALTER TABLE t:
//
//	CREATE [OR REPLACE] BRANCH|TAG [IF NOT EXISTS] name [AS OF VERSION id]
//	    [RETAIN n DAYS|HOURS|MINUTES]
//	    [WITH SNAPSHOT RETENTION [n SNAPSHOTS] [n DAYS|HOURS|MINUTES]]  (branches)
//	REPLACE BRANCH|TAG name [AS OF VERSION id] [RETAIN ...] [WITH SNAPSHOT RETENTION ...]
//	DROP BRANCH|TAG [IF EXISTS] name
//
// The dialect pass reads the whole clause here (names may be written in
// Spark's backquotes) and stands the placeholder command in for it
// (dialect_alter.go); translate/refs_exec.go runs it.

// RefStmt is one branch or tag clause.
type RefStmt struct {
	Action      string // "create", "replace" or "drop"
	Tag         bool   // TAG (else BRANCH)
	OrReplace   bool   // CREATE OR REPLACE
	IfNotExists bool
	IfExists    bool
	Name        string
	NameLoc     int    // byte offset of the name
	SnapshotID  *int64 // AS OF VERSION id
	SnapshotLoc int
	// MaxRefAgeMs is RETAIN n unit; MinSnapshotsToKeep and
	// MaxSnapshotAgeMs are WITH SNAPSHOT RETENTION's.
	MaxRefAgeMs        *int64
	MinSnapshotsToKeep *int
	MaxSnapshotAgeMs   *int64
}

// Kind is "branch" or "tag".
func (r *RefStmt) Kind() string {
	if r.Tag {
		return "tag"
	}
	return "branch"
}

// isRefClause reports whether the clause of ALTER TABLE is branch or tag
// DDL. DROP TAG alone or followed by CASCADE/RESTRICT is PostgreSQL's DROP
// of a column named tag.
func isRefClause(c []DialectTok) bool {
	low := func(i int) string {
		if i < len(c) {
			return c[i].Low
		}
		return ""
	}
	k := 1
	switch low(0) {
	case "create":
		if low(1) == "or" && low(2) == "replace" {
			k = 3
		}
	case "replace", "drop":
	default:
		return false
	}
	if low(k) != "branch" && low(k) != "tag" {
		return false
	}
	next := low(k + 1)
	return next != "" && next != "cascade" && next != "restrict" && next != "," && next != ";"
}

// refReader reads a branch or tag clause.
type refReader struct {
	sql  string
	toks []DialectTok
	i    int
}

func (r *refReader) low() string {
	if r.i < len(r.toks) {
		return r.toks[r.i].Low
	}
	return ""
}

func (r *refReader) accept(words ...string) bool {
	for k, w := range words {
		if r.i+k >= len(r.toks) || r.toks[r.i+k].Low != w {
			return false
		}
	}
	r.i += len(words)
	return true
}

// syntax is a syntax error at the current token (or the clause's end).
func (r *refReader) syntax() error {
	if r.i >= len(r.toks) {
		last := r.toks[len(r.toks)-1]
		return pgerr.New(pgerr.SyntaxError, "syntax error at end of input").WithPosition(CharPos(r.sql, int32(last.End)))
	}
	t := r.toks[r.i]
	return pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", t.Text).WithPosition(CharPos(r.sql, int32(t.Start)))
}

// name reads a branch or tag name: a word, a "quoted" identifier or a
// `backquoted` one (Spark's quoting; the text between the backquotes is
// the name, “ is one backquote).
func (r *refReader) name() (string, int, error) {
	if r.i >= len(r.toks) {
		return "", 0, r.syntax()
	}
	t := r.toks[r.i]
	if t.Tok == pg.Token_Op && strings.HasPrefix(t.Text, "`") {
		from := t.Start + 1
		var b strings.Builder
		k := from
		for k < len(r.sql) {
			if r.sql[k] == '`' {
				if k+1 < len(r.sql) && r.sql[k+1] == '`' {
					b.WriteByte('`')
					k += 2
					continue
				}
				break
			}
			b.WriteByte(r.sql[k])
			k++
		}
		if k >= len(r.sql) || b.Len() == 0 {
			return "", 0, pgerr.New(pgerr.SyntaxError, "unterminated quoted name").WithPosition(CharPos(r.sql, int32(t.Start)))
		}
		// skip the tokens up to the closing backquote
		for r.i < len(r.toks) && r.toks[r.i].Start <= k {
			r.i++
		}
		return b.String(), t.Start, nil
	}
	if !IsWordTok(t) {
		return "", 0, r.syntax()
	}
	r.i++
	return IdentText(t.Text), t.Start, nil
}

// number reads an integer, possibly negative.
func (r *refReader) number() (int64, int, error) {
	if r.i >= len(r.toks) {
		return 0, 0, r.syntax()
	}
	start := r.toks[r.i].Start
	neg := false
	if r.toks[r.i].Text == "-" {
		neg = true
		r.i++
	}
	if r.i >= len(r.toks) || (r.toks[r.i].Tok != pg.Token_ICONST && r.toks[r.i].Tok != pg.Token_FCONST) {
		return 0, 0, r.syntax()
	}
	t := r.toks[r.i]
	n, err := strconv.ParseInt(t.Text, 10, 64)
	if err != nil {
		return 0, 0, pgerr.New(pgerr.InvalidParameterValue, "invalid integer \"%s\"", t.Text).WithPosition(CharPos(r.sql, int32(t.Start)))
	}
	r.i++
	if neg {
		n = -n
	}
	return n, start, nil
}

// duration reads n DAYS|HOURS|MINUTES as milliseconds; a count above zero.
func (r *refReader) duration(n int64, at int) (int64, error) {
	var unit int64
	switch r.low() {
	case "days", "day":
		unit = 24 * 3600 * 1000
	case "hours", "hour":
		unit = 3600 * 1000
	case "minutes", "minute":
		unit = 60 * 1000
	default:
		return 0, r.syntax()
	}
	r.i++
	if n <= 0 || n > (1<<62)/unit {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "retention must be a positive number of days, hours or minutes, not %d", n).WithPosition(CharPos(r.sql, int32(at)))
	}
	return n * unit, nil
}

// readRefStmt reads the clause c (isRefClause is true of it).
func readRefStmt(sql string, c []DialectTok) (*RefStmt, error) {
	r := &refReader{sql: sql, toks: c}
	st := &RefStmt{}
	switch {
	case r.accept("create", "or", "replace"):
		st.Action, st.OrReplace = "create", true
	case r.accept("create"):
		st.Action = "create"
	case r.accept("replace"):
		st.Action = "replace"
	case r.accept("drop"):
		st.Action = "drop"
	}
	st.Tag = r.low() == "tag"
	r.i++
	switch {
	case st.Action == "drop" && r.accept("if", "exists"):
		st.IfExists = true
	case st.Action == "create" && r.accept("if", "not", "exists"):
		if st.OrReplace {
			return nil, pgerr.New(pgerr.SyntaxError, "CREATE OR REPLACE %s cannot take IF NOT EXISTS", strings.ToUpper(st.Kind())).
				WithPosition(CharPos(sql, int32(c[r.i-3].Start)))
		}
		st.IfNotExists = true
	}
	var err error
	if st.Name, st.NameLoc, err = r.name(); err != nil {
		return nil, err
	}
	if st.Action == "drop" {
		if r.i < len(r.toks) {
			return nil, r.syntax()
		}
		return st, nil
	}
	if r.accept("as", "of", "version") {
		id, at, err := r.number()
		if err != nil {
			return nil, err
		}
		st.SnapshotID, st.SnapshotLoc = &id, at
	}
	if r.accept("retain") {
		n, at, err := r.number()
		if err != nil {
			return nil, err
		}
		ms, err := r.duration(n, at)
		if err != nil {
			return nil, err
		}
		st.MaxRefAgeMs = &ms
	}
	if !st.Tag && r.accept("with", "snapshot", "retention") {
		got := false
		n, at, err := r.number()
		if err != nil {
			return nil, err
		}
		if r.accept("snapshots") {
			if n <= 0 || n > 1<<31-1 {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "the number of snapshots to keep must be positive, not %d", n).WithPosition(CharPos(sql, int32(at)))
			}
			k := int(n)
			st.MinSnapshotsToKeep, got = &k, true
			if r.i < len(r.toks) {
				if n, at, err = r.number(); err != nil {
					return nil, err
				}
				got = false
			}
		}
		if !got {
			ms, err := r.duration(n, at)
			if err != nil {
				return nil, err
			}
			st.MaxSnapshotAgeMs = &ms
		}
	}
	if r.i < len(r.toks) {
		return nil, r.syntax()
	}
	return st, nil
}

// rewriteRef keeps the branch or tag clause c in the statement's extras
// and stands the placeholder command in for it.
func (r *DialectRewriter) rewriteRef(c []DialectTok) (bool, error) {
	st, err := readRefStmt(r.SQL, c)
	if err != nil {
		return false, err
	}
	from, to := c[0].Start, c[len(c)-1].End
	if to-from < len(placeholderCmd) {
		return false, nil // shorter than any complete clause: the parser's error
	}
	r.X.Alter = &SparkAlter{Kind: "ref", Loc: from, Ref: st}
	r.X.Spark = true
	r.blank(from, to)
	copy(r.out[from:], placeholderCmd)
	return true, nil
}
