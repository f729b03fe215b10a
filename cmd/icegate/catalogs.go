package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/sqldb"
	"github.com/icegate/icegate/conf"
)

// servedCatalog is one catalog the server serves, with what closes it.
type servedCatalog struct {
	cat   catalog.Catalog
	kind  string // conf.CatalogHadoop or conf.CatalogSQL
	root  string // the warehouse directory
	close func(ctx context.Context) error
}

// openCatalogs opens every configured catalog, in order; on an error it
// closes those it opened.
func openCatalogs(ctx context.Context, cfg *conf.Config) ([]servedCatalog, error) {
	var out []servedCatalog
	fail := func(err error) ([]servedCatalog, error) {
		closeCatalogs(ctx, out, nil)
		return nil, err
	}
	for _, c := range cfg.Catalogs {
		wh := strings.TrimPrefix(c.Properties["warehouse"], "file://")
		switch c.Type {
		case conf.CatalogHadoop:
			fs, err := catalog.NewFilesystem(c.Name, wh, cfg.PathPrefixes)
			if err != nil {
				return fail(fmt.Errorf("open warehouse %s: %w", wh, err))
			}
			out = append(out, servedCatalog{cat: fs, kind: c.Type, root: fs.Root(), close: fs.Close})
		case conf.CatalogSQL:
			db, dialect, err := sqldb.Open(ctx, c.Properties["uri"], c.Properties)
			if err != nil {
				return fail(fmt.Errorf("catalog %s: %w", c.Name, err))
			}
			sc, err := catalog.NewSQL(ctx, c.Name, db, dialect, wh, cfg.PathPrefixes)
			if err != nil {
				db.Close()
				return fail(fmt.Errorf("catalog %s: %w", c.Name, err))
			}
			out = append(out, servedCatalog{cat: sc, kind: c.Type, root: sc.Root(), close: func(ctx context.Context) error {
				return errors.Join(sc.Close(ctx), db.Close())
			}})
		default:
			return fail(fmt.Errorf("catalog %s: type %q is not supported", c.Name, c.Type))
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no catalog is configured (set warehouse, or catalogs)")
	}
	return out, nil
}

// closeCatalogs closes every catalog; failures are logged when logger is
// set.
func closeCatalogs(ctx context.Context, cats []servedCatalog, logger *slog.Logger) {
	for _, c := range cats {
		if err := c.close(ctx); err != nil && logger != nil {
			logger.Warn("close catalog", "catalog", c.cat.Name(), "err", err)
		}
	}
}
