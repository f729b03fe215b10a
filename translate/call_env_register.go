package translate

import (
	"context"
	"errors"

	"github.com/icegate/icegate/catalog"
)

// RegisterTable creates the table name (as Spark writes it) from an
// existing metadata file, for register_table. An unqualified name goes to
// the first schema of search_path, created on first use as CREATE TABLE
// does.
func (e *callEnv) RegisterTable(ctx context.Context, name, metadataFile string) (*catalog.Table, error) {
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
	t, err := mc.RegisterTable(ctx, id, metadataFile)
	if err != nil {
		return nil, catalogError(err, kindTable, tn.Written)
	}
	return t, nil
}
