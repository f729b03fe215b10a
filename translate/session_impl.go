package translate

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/internal/metrics"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/seqexec"
	"github.com/icegate/icegate/translate/settings"
	"github.com/icegate/icegate/translate/sparkfunc"
	"github.com/icegate/icegate/translate/sysfunc"
	"github.com/icegate/icegate/translate/viewexec"
)

// Options configure a Backend.
type Options struct {
	Logger *slog.Logger
	// MaxStatementMem bounds statement_mem, in bytes; <= 0 picks a
	// quarter of the machine's memory (DefaultMaxStatementMem).
	MaxStatementMem int64
	// MoreCatalogs are served beside the Backend's first catalog, each as
	// the database of its name.
	MoreCatalogs []catalog.Catalog
	// TempDir is where statements spill what passes statement_mem (sorts,
	// aggregations, joins); nil: they fail with 53200 instead. The caller
	// opens and closes it.
	TempDir *spill.Dir
	// Metrics, when set, is the server's registry: the backend adds the
	// totals of its scans to it.
	Metrics *metrics.Registry
	// SettingDefaults are the server configuration's values of session
	// settings (log_statement, log_min_duration_statement), applied to
	// every session before its startup parameters.
	SettingDefaults map[string]string
	// Roles is the store of roles and privileges (package roles); nil:
	// every user may do everything.
	Roles *roles.Store
}

// backend creates sessions, each over the catalog its database names.
type backend struct {
	cat    catalog.Catalog   // the first: a client that names no database gets it
	cats   []catalog.Catalog // every catalog, the first included
	log    *slog.Logger
	maxMem int64 // the bound of statement_mem
	tmp    *spill.Dir
	// defaults are Options.SettingDefaults.
	defaults map[string]string
	started  time.Time
	nextPID  atomic.Int32
	// sysFuncs are the system catalog functions (package sysfunc), built
	// once and read by every session's binder.
	sysFuncs bind.SysFuncs
	// sparkFuncs are Spark's functions (package sparkfunc), likewise.
	sparkFuncs bind.FuncDefs
	// procs are the CALLs running in the sessions (call_progress.go).
	procs runningProcedures
	// copies are the COPYs running in the sessions (copy_progress.go).
	copies runningCopies
	// sessions are the open sessions, advisory the advisory locks
	// (backends.go, advisory.go).
	sessions sessionRegistry
	advisory advisoryLocks
	// columns keeps the decoded columns of small tables' Parquet row
	// groups for every session's scans (data files are immutable).
	columns *scan.ColumnCache
	// scans add up every scan's work for the metrics (scan.Totals).
	scans scan.Totals
	// roles are the roles and privileges (privilege.go); nil: none.
	roles *roles.Store
	// footers keeps parsed Parquet footers for every session's scans.
	footers *scan.FooterCache
}

// columnCacheBytes bounds the decoded columns the backend keeps.
const columnCacheBytes = 64 << 20

// footerCacheBytes bounds the parsed Parquet footers the backend keeps.
const footerCacheBytes = 32 << 20

var _ Backend = (*backend)(nil)

// NewBackend returns the Backend serving cat and opts.MoreCatalogs. The
// database a client connects to must be one catalog's name.
func NewBackend(cat catalog.Catalog, opts Options) Backend {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	b := &backend{cat: cat, cats: append([]catalog.Catalog{cat}, opts.MoreCatalogs...), log: log, started: time.Now(), maxMem: opts.MaxStatementMem, tmp: opts.TempDir,
		defaults: opts.SettingDefaults,
		sysFuncs: seqexec.WithFuncs(sysfunc.Builtins()), sparkFuncs: sparkfunc.Builtins(),
		columns: scan.NewColumnCache(columnCacheBytes), footers: scan.NewFooterCache(footerCacheBytes), roles: opts.Roles}
	if b.maxMem <= 0 {
		b.maxMem = settings.DefaultMaxStatementMem()
	}
	b.registerMetrics(opts.Metrics)
	b.nextPID.Store(1000)
	return b
}

