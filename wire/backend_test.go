package wire

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// testBackend is a protocol peer for the tests: a tiny SQL layer whose
// statements return fixed Arrow batches. Statements (separated by ';'):
//
//	select types            one row of every type, then a row of NULLs
//	select numbers N B      int8 1..N in batches of B rows
//	error                   42601 with the statement's position
//	fail                    a plain Go error (goes out as XX000)
//	sleep                   rows that block until the statement is canceled
//	set timezone Z          changes TimeZone (reported with ParameterStatus)
//	echo TYPE               returns its one parameter ($1 of TYPE) as text
//	panic                   panics in Execute
//	begin / commit          transaction status T / I
//	notice                  one row and a NOTICE
//	progress                two NOTICEs through StartupInfo.Notify while it runs, then one row
//	whoami                  user/database/application_name of the session
//	copy ...                see copy_backend_test.go
type testBackend struct {
	events chan string // what sleeping statements saw: "canceled", "closed"
	copied copyLog     // rows COPY FROM statements received
}

func newTestBackend() *testBackend { return &testBackend{events: make(chan string, 16)} }

func (b *testBackend) NewSession(ctx context.Context, info translate.StartupInfo) (translate.Session, error) {
	if info.Database == "nodb" {
		return nil, pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", info.Database)
	}
	tz := info.Params["TimeZone"]
	if tz == "" {
		tz = "UTC"
	}
	return &testSession{b: b, user: info.User, database: info.Database, notify: info.Notify, settings: map[string]string{
		"TimeZone": tz, "application_name": info.Params["application_name"],
	}, tx: 'I'}, nil
}

type testSession struct {
	notify   func(translate.Notice)
	b        *testBackend
	user     string
	database string
	settings map[string]string
	tx       byte
}

func (s *testSession) TxStatus() byte { return s.tx }

func (s *testSession) Setting(name string) string { return s.settings[name] }

func (s *testSession) ReportedParams() map[string]string {
	return map[string]string{
		"server_version":              "16.0 (icegate)",
		"server_encoding":             "UTF8",
		"client_encoding":             "UTF8",
		"DateStyle":                   "ISO, MDY",
		"IntervalStyle":               "postgres",
		"TimeZone":                    s.settings["TimeZone"],
		"integer_datetimes":           "on",
		"standard_conforming_strings": "on",
		"application_name":            s.settings["application_name"],
		"is_superuser":                "off",
		"session_authorization":       s.user,
	}
}

func (s *testSession) Close() error { return nil }

// The rest of the contract: no transaction blocks or cursors here.
func (s *testSession) BeginImplicit()                          {}
func (s *testSession) EndImplicit(context.Context) error       { return nil }
func (s *testSession) StatementFailed(error)                   {}
func (s *testSession) IdleInTransactionTimeout() time.Duration { return 0 }
func (s *testSession) CursorColumns(string) ([]pgtypes.Column, bool) {
	return nil, false
}
func (s *testSession) FetchCursor(context.Context, string, int64) (translate.Rows, error) {
	return nil, pgerr.New(pgerr.InvalidCursorName, "no cursors in the test backend")
}
func (s *testSession) CloseCursor(string) bool { return false }

func (s *testSession) Prepare(ctx context.Context, sql string, paramTypes []uint32) ([]translate.Statement, error) {
	var out []translate.Statement
	offset := 0
	for _, part := range strings.Split(sql, ";") {
		start := offset + len(part) - len(strings.TrimLeft(part, " \n\t"))
		offset += len(part) + 1
		if i := strings.Index(part, "--"); i >= 0 {
			part = part[:i] // a comment, such as pgx's "-- ping"
		}
		words := strings.Fields(strings.ToLower(part))
		if len(words) == 0 {
			continue
		}
		st := &testStmt{s: s, words: words}
		switch words[0] {
		case "select":
			switch {
			case len(words) == 2 && words[1] == "types":
				st.cols = typesColumns
			case strings.HasSuffix(strings.Join(words, " "), `from "t"`):
				st.cols = copyTColumns // how pgx's CopyFrom learns the column types
			case len(words) == 4 && words[1] == "numbers":
				st.cols = []pgtypes.Column{{Name: "n", TypeOID: pgtypes.Int8, Typmod: -1}}
			default:
				return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", strings.Join(words[1:], " ")).WithPosition(int32(start + 8))
			}
		case "error":
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near %q", "error").WithPosition(int32(start + 1))
		case "whoami":
			st.cols = []pgtypes.Column{{Name: "whoami", TypeOID: pgtypes.Text, Typmod: -1}}
		case "sleep", "notice", "progress", "panic", "fail":
			st.cols = []pgtypes.Column{{Name: "x", TypeOID: pgtypes.Int8, Typmod: -1}}
		case "echo":
			if len(words) < 2 {
				return nil, pgerr.New(pgerr.SyntaxError, "test statement echo needs a type name")
			}
			oid := typeByName[words[1]]
			if len(paramTypes) > 0 && paramTypes[0] != 0 {
				oid = paramTypes[0]
			}
			st.params = []uint32{oid}
			st.cols = []pgtypes.Column{{Name: "echo", TypeOID: pgtypes.Text, Typmod: -1}}
		case "copy":
			cs, err := s.prepareCopy(words)
			if err != nil {
				return nil, err
			}
			out = append(out, cs)
			continue
		case "set", "begin", "commit":
		default:
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near %q", words[0]).WithPosition(int32(start + 1))
		}
		out = append(out, st)
	}
	return out, nil
}

