package wire

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/metrics"
	"github.com/icegate/icegate/internal/pgerr"
)

// What the server counts and logs of its connections and statements: the
// families of the server's metrics registry (Config.Metrics) and the
// statement log of the settings log_statement and
// log_min_duration_statement. A statement is observed from the moment its
// text is known (Query, Parse, the first Execute or Bind of a portal) to
// its CommandComplete or ErrorResponse.

// serverMetrics are the families wire counts into; nil without a registry.
type serverMetrics struct {
	connections *metrics.CounterVec   // outcome
	statements  *metrics.CounterVec   // kind, outcome, sqlstate_class
	latency     *metrics.HistogramVec // kind
	rows        *metrics.CounterVec   // kind
}

func newServerMetrics(r *metrics.Registry, s *Server) *serverMetrics {
	if r == nil {
		return nil
	}
	r.GaugeFunc("icegate_connections", "Client connections now, by state: startup (before authentication ends), refusing (being refused), session (authenticated).",
		[]string{"state"}, func(emit func(float64, ...string)) {
			in, refusing, active := s.counts()
			emit(float64(in), "startup")
			emit(float64(refusing), "refusing")
			emit(float64(active), "session")
		})
	return &serverMetrics{
		connections: r.Counter("icegate_connections_total", "Client connections by outcome: established (a session started), rejected (startup or authentication failed), refused (too many connections), cancel_request (carried a CancelRequest), abandoned (ended before a startup packet).", "outcome"),
		statements:  r.Counter("icegate_statements_total", "Statements by kind and outcome; sqlstate_class is the error's SQLSTATE class (00 when ok).", "kind", "outcome", "sqlstate_class"),
		latency:     r.Histogram("icegate_statement_duration_seconds", "Statement latency from its text to its completion, by kind.", metrics.LatencyBuckets, "kind"),
		rows:        r.Counter("icegate_statement_rows_total", "Rows statements returned or changed (their command tags' counts), by kind.", "kind"),
	}
}

func (m *serverMetrics) connection(outcome string) {
	if m != nil {
		m.connections.With(outcome).Inc()
	}
}

// connectionOutcome names how a connection that did not start a session
// ended.
func connectionOutcome(err error, negotiated bool) string {
	switch {
	case err == errCanceled:
		return "cancel_request"
	case !negotiated:
		return "abandoned"
	}
	return "rejected"
}

// connIdent is who a connection's session is, for log records.
type connIdent struct{ database string }

// stmtObs is the statement of a connection being observed.
type stmtObs struct {
	active bool
	start  time.Time
	sql    string
}

// stmtBegin starts observing a statement whose text is sql (a whole
// query string in the simple protocol); logIt logs it under
// log_statement, once per client message as PostgreSQL does.
func (c *conn) stmtBegin(sql string, logIt bool) {
	c.obs = stmtObs{active: true, start: time.Now(), sql: sql}
	if !logIt || c.session == nil {
		return
	}
	if ls := c.session.Setting("log_statement"); ls != "" && ls != "none" && logStatementWants(ls, kindOfText(sql)) {
		c.logger.Info("statement", c.stmtAttrs(sql)...)
	}
}

// stmtDone ends the observed statement with its command tag, or err.
func (c *conn) stmtDone(tag string, err error) {
	if !c.obs.active {
		return
	}
	c.obs.active = false
	d := time.Since(c.obs.start)
	kind, outcome, class := kindOfTag(tag), "ok", "00"
	if err != nil {
		kind, outcome, class = kindOfText(c.obs.sql), "error", sqlstateClass(err)
	}
	if m := c.srv.m; m != nil {
		m.statements.With(kind, outcome, class).Inc()
		m.latency.With(kind).Observe(d.Seconds())
		if n := tagCount(tag); n > 0 {
			m.rows.With(kind).Add(float64(n))
		}
	}
	if c.session == nil {
		return
	}
	if ms := c.session.Setting("log_min_duration_statement"); ms != "" && ms != "-1" {
		if limit, ok := parseMillis(ms); ok && d >= limit {
			attrs := append(c.stmtAttrs(c.obs.sql), "duration_ms", float64(d.Microseconds())/1000, "outcome", outcome)
			if err != nil {
				attrs = append(attrs, "sqlstate_class", class)
			}
			c.logger.Info("duration", attrs...)
		}
	}
}

