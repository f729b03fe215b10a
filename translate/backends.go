package translate

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
)

// The server's sessions as the administration functions and
// pg_stat_activity see them: every session registers with its backend
// under the protocol's process id, with the hooks wire gave it to cancel
// its statement or end its connection, and keeps what pg_stat_activity
// shows of it (its last query and state).

// sessionRegistry is the backend's sessions by process id.
type sessionRegistry struct {
	mu       sync.Mutex
	sessions map[int32]*session
}

func (r *sessionRegistry) add(s *session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions == nil {
		r.sessions = map[int32]*session{}
	}
	r.sessions[s.pid] = s
}

func (r *sessionRegistry) remove(s *session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions[s.pid] == s {
		delete(r.sessions, s.pid)
	}
}

func (r *sessionRegistry) get(pid int32) *session {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sessions[pid]
}

// list is every session, by process id.
func (r *sessionRegistry) list() []*session {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*session, 0, len(r.sessions))
	for _, s := range r.sessions {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *session) int { return int(a.pid) - int(b.pid) })
	return out
}

// activity is what pg_stat_activity shows of a session; other sessions
// read it, so it has its own lock.
type activity struct {
	mu         sync.Mutex
	query      string
	queryStart time.Time
	// xactStart is when the open transaction block began (zero outside
	// one); idleSince when the session last reported its status, going
	// idle (pg_stat_activity.state_change of an idle session).
	xactStart, idleSince time.Time
	// txStatus is the status of the last ReadyForQuery ('I', 'T', 'E').
	txStatus atomic.Int32
}

// started records the query string the session is about to run.
func (a *activity) started(sql string) {
	a.mu.Lock()
	a.query, a.queryStart = sql, time.Now()
	a.mu.Unlock()
}

// reported records the transaction status the session reports: a block
// starts with the statement that opened it.
func (a *activity) reported(st byte) {
	prev := byte(a.txStatus.Swap(int32(st)))
	a.mu.Lock()
	defer a.mu.Unlock()
	a.idleSince = time.Now()
	switch {
	case st == 'I':
		a.xactStart = time.Time{}
	case prev == 'I' || prev == 0:
		a.xactStart = a.queryStart
	}
}

func (a *activity) last() (string, time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.query, a.queryStart
}

func (a *activity) times() (xactStart, idleSince time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.xactStart, a.idleSince
}

// state is pg_stat_activity.state: active while wire runs one of the
// session's statements, else what its transaction status says.
func (s *session) activityState() string {
	if s.hooks.Running != nil && s.hooks.Running() {
		return "active"
	}
	switch byte(s.activity.txStatus.Load()) {
	case 'T':
		return "idle in transaction"
	case 'E':
		return "idle in transaction (aborted)"
	}
	return "idle"
}

// sessionInfos are the rows of pg_stat_activity: the calling session
// (active, running the statement that reads the view) and every other one.
func (s *session) sessionInfos() []syscat.SessionInfo {
	var out []syscat.SessionInfo
	seeAll := s.superuser() || s.hasRole("pg_read_all_stats")
	for _, o := range s.backend.sessions.list() {
		q, qs := o.activity.last()
		xs, idle := o.activity.times()
		si := syscat.SessionInfo{PID: o.pid, User: o.user, Database: o.database, ApplicationName: o.applicationName(),
			BackendStart: o.started, Query: q, QueryStart: qs, State: "active", XactStart: xs, StateChange: qs}
		si.ClientAddr, si.ClientPort = clientAddr(o.client)
		if o != s {
			si.State = o.activityState()
			if si.State != "active" && idle.After(qs) {
				si.StateChange = idle
			}
			si.Hidden = !seeAll && !s.hasRole(o.user)
		}
		out = append(out, si)
	}
	return out
}

