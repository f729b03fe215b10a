package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/viewexec"
)

// pinnedCatalog is the catalog as a session reads it. Outside a
// transaction block every load is fresh. Inside one, the first load of a
// table pins the snapshot it returns: every later read of the table in the
// block sees that same snapshot, whatever other sessions commit meanwhile
// (repeatable reads per table). The pins end with the block.
type pinnedCatalog struct {
	catalog.Catalog
	s *session
}

func (c *pinnedCatalog) LoadTable(ctx context.Context, id catalog.Identifier) (*catalog.Table, error) {
	if c.s.tx == nil {
		return c.Catalog.LoadTable(ctx, id)
	}
	if v, ok := c.s.blockTable(id); ok {
		if v == nil {
			return nil, notFoundInBlock(id)
		}
		return v, nil
	}
	key := pinKey(id)
	if t := c.s.pins[key]; t != nil {
		return t, nil
	}
	t, err := c.Catalog.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.s.pins == nil {
		c.s.pins = map[string]*catalog.Table{}
	}
	c.s.pins[key] = t
	return t, nil
}

// ListTables lists the tables of namespace ns as the block sees them:
// with those it created, without those it dropped.
func (c *pinnedCatalog) ListTables(ctx context.Context, ns []string) ([]catalog.Identifier, error) {
	ids, err := c.Catalog.ListTables(ctx, ns)
	if err != nil {
		return nil, err
	}
	return c.s.blockTables(ns, ids), nil
}

// LoadView loads a view as the block sees it.
func (c *pinnedCatalog) LoadView(ctx context.Context, id catalog.Identifier) (*catalog.View, error) {
	return c.s.stagedViews().Load(ctx, c.Catalog, id)
}

// ListViews lists views as the block sees them.
func (c *pinnedCatalog) ListViews(ctx context.Context, ns []string) ([]catalog.Identifier, error) {
	ids, err := c.Catalog.ListViews(ctx, ns)
	if err != nil {
		return nil, err
	}
	return c.s.stagedViews().List(ns, ids), nil
}

func pinKey(id catalog.Identifier) string {
	return strings.Join(id.Namespace, "\x00") + "\x01" + id.Name
}

// unpinAll drops the block's pins.
func (s *session) unpinAll() { s.pins = nil }

// writeCatalog is the catalog writes go through: it loads tables fresh
// (a commit must build on the current metadata), and what this session
// commits moves its own pin forward, so the block reads its own writes.
type writeCatalog struct {
	catalog.MutableCatalog
	s *session
}

// writableCatalog returns the catalog for a write, or false when the
// warehouse is read-only.
func (s *session) writableCatalog() (catalog.MutableCatalog, bool) {
	base := s.base
	if base == nil {
		base = s.cat
	}
	mc, ok := base.(catalog.MutableCatalog)
	if !ok {
		return nil, false
	}
	return &writeCatalog{MutableCatalog: mc, s: s}, true
}

// underWriteCatalog is the catalog under the session's write catalog
// (mc itself when it is not one): commits through it neither move pins nor
// meet the staged-writes check.
func underWriteCatalog(mc catalog.MutableCatalog) catalog.MutableCatalog {
	if wc, ok := mc.(*writeCatalog); ok {
		return wc.MutableCatalog
	}
	return mc
}

func (w *writeCatalog) moved(id catalog.Identifier, t *catalog.Table) {
	if w.s.pins == nil {
		return
	}
	if t == nil {
		delete(w.s.pins, pinKey(id))
		return
	}
	w.s.pins[pinKey(id)] = t
}

// LoadTable loads the table fresh, or as the block sees it when the block
// changed its schema (created, altered or dropped it).
func (w *writeCatalog) LoadTable(ctx context.Context, id catalog.Identifier) (*catalog.Table, error) {
	if v, ok := w.s.blockTable(id); ok {
		if v == nil {
			return nil, notFoundInBlock(id)
		}
		return v, nil
	}
	return w.MutableCatalog.LoadTable(ctx, id)
}

// LoadView loads a view as the block sees it.
func (w *writeCatalog) LoadView(ctx context.Context, id catalog.Identifier) (*catalog.View, error) {
	return w.s.stagedViews().Load(ctx, w.MutableCatalog, id)
}

// ListViews lists views as the block sees them.
func (w *writeCatalog) ListViews(ctx context.Context, ns []string) ([]catalog.Identifier, error) {
	ids, err := w.MutableCatalog.ListViews(ctx, ns)
	if err != nil {
		return nil, err
	}
	return w.s.stagedViews().List(ns, ids), nil
}

