package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
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

func (w *writeCatalog) CreateTable(ctx context.Context, id catalog.Identifier, spec catalog.TableSpec) (*catalog.Table, error) {
	if err := checkWriteFormatProperty(spec.Properties); err != nil { // options_write.go
		return nil, err
	}
	t, err := w.MutableCatalog.CreateTable(ctx, id, spec)
	if err == nil {
		w.moved(id, nil)
	}
	return t, err
}

func (w *writeCatalog) RegisterTable(ctx context.Context, id catalog.Identifier, metadataFile string) (*catalog.Table, error) {
	t, err := w.MutableCatalog.RegisterTable(ctx, id, metadataFile)
	if err == nil {
		w.moved(id, nil)
	}
	return t, err
}

func (w *writeCatalog) CommitTable(ctx context.Context, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
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
	if err := w.s.checkNoPendingWrites(from); err != nil {
		return err
	}
	err := w.MutableCatalog.RenameTable(ctx, from, to)
	if err == nil {
		w.moved(from, nil)
		w.moved(to, nil)
	}
	return err
}

// checkNoPendingWrites refuses a schema change (which commits at once) of a
// table the open block has staged data changes for: they were computed
// against the table as it is.
func (s *session) checkNoPendingWrites(id catalog.Identifier) error {
	if !s.pendingWrites(id) {
		return nil
	}
	return pgerr.New(pgerr.FeatureNotSupported, "cannot change the definition of \"%s\" after writing it in the same transaction block", id.Name).
		WithHint("COMMIT the data changes first.")
}