// clientAddr is pg_stat_activity's client_addr and client_port of a
// session's remote address: "" and 0 when unknown, -1 as the port of a
// Unix socket.
func clientAddr(a net.Addr) (string, int32) {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.IP.String(), int32(a.Port)
	case *net.UnixAddr:
		return "", -1
	case nil:
		return "", 0
	}
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "", 0
	}
	n, _ := strconv.Atoi(port)
	return host, int32(n)
}

// applicationName is the session's application_name as of its last
// query string, safe to read from other sessions.
func (s *session) applicationName() string {
	v, _ := s.appName.Load().(string)
	return v
}

// Backends implements bind.Env.
func (s *session) Backends() bind.Backends { return sessionBackends{s} }

// sessionBackends is bind.Backends for one calling session.
type sessionBackends struct{ s *session }

func (b sessionBackends) CancelBackend(pid int32) (bool, error) {
	o := b.s.backend.sessions.get(pid)
	if o == nil {
		b.s.warnNotBackend(pid)
		return false, nil
	}
	if err := b.s.maySignal(o, false); err != nil {
		return false, err
	}
	if o.hooks.Cancel != nil {
		o.hooks.Cancel()
	}
	return true, nil
}

func (b sessionBackends) TerminateBackend(pid int32, timeout time.Duration) (bool, error) {
	o := b.s.backend.sessions.get(pid)
	if o == nil {
		b.s.warnNotBackend(pid)
		return false, nil
	}
	if err := b.s.maySignal(o, true); err != nil {
		return false, err
	}
	if o.hooks.Terminate != nil {
		o.hooks.Terminate()
	}
	if timeout <= 0 || o == b.s {
		return true, nil
	}
	// As PostgreSQL, wait for the session to end, up to timeout.
	deadline := time.Now().Add(timeout)
	for b.s.backend.sessions.get(pid) == o {
		if time.Now().After(deadline) {
			b.s.warn(fmt.Sprintf("backend with PID %d did not terminate within %d milliseconds", pid, timeout.Milliseconds()))
			return false, nil
		}
		time.Sleep(min(10*time.Millisecond, time.Until(deadline)+time.Millisecond))
	}
	return true, nil
}

func (s *session) warnNotBackend(pid int32) {
	s.warn(fmt.Sprintf("PID %d is not a PostgreSQL backend process", pid))
}

// warn sends a WARNING to the client while the statement runs.
func (s *session) warn(msg string) {
	if s.notify != nil {
		s.notify(Notice{Severity: "WARNING", Code: pgerr.Warning, Message: msg})
	}
}

func (b sessionBackends) AdvisoryLock(ctx context.Context, key bind.AdvisoryKey, shared, xact, wait bool) (bool, error) {
	if remote, err := b.s.catalogAdvisory(ctx); err != nil || remote != nil {
		if err != nil {
			return false, err
		}
		ok, err := remote.Lock(ctx, key.Key, key.Pair, shared, wait)
		if ok && xact {
			b.s.xactAdvisory = append(b.s.xactAdvisory, xactHold{key, shared})
		}
		return ok, err
	}
	return b.s.backend.advisory.lock(ctx, b.s.pid, key, shared, xact, wait)
}

func (b sessionBackends) AdvisoryUnlock(key bind.AdvisoryKey, shared bool) bool {
	if remote := b.s.advisory; remote != nil {
		// The database warns as PostgreSQL does when nothing was held;
		// say it here, where the client hears it.
		if ok, err := remote.Unlock(context.Background(), key.Key, key.Pair, shared); err == nil && ok {
			return true
		}
	} else if b.s.backend.advisory.unlock(b.s.pid, key, shared) {
		return true
	}
	mode := "ExclusiveLock"
	if shared {
		mode = "ShareLock"
	}
	b.s.warn("you don't own a lock of type " + mode)
	return false
}

func (b sessionBackends) AdvisoryUnlockAll() {
	if remote := b.s.advisory; remote != nil {
		remote.UnlockAll(context.Background())
		b.s.xactAdvisory = nil
	}
	b.s.backend.advisory.releaseAll(b.s.pid, false)
}