// ListTables lists as the block sees it.
func (w *writeCatalog) ListTables(ctx context.Context, ns []string) ([]catalog.Identifier, error) {
	ids, err := w.MutableCatalog.ListTables(ctx, ns)
	if err != nil {
		return nil, err
	}
	return w.s.blockTables(ns, ids), nil
}

// CreateTable creates the table; inside a block it is staged until COMMIT
// (tx_ddl.go).
func (w *writeCatalog) CreateTable(ctx context.Context, id catalog.Identifier, spec catalog.TableSpec) (*catalog.Table, error) {
	if err := checkWriteFormatProperty(spec.Properties); err != nil { // options_write.go
		return nil, err
	}
	if err := w.s.checkCreateIn(ctx, id.Namespace); err != nil { // privilege.go
		return nil, err
	}
	if w.s.tx != nil {
		if st, ok := w.MutableCatalog.(catalog.TableStager); ok {
			t, err := w.s.stageCreateTable(ctx, w, st, id, spec)
			if err == nil {
				err = w.s.ownerCreated(ctx, w.s.relationKey(id))
			}
			return t, err
		}
	}
	t, err := w.MutableCatalog.CreateTable(ctx, id, spec)
	if err == nil {
		w.moved(id, nil)
		w.s.committedNow()
		err = w.s.ownerCreated(ctx, w.s.relationKey(id))
	}
	return t, err
}

func (w *writeCatalog) RegisterTable(ctx context.Context, id catalog.Identifier, metadataFile string) (*catalog.Table, error) {
	t, err := w.MutableCatalog.RegisterTable(ctx, id, metadataFile)
	if err == nil {
		w.moved(id, nil)
		w.s.committedNow()
	}
	return t, err
}

func (w *writeCatalog) CommitTable(ctx context.Context, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
	if w.s.tx != nil {
		return w.s.stageCommitTable(ctx, w, id, reqs, updates)
	}
	if err := w.s.checkNoPendingWrites(id); err != nil {
		return nil, err
	}
	if err := checkWriteFormatUpdates(updates); err != nil { // options_write.go
		return nil, err
	}
	t, err := w.MutableCatalog.CommitTable(ctx, id, reqs, updates)
	if err == nil {
		w.moved(id, t)
	}
	return t, err
}

func (w *writeCatalog) DropTable(ctx context.Context, id catalog.Identifier, purge bool) error {
	if err := w.checkTableOwnerID(ctx, id); err != nil { // privilege_catalog.go
		return err
	}
	err := w.dropTable(ctx, id, purge)
	if err == nil {
		w.s.forgetObject(ctx, w.s.relationKey(id))
	}
	return err
}

func (w *writeCatalog) dropTable(ctx context.Context, id catalog.Identifier, purge bool) error {
	if purge && w.s.inImplicitBlock() {
		if tt := w.s.tx.tables[pinKey(id)]; tt == nil || !tt.created {
			// DROP TABLE ... PURGE deletes files no rollback brings back:
			// in a query string, what came before it commits first, as
			// for RENAME and DROP SCHEMA.
			if err := w.s.commitImplicitBlock(ctx); err != nil {
				return err
			}
		}
	}
	if w.s.tx != nil {
		return w.s.stageDropTable(ctx, w, id, purge)
	}
	if err := w.s.checkNoPendingWrites(id); err != nil {
		return err
	}
	err := w.MutableCatalog.DropTable(ctx, id, purge)
	if err == nil {
		w.moved(id, nil)
	}
	return err
}

func (w *writeCatalog) RenameTable(ctx context.Context, from, to catalog.Identifier) error {
	if err := w.checkTableOwnerID(ctx, from); err != nil { // privilege_catalog.go
		return err
	}
	if w.s.inImplicitBlock() {
		// A query string of several statements (a migration that rebuilds
		// a table: create, fill, drop the old one, rename): RENAME commits
		// when it runs, so what the string staged before it commits first.
		if err := w.s.commitImplicitBlock(ctx); err != nil {
			return err
		}
	}
	if err := w.s.checkNoPendingWrites(from); err != nil {
		return err
	}
	if _, ok := w.s.blockTable(from); ok {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename table \"%s\", which this transaction block created or changed", from.Name).
			WithHint("COMMIT the transaction block first.")
	}
	if _, ok := w.s.blockTable(to); ok {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename a table to \"%s\", which this transaction block created or dropped", to.Name).
			WithHint("COMMIT the transaction block first.")
	}
	err := w.MutableCatalog.RenameTable(ctx, from, to)
	if err == nil {
		w.moved(from, nil)
		w.moved(to, nil)
		w.s.committedNow()
		w.s.renamed(ctx, from, to)
	}
	return err
}

