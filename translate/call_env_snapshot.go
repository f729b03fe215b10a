package translate

import (
	"context"
	"errors"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// CreateTable creates the table name (as Spark writes it) with spec, for
// snapshot. An unqualified name goes to the first schema of search_path,
// created on first use as CREATE TABLE does.
func (e *callEnv) CreateTable(ctx context.Context, name string, spec catalog.TableSpec) (*catalog.Table, error) {
	s := e.sess
	mc, err := s.mutableCatalog("CALL")
	if err != nil {
		return nil, err
	}
	tn, err := s.callTableName(name)
	if err != nil {
		return nil, err
	}
	id, createNS, err := s.tableIdent(ctx, tn)
	if err != nil {
		return nil, err
	}
	if createNS {
		if err := mc.CreateNamespace(ctx, id.Namespace, nil); err != nil && !errors.Is(err, catalog.ErrAlreadyExists) {
			return nil, catalogError(err, kindSchema, id.Namespace[0])
		}
	}
	t, err := mc.CreateTable(ctx, id, spec)
	if err != nil {
		return nil, catalogError(err, kindTable, tn.Written)
	}
	return t, nil
}

// DropTable drops a table a procedure created and could not finish
// (snapshot's undo), with its files.
func (e *callEnv) DropTable(ctx context.Context, t *catalog.Table) error {
	mc, err := e.sess.mutableCatalog("CALL")
	if err != nil {
		return err
	}
	return mc.DropTable(ctx, t.Ident, true)
}

// TableDirectory is the warehouse directory of the table name, whether or
// not it is a table yet (migrate's source).
func (e *callEnv) TableDirectory(ctx context.Context, name string) (string, error) {
	s := e.sess
	mc, err := s.mutableCatalog("CALL")
	if err != nil {
		return "", err
	}
	tn, err := s.callTableName(name)
	if err != nil {
		return "", err
	}
	id, _, err := s.tableIdent(ctx, tn)
	if err != nil {
		return "", err
	}
	d, ok := underWriteCatalog(mc).(interface {
		TableDir(catalog.Identifier) (string, error)
	})
	if !ok {
		return "", pgerr.NotYet("migrate with this catalog")
	}
	dir, err := d.TableDir(id)
	if err != nil {
		return "", catalogError(err, kindTable, tn.Written)
	}
	return dir, nil
}
