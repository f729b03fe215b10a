// Package roles keeps icegate's roles, role memberships, object owners and
// access control lists, and decides what a role may do.
//
// # The store
//
// The state is one JSON document per version, v<N>.json, in a directory
// beside the catalog: by default <warehouse>/_icegate/roles of the default
// catalog's warehouse directory (conf key roles.directory). A change reads
// the newest version N, applies itself to a copy and publishes v<N+1>.json
// by writing a temporary file and hard-linking it to its name, which fails
// when the name exists: of two gateways changing the roles at once exactly
// one wins, and the other reads the winner's version and applies its change
// again (or fails, when the change no longer applies). Versions are never
// rewritten, so a reader needs no lock. Every gateway over the warehouse
// sees the same roles: before each statement a session asks the Store for
// the current state, which costs one stat(2) of the next version's name
// when nothing changed.
//
// A file per version rather than a table of the SQL catalog keeps one
// implementation for every local warehouse (the filesystem catalog has no
// database to hold a table), needs nothing but an atomic link, and leaves
// an audit trail of every change; old versions can be removed by hand.
//
// # Bootstrap superusers
//
// The users of the configuration (users:, ICEGATE_PASSWORD's built-in user
// icegate, and in password-less development mode whoever connects over
// loopback) are superusers that always exist and are never stored, as
// PostgreSQL's install user: they create the first roles. A name the store
// does not hold is such a user.
//
// # The checks
//
// check.go answers "may role r do p on object o" the way PostgreSQL's
// aclchk.c does: superusers may do everything, an owner (or a role whose
// privileges it has through inherited membership) has every privilege of
// its object, and everyone else what the object's ACL grants to them,
// to a role they inherit from, or to PUBLIC. An object whose ACL was never
// set has PostgreSQL's default: the owner's privileges only (the public
// schema also USAGE for PUBLIC).
package roles
