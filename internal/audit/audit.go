// Package audit writes icegate's audit log: one JSON object per line,
// appended to a file opened with O_APPEND, for every authentication
// (success or failure) and every statement that changes something - DDL,
// DML, COPY, CALL - with who ran it, from where, what it was, how it
// ended (SQLSTATE) and the snapshot each commit produced.
//
// Durability (audit.fsync): "commit", the default, syncs the file after
// every record of a change that committed and after every
// authentication record, so a record of a commit is on disk before the
// client hears of it; "always" syncs after every record; "never" leaves
// it to the operating system.
package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// Fsync policies.
const (
	FsyncCommit = "commit"
	FsyncAlways = "always"
	FsyncNever  = "never"
)

// Event kinds.
const (
	EventAuthentication = "authentication"
	EventStatement      = "statement"
)

// Statement kinds that are audited.
const (
	KindDDL       = "ddl"
	KindDML       = "dml"
	KindCopy      = "copy"
	KindProcedure = "procedure"
	// KindCommit is a statement not audited by itself that committed
	// changes: COMMIT of a transaction block.
	KindCommit = "commit"
)

// Record is one line of the log.
type Record struct {
	Time        time.Time `json:"time"`
	Event       string    `json:"event"`
	User        string    `json:"user"`
	Database    string    `json:"database,omitempty"`
	Client      string    `json:"client"`
	Application string    `json:"application_name"`
	PID         uint32    `json:"pid,omitempty"`
	// Kind and Statement describe a statement record.
	Kind      string `json:"kind,omitempty"`
	Statement string `json:"statement,omitempty"`
	// Method is the authentication method of an authentication record,
	// as the access rule that decided it names it ("reject" for a
	// connection the rules refused); Mechanism is the SASL mechanism a
	// SCRAM client chose (SCRAM-SHA-256-PLUS with channel binding).
	Method    string `json:"method,omitempty"`
	Mechanism string `json:"mechanism,omitempty"`
	// Outcome is "success" or "failure"; SQLState and Message say why a
	// failure failed.
	Outcome  string `json:"outcome"`
	SQLState string `json:"sqlstate"`
	Message  string `json:"message,omitempty"`
	// Tables are the tables the statement committed, with the snapshot
	// each commit produced.
	Tables []Commit `json:"tables,omitempty"`
}

// Commit is a table's commit: its name, the snapshot it produced (for a
// commit that adds none, a schema change or a property, the snapshot the
// table is at after it; 0 for a table without snapshots) and the
// metadata file it made current.
type Commit struct {
	Table            string `json:"table"`
	SnapshotID       int64  `json:"snapshot_id,omitempty"`
	MetadataLocation string `json:"metadata_location,omitempty"`
}

// Log is an open audit log; its methods may be called from any goroutine.
type Log struct {
	mu    sync.Mutex
	path  string
	f     *os.File
	fsync string
}

// Open opens (creating it, mode 0600) the log at path for appending.
func Open(path, fsync string) (*Log, error) {
	switch fsync {
	case "":
		fsync = FsyncCommit
	case FsyncCommit, FsyncAlways, FsyncNever:
	default:
		return nil, fmt.Errorf("audit: unknown fsync policy %q", fsync)
	}
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	return &Log{path: path, f: f, fsync: fsync}, nil
}

func openFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	return f, nil
}

// Reopen opens the log's path anew and writes there from now on: after a
// rotation moved the file away (logrotate's move, then SIGHUP), the moved
// file holds every record written before and the new one every record
// after. The old file is synced and closed. When the path cannot be
// opened the log stays on the file it has. A nil Log does nothing.
func (l *Log) Reopen() error {
	if l == nil {
		return nil
	}
	f, err := openFile(l.path)
	if err != nil {
		return err
	}
	l.mu.Lock()
	old := l.f
	l.f = f
	l.mu.Unlock()
	// No write is in flight on old: they hold mu.
	return errors.Join(old.Sync(), old.Close())
}

// Write appends r as one line; a nil Log writes nothing. One write call
// per record: with O_APPEND each line lands whole at the end of the file.
func (l *Log) Write(r Record) error {
	if l == nil {
		return nil
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	r.Time = r.Time.UTC()
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("audit: encode record: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("audit: write %s: %w", l.f.Name(), err)
	}
	sync := l.fsync == FsyncAlways ||
		(l.fsync == FsyncCommit && (r.Event == EventAuthentication || len(r.Tables) > 0))
	if sync {
		if err := l.f.Sync(); err != nil {
			return fmt.Errorf("audit: fsync %s: %w", l.f.Name(), err)
		}
	}
	return nil
}

// Close closes the file.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}

// Classify says whether a statement's text is audited, and as what kind,
// by its first keyword (after comments and a WITH clause's queries are
// not looked into: a WITH is audited when it holds a data change).
func Classify(sql string) (kind string, audited bool) {
	word := strings.ToLower(firstWord(sql))
	switch word {
	case "create", "alter", "drop", "truncate", "comment", "grant", "revoke", "reindex", "refresh", "vacuum", "analyze", "security":
		return KindDDL, true
	case "insert", "update", "delete", "merge":
		return KindDML, true
	case "copy":
		return KindCopy, true
	case "call":
		return KindProcedure, true
	case "with":
		low := strings.ToLower(sql)
		for _, w := range []string{"insert", "update", "delete", "merge"} {
			if strings.Contains(low, w) {
				return KindDML, true
			}
		}
	}
	return "", false
}

// firstWord is the first word of sql after spaces, comments and
// parentheses.
func firstWord(sql string) string {
	s := sql
	for {
		s = strings.TrimLeft(s, " \t\r\n(;")
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		default:
			end := strings.IndexFunc(s, func(r rune) bool {
				return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
			})
			if end < 0 {
				return s
			}
			return s[:end]
		}
	}
}

// Commits collects the commits of a session's statements, for its audit
// records: a commit path records into the collector its context carries.
type Commits struct {
	mu   sync.Mutex
	list []Commit
}

type commitsKey struct{}

// WithCommits returns ctx carrying c.
func WithCommits(ctx context.Context, c *Commits) context.Context {
	return context.WithValue(ctx, commitsKey{}, c)
}

// Recording reports whether ctx carries a collector (the audit log is
// on), so a caller can skip building a Commit nobody reads.
func Recording(ctx context.Context) bool {
	c, _ := ctx.Value(commitsKey{}).(*Commits)
	return c != nil
}

// RecordCommit notes a table's commit, when ctx carries a collector.
func RecordCommit(ctx context.Context, commit Commit) {
	c, _ := ctx.Value(commitsKey{}).(*Commits)
	if c == nil {
		return
	}
	c.mu.Lock()
	c.list = append(c.list, commit)
	c.mu.Unlock()
}

// Take returns the commits recorded since the last Take.
func (c *Commits) Take() []Commit {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.list
	c.list = nil
	return out
}