// sqlstateClass is the class of the SQLSTATE err goes out with (without
// logging it, as toPgError does for internal errors).
func sqlstateClass(err error) string {
	if pe := pgerr.As(err); pe != nil && len(pe.Code) == 5 {
		return pe.Code[:2]
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "57"
	}
	return "XX"
}

// stmtAttrs are the attributes of a statement log record beside those
// of the connection's logger (remote: the client's address, user, pid).
func (c *conn) stmtAttrs(sql string) []any {
	return []any{slog.String("db", c.ident.database),
		slog.String("application_name", c.session.Setting("application_name")), slog.String("statement", sql)}
}

// parseMillis reads log_min_duration_statement as SHOW prints it
// ("250ms", "1s", "2min") or as a plain number of milliseconds.
func parseMillis(s string) (time.Duration, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Duration(n) * time.Millisecond, n >= 0
	}
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	unit := map[string]time.Duration{"ms": time.Millisecond, "s": time.Second, "min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}[s[i:]]
	if unit == 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

// Statement kinds, the values of the metrics' kind label.
const (
	kindSelect = "select"
	kindInsert = "insert"
	kindUpdate = "update"
	kindDelete = "delete"
	kindMerge  = "merge"
	kindDDL    = "ddl"
	kindCall   = "call"
	kindCopy   = "copy"
	kindOther  = "other"
)

// kindOfTag classifies a completed statement by its command tag.
func kindOfTag(tag string) string {
	word, _, _ := strings.Cut(tag, " ")
	if word == "SELECT" { // most statements: no lower-case copy made
		return kindSelect
	}
	return kindOfWord(strings.ToLower(word), "")
}

// kindOfText classifies a statement by its first keyword (the first
// statement of a query string), for statements that failed and for
// log_statement. A WITH query that changes rows is the kind of its
// change; a COPY is copy.
func kindOfText(sql string) string {
	words := leadingWords(sql, 2)
	if len(words) == 0 {
		return kindOther
	}
	next := ""
	if len(words) > 1 {
		next = words[1]
	}
	if words[0] == "with" {
		lower := strings.ToLower(sql)
		for _, k := range []string{"insert", "update", "delete", "merge"} {
			if containsWord(lower, k) {
				return k
			}
		}
		return kindSelect
	}
	return kindOfWord(words[0], next)
}

func kindOfWord(word, next string) string {
	switch word {
	case "select", "values", "table", "fetch", "show", "describe", "desc", "explain":
		return kindSelect
	case "insert", "update", "delete", "merge", "call", "copy":
		return word
	case "create", "alter", "drop", "comment", "truncate", "grant", "revoke", "replace", "refresh", "rename":
		return kindDDL
	}
	return kindOther
}

// logStatementWants reports whether log_statement logs a statement of
// kind: ddl logs data definition, mod also the statements that change
// rows, all everything.
func logStatementWants(setting, kind string) bool {
	switch setting {
	case "all":
		return true
	case "mod":
		switch kind {
		case kindDDL, kindInsert, kindUpdate, kindDelete, kindMerge, kindCopy, kindCall:
			return true
		}
	case "ddl":
		return kind == kindDDL
	}
	return false
}

// leadingWords returns up to n lower-case words at the start of sql,
// skipping spaces, comments and opening parentheses.
func leadingWords(sql string, n int) []string {
	var out []string
	s := sql
	for len(out) < n {
		s = strings.TrimLeft(skipSpaceAndComments(s), "(")
		s = skipSpaceAndComments(s)
		i := strings.IndexFunc(s, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		})
		if i < 0 {
			i = len(s)
		}
		if i == 0 {
			break
		}
		out = append(out, strings.ToLower(s[:i]))
		s = s[i:]
	}
	return out
}

// containsWord reports whether word occurs in s as a whole word.
func containsWord(s, word string) bool {
	isWord := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isWord(s[j-1])) && (end == len(s) || !isWord(s[end])) {
			return true
		}
		i = j + 1
	}
}

// tagCount is the row count at the end of a command tag ("INSERT 0 5",
// "SELECT 3"), 0 when it has none.
func tagCount(tag string) int64 {
	i := strings.LastIndexByte(tag, ' ')
	if i < 0 {
		return 0
	}
	n, err := strconv.ParseInt(tag[i+1:], 10, 64)
	if err != nil {
		return 0
	}
	return n
}
