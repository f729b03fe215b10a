package catalog

import "context"

// AdvisoryLocker is a catalog whose database holds PostgreSQL's advisory
// locks (pg_advisory_lock and its family) for every gateway serving it, so
// that clients of different gateways exclude each other as clients of one
// PostgreSQL do (migration tools lock this way). The SQL catalog on
// PostgreSQL is one; others answer ErrUnsupported and a gateway keeps its
// locks to itself.
type AdvisoryLocker interface {
	// AdvisorySession returns the advisory locks of one client session,
	// held on a connection of the catalog's database of its own until
	// Close (or until the gateway dies: the database releases them).
	AdvisorySession(ctx context.Context) (AdvisorySession, error)
}

// AdvisorySession is one session's advisory locks. A key is one bigint, or
// with pair two integers (key's high and low 32 bits): PostgreSQL keeps
// the two spaces apart.
type AdvisorySession interface {
	// Lock takes key in shared or exclusive mode; without wait it reports
	// false when another session holds it in a conflicting mode.
	Lock(ctx context.Context, key int64, pair, shared, wait bool) (bool, error)
	// Unlock releases one hold; false when the session held none.
	Unlock(ctx context.Context, key int64, pair, shared bool) (bool, error)
	// UnlockAll releases every hold of the session.
	UnlockAll(ctx context.Context) error
	// Close releases everything and the connection.
	Close() error
}