// CreateNamespace creates a schema; inside a block it commits at once.
func (w *writeCatalog) CreateNamespace(ctx context.Context, ns []string, props map[string]string) error {
	if err := w.s.checkCreateSchema(ctx); err != nil { // privilege.go
		return err
	}
	err := w.MutableCatalog.CreateNamespace(ctx, ns, props)
	if err == nil {
		w.s.committedNow()
		err = w.s.ownerCreated(ctx, w.s.schemaKey(ns))
	}
	return err
}

// DropNamespace drops a schema. Inside a block it is refused: the block
// may have staged tables of it, and a dropped schema cannot come back at
// ROLLBACK. Inside a query string's implicit transaction, what the string
// staged before it commits first.
func (w *writeCatalog) DropNamespace(ctx context.Context, ns []string) error {
	if w.s.inImplicitBlock() {
		// A query string of several statements (psql -c "DROP TABLE s.t;
		// DROP SCHEMA s"): what it staged so far commits first, as the
		// schema, once dropped, cannot come back at a rollback.
		if err := w.s.commitImplicitBlock(ctx); err != nil {
			return err
		}
	}
	if w.s.tx != nil {
		return pgerr.New(pgerr.FeatureNotSupported, "DROP SCHEMA inside a transaction block is not supported").
			WithHint("Run DROP SCHEMA outside a transaction block.")
	}
	if err := w.s.checkSchemaOwner(ctx, ns); err != nil { // privilege.go
		return err
	}
	err := w.MutableCatalog.DropNamespace(ctx, ns)
	if err == nil {
		w.s.forgetObject(ctx, w.s.schemaKey(ns))
	}
	return err
}

// CreateView creates a view; inside a block it is staged until COMMIT
// (viewexec.Staged).
func (w *writeCatalog) CreateView(ctx context.Context, id catalog.Identifier, meta *catalog.ViewMetadata, replace bool) (*catalog.View, error) {
	if err := w.s.checkCreateIn(ctx, id.Namespace); err != nil { // privilege.go
		return nil, err
	}
	existed := false
	if replace {
		if _, err := w.LoadView(ctx, id); err == nil {
			existed = true
			if err := w.s.checkViewOwner(ctx, id); err != nil {
				return nil, err
			}
		}
	}
	if !existed {
		if err := w.s.ownerCreated(ctx, w.s.relationKey(id)); err != nil {
			return nil, err
		}
	}
	if w.s.tx != nil {
		v, err := w.s.tx.viewOps.Create(ctx, w.MutableCatalog, id, meta, replace)
		if err == nil {
			w.s.tx.queried = true
		}
		return v, err
	}
	v, err := w.MutableCatalog.CreateView(ctx, id, meta, replace)
	if err == nil {
		w.s.committedNow()
	}
	return v, err
}

// DropView drops a view; inside a block it is staged until COMMIT.
func (w *writeCatalog) DropView(ctx context.Context, id catalog.Identifier) error {
	if err := w.s.checkViewOwner(ctx, id); err != nil { // privilege.go
		return err
	}
	err := w.dropView(ctx, id)
	if err == nil {
		w.s.forgetObject(ctx, w.s.relationKey(id))
	}
	return err
}

func (w *writeCatalog) dropView(ctx context.Context, id catalog.Identifier) error {
	if w.s.tx != nil {
		err := w.s.tx.viewOps.Drop(ctx, w.MutableCatalog, id)
		if err == nil {
			w.s.tx.queried = true
		}
		return err
	}
	err := w.MutableCatalog.DropView(ctx, id)
	if err == nil {
		w.s.committedNow()
	}
	return err
}

// checkNoPendingWrites refuses a change that commits at once (RENAME) of a
// table the open block has staged changes for: they were computed against
// the table as it is.
func (s *session) checkNoPendingWrites(id catalog.Identifier) error {
	if !s.pendingWrites(id) {
		return nil
	}
	return pgerr.New(pgerr.FeatureNotSupported, "cannot change the definition of \"%s\" after writing it in the same transaction block", id.Name).
		WithHint("COMMIT the data changes first.")
}

// stagedViews are the open block's view changes (none outside a block).
func (s *session) stagedViews() viewexec.Staged {
	if s.tx == nil {
		return nil
	}
	return s.tx.viewOps
}