var typeByName = map[string]uint32{
	"bool": pgtypes.Bool, "int2": pgtypes.Int2, "int4": pgtypes.Int4, "int8": pgtypes.Int8,
	"float4": pgtypes.Float4, "float8": pgtypes.Float8, "numeric": pgtypes.Numeric, "text": pgtypes.Text,
	"bytea": pgtypes.Bytea, "date": pgtypes.Date, "time": pgtypes.Time, "timestamp": pgtypes.Timestamp,
	"timestamptz": pgtypes.Timestamptz, "uuid": pgtypes.UUID, "jsonb": pgtypes.JSONB,
}

type testStmt struct {
	s      *testSession
	words  []string
	cols   []pgtypes.Column
	params []uint32
}

func (st *testStmt) ParamTypes() []uint32 {
	if st.params == nil {
		return []uint32{}
	}
	return st.params
}

func (st *testStmt) Columns() []pgtypes.Column { return st.cols }

func (st *testStmt) Execute(ctx context.Context, params []*string) (translate.Rows, error) {
	w := st.words
	switch w[0] {
	case "select":
		if w[1] == "types" {
			return &batchRows{batches: []arrow.RecordBatch{typesBatch()}, tag: "SELECT"}, nil
		}
		n, _ := strconv.Atoi(w[2])
		per, _ := strconv.Atoi(w[3])
		return &batchRows{batches: numberBatches(n, per), tag: "SELECT"}, nil
	case "whoami":
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.Append(st.s.user + "/" + st.s.database + "/" + st.s.settings["application_name"])
		return &batchRows{batches: []arrow.RecordBatch{record(b.NewArray(), "whoami")}, tag: "SELECT"}, nil
	case "sleep":
		return &sleepRows{events: st.s.b.events}, nil
	case "notice":
		r := &batchRows{batches: numberBatches(1, 1), tag: "SELECT"}
		r.notices = []translate.Notice{{Severity: "NOTICE", Code: "00000", Message: "hello from the backend"}}
		return r, nil
	case "progress":
		for i := 1; i <= 2; i++ {
			st.s.notify(translate.Notice{Severity: "NOTICE", Code: "00000", Message: fmt.Sprintf("step %d of 2", i)})
		}
		return &batchRows{batches: numberBatches(1, 1), tag: "SELECT"}, nil
	case "panic":
		panic("test backend panics")
	case "fail":
		return nil, fmt.Errorf("read data file: %w", errors.New("disk on fire"))
	case "echo":
		b := array.NewStringBuilder(memory.DefaultAllocator)
		if params[0] == nil {
			b.AppendNull()
		} else {
			b.Append(*params[0])
		}
		return &batchRows{batches: []arrow.RecordBatch{record(b.NewArray(), "echo")}, tag: "SELECT"}, nil
	case "set":
		if len(w) == 3 && w[1] == "timezone" {
			// Keep the zone's case: ask the original statement words.
			st.s.settings["TimeZone"] = zoneName(w[2])
		}
		return &batchRows{tag: "SET"}, nil
	case "begin":
		st.s.tx = 'T'
		return &batchRows{tag: "BEGIN"}, nil
	case "commit":
		st.s.tx = 'I'
		return &batchRows{tag: "COMMIT"}, nil
	}
	return nil, pgerr.Unsupported("test statement %q", w[0])
}

func zoneName(lower string) string {
	for _, z := range []string{"UTC", "Asia/Kolkata", "America/Sao_Paulo", "Europe/Amsterdam"} {
		if strings.ToLower(z) == lower {
			return z
		}
	}
	return lower
}

func record(arr arrow.Array, name string) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: arr.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

func numberBatches(n, per int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for start := 1; start <= n; start += per {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		for v := start; v < start+per && v <= n; v++ {
			b.Append(int64(v))
		}
		out = append(out, record(b.NewArray(), "n"))
	}
	return out
}

// batchRows serves fixed batches.
type batchRows struct {
	batches []arrow.RecordBatch
	tag     string
	notices []translate.Notice
	next    int
}

func (r *batchRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.next >= len(r.batches) {
		return nil, nil
	}
	r.next++
	return r.batches[r.next-1], nil
}

func (r *batchRows) Tag(n int64) string {
	if r.tag == "SELECT" {
		return "SELECT " + strconv.FormatInt(n, 10)
	}
	return r.tag
}

func (r *batchRows) Notices() []translate.Notice { return r.notices }
func (r *batchRows) Close() error                { return nil }

// sleepRows blocks in Next until its context ends, and reports what it saw.
type sleepRows struct {
	events chan string
	once   sync.Once
}

func (r *sleepRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	<-ctx.Done()
	r.events <- "canceled"
	return nil, ctx.Err()
}

func (r *sleepRows) Tag(n int64) string          { return "SELECT " + strconv.FormatInt(n, 10) }
func (r *sleepRows) Notices() []translate.Notice { return nil }
func (r *sleepRows) Close() error {
	r.once.Do(func() { r.events <- "closed" })
	return nil
}

var (
	_ translate.Backend   = (*testBackend)(nil)
	_ translate.Session   = (*testSession)(nil)
	_ translate.Statement = (*testStmt)(nil)
	_ translate.Rows      = (*batchRows)(nil)
	_ translate.Rows      = (*sleepRows)(nil)
)