// NewSession starts a session for an authenticated client. An unknown
// database is FATAL 3D000; startup parameters set session settings, and
// one that is not a setting is FATAL 42704.
func (b *backend) NewSession(ctx context.Context, info StartupInfo) (Session, error) {
	db := info.Database
	if db == "" {
		db = b.cat.Name()
	}
	i := slices.IndexFunc(b.cats, func(c catalog.Catalog) bool { return c.Name() == db })
	if i < 0 {
		e := pgerr.New(pgerr.InvalidCatalogName, "database \"%s\" does not exist", db)
		e.Severity = "FATAL"
		return nil, e
	}
	cat := b.cats[i]
	s := &session{
		backend:  b,
		cat:      cat,
		user:     info.User,
		database: db,
		pid:      info.PID,
		hooks:    info.Hooks,
		client:   info.ClientAddr,
		settings: settings.New(info.User),
		notify:   info.Notify,
		started:  time.Now(),
		base:     cat,
	}
	if s.pid == 0 {
		s.pid = b.nextPID.Add(1)
	}
	s.cat = &pinnedCatalog{Catalog: cat, s: s}
	s.settings.BoundMemory(b.maxMem)
	for _, k := range slices.Sorted(maps.Keys(b.defaults)) {
		if err := s.settings.SetServerDefault(k, b.defaults[k]); err != nil {
			return nil, fmt.Errorf("server configuration of %s: %w", k, err)
		}
	}
	// Before the startup parameters: those of superuser settings need it.
	s.syncSuperuser(ctx) // privilege.go
	params := map[string]string{}
	for k, v := range info.Params {
		switch strings.ToLower(k) {
		case "user", "database", "replication":
		case "options":
			for ok, ov := range parseOptions(v) {
				params[ok] = ov
			}
		default:
			params[k] = v
		}
	}
	// Each parameter goes through the settings registry, as SET does: an
	// unknown name is FATAL 42704, as in PostgreSQL (names with a dot are
	// placeholders, allowed), a read-only one 55P02, a bad value 22023.
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if err := s.settings.SetAtStartup(k, params[k]); err != nil {
			if pe := pgerr.As(err); pe != nil {
				pe.Severity = "FATAL"
			}
			return nil, err
		}
	}
	s.syncTxSettings()
	s.appName.Store(s.Setting("application_name"))
	if err := b.checkLogin(ctx, info.User); err != nil { // privilege.go
		return nil, err
	}
	if err := s.checkConnect(ctx); err != nil { // roles_database.go
		return nil, err
	}
	b.sessions.add(s)
	return s, nil
}

// session is one client's SQL session.
type session struct {
	backend *backend
	// advisory are the session's advisory locks in its catalog's database
	// (nil until the first lock, and when advisoryLocal: the catalog keeps
	// none and the backend's are used); xactAdvisory its
	// transaction-level holds there (advisory.go).
	advisory      catalog.AdvisorySession
	advisoryLocal bool
	xactAdvisory  []xactHold
	cat           catalog.Catalog
	user          string
	database      string
	pid           int32
	hooks         SessionHooks
	client        net.Addr // the client's address, nil when unknown
	// super is whether the session's role is a superuser, for other
	// sessions' checks (backends_priv.go).
	super atomic.Bool
	// activity is what pg_stat_activity shows of the session, appName its
	// application_name as of its last query (backends.go).
	activity activity
	appName  atomic.Value
	settings *settings.Values
	// notify sends a notice at once (StartupInfo.Notify); nil: notices go
	// with the result.
	notify func(Notice)
	// tx is the open transaction block, nil outside one (tx.go).
	tx *txBlock
	// seq holds the sequence values this session took (package seqexec).
	seq seqexec.Cache
	// cursors are the open cursors by name (cursor.go).
	cursors map[string]*cursor
	// prepared are the statements of SQL PREPARE by name (prepare_stmt.go).
	prepared map[string]*sqlPrepared
	// protoStmts are the protocol's named statements, as wire reports
	// them (prepare_stmt.go).
	protoStmts map[string]*sqlPrepared
	// pins are the table snapshots the open block has read
	// (tx_catalog.go); base is the catalog underneath.
	pins    map[string]*catalog.Table
	base    catalog.Catalog
	temp    map[string]*viewexec.Temp
	started time.Time
	// sys is the system catalog snapshot of statement execution sysAt;
	// sysGen counts executions (bind/syscat.go).
	sys           *syscat.Snapshot
	sysAt, sysGen uint64
	// implicit is set between wire's BeginImplicit and EndImplicit
	// (tx_implicit.go).
	implicit bool
}

