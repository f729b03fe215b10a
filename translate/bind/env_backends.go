package bind

import (
	"context"
	"time"
)

// Backends is what the server administration functions act on: the
// server's sessions (pg_cancel_backend, pg_terminate_backend) and its
// advisory locks (the pg_advisory_lock family). Env.Backends returns it;
// nil when the binder runs without a server (then the functions fail with
// 0A000).
type Backends interface {
	// CancelBackend cancels the running statement of the session with
	// process id pid, as a CancelRequest does; false when there is no such
	// session, 42501 when the caller may not.
	CancelBackend(pid int32) (bool, error)
	// TerminateBackend ends the session with process id pid (FATAL 57P01
	// to its client); false when there is no such session, or when it
	// did not end within timeout (> 0), 42501 when the caller may not.
	TerminateBackend(pid int32, timeout time.Duration) (bool, error)
	// AdvisoryLock takes the advisory lock key for the session (xact: until
	// its transaction ends; shared or exclusive). With wait it waits until
	// the lock is free or ctx ends; without, it reports whether it got it.
	AdvisoryLock(ctx context.Context, key AdvisoryKey, shared, xact, wait bool) (bool, error)
	// AdvisoryUnlock releases one hold of a session-level lock; false (and
	// a WARNING) when the session holds none.
	AdvisoryUnlock(key AdvisoryKey, shared bool) bool
	// AdvisoryUnlockAll releases every session-level lock of the session.
	AdvisoryUnlockAll()
}

// AdvisoryKey names an advisory lock: one bigint, or two integers (Pair),
// which PostgreSQL keeps apart from the bigint of the same bits.
type AdvisoryKey struct {
	Key  int64
	Pair bool
}