var _ Session = (*session)(nil)

func (s *session) Setting(name string) string {
	v, _ := s.settings.Get(name)
	return v
}

func (s *session) ReportedParams() map[string]string { return s.settings.Reported() }

// ReportedUnchanged reports whether sent holds the current values of the
// reported settings: what a connection checks after each statement.
func (s *session) ReportedUnchanged(sent map[string]string) bool {
	return s.settings.ReportedEqual(sent)
}

// Close ends the session: its cursors release their streams and the
// writes of an open block are rolled back.
func (s *session) Close() error {
	s.closeCursors(func(*cursor) bool { return true })
	s.rollbackWrites() // a connection lost in a block: its staged writes go
	s.releaseAdvisory(true)
	s.releaseAdvisory(false)
	s.backend.sessions.remove(s)
	return nil
}

// CurrentUser is the current role: SET ROLE's, else the session user
// (privilege_role.go).
func (s *session) CurrentUser() string {
	if r := s.currentRole(); r != "" {
		return r
	}
	return s.sessionUser()
}

// CurrentSchema is the first schema of search_path that exists, or "".
func (s *session) CurrentSchema(ctx context.Context) string {
	all, err := s.cat.ListNamespaces(ctx)
	if err != nil {
		return ""
	}
	for _, sp := range s.settings.SearchPath() {
		if bind.MatchNamespace(all, sp) != nil {
			return sp
		}
	}
	return ""
}

// Prepare parses sql and prepares each statement in it.
func (s *session) Prepare(ctx context.Context, sql string, paramTypes []uint32) ([]Statement, error) {
	// Cursors of the previous query string's implicit transaction end
	// with it.
	s.closeImplicitCursors()
	s.activity.started(sql)
	s.appName.Store(s.Setting("application_name"))
	// Parsing and binding run under statement_timeout too: a huge VALUES
	// or IN list takes long there.
	ctx, cancel := s.withStatementTimeout(ctx)
	defer cancel()
	stmts, err := parse.ParseContext(ctx, sql, hints.ParseConfig)
	if err == nil {
		err = hints.Check(stmts)
	}
	if err != nil {
		err = statementErr(ctx, err)
		s.StatementFailed(err)
		return nil, err
	}
	if len(stmts) > 0 && !isBlockExit(stmts[0]) {
		if err := s.checkNotFailed(); err != nil {
			return nil, err
		}
	}
	out := make([]Statement, 0, len(stmts))
	for _, ps := range stmts {
		s.newStatementSnapshot()
		st, err := s.prepare(ctx, ps, paramTypes, len(stmts) == 1)
		if err != nil {
			err = statementErr(ctx, err)
			s.StatementFailed(err)
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// parseOptions reads the settings of the "options" startup parameter
// (PGOPTIONS): "-c name=value" and "--name=value", space separated, with
// backslash escaping a space.
func parseOptions(opts string) map[string]string {
	var words []string
	var cur strings.Builder
	esc := false
	for _, r := range opts {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case r == '\\':
			esc = true
		case r == ' ' || r == '\t':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	out := map[string]string{}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-c" && i+1 < len(words):
			i++
			w = words[i]
		case strings.HasPrefix(w, "-c"):
			w = w[2:]
		case strings.HasPrefix(w, "--"):
			w = w[2:]
		default:
			continue
		}
		if k, v, ok := strings.Cut(w, "="); ok {
			out[strings.ReplaceAll(k, "-", "_")] = v
		}
	}
	return out
}
