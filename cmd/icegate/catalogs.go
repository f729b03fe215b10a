package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restclient"
	"github.com/icegate/icegate/catalog/sqldb"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/objstore"
)

// servedCatalog is one catalog the server serves, with what closes it.
type servedCatalog struct {
	cat  catalog.Catalog
	kind string // conf.CatalogHadoop, conf.CatalogSQL or conf.CatalogREST
	root string // the warehouse directory, or its s3:// location
	// objects: the warehouse is in an object store.
	objects bool
	close   func(ctx context.Context) error
}

// openCatalogs opens every configured catalog, in order; on an error it
// closes those it opened. cacheRoot is where object-store caches without a
// configured directory go ("": the OS temporary directory).
func openCatalogs(ctx context.Context, cfg *conf.Config, cacheRoot string) ([]servedCatalog, error) {
	var out []servedCatalog
	fail := func(err error) ([]servedCatalog, error) {
		closeCatalogs(ctx, out, nil)
		return nil, err
	}
	for _, c := range cfg.Catalogs {
		if c.Type == conf.CatalogREST {
			// The server keeps the tables: its warehouse is a name to ask
			// it for, not a place of files.
			rc, err := restclient.Open(ctx, c.Name, c.Properties, restclient.Options{})
			if err != nil {
				return fail(err) // it names the catalog
			}
			// objects: no local warehouse directory to survey.
			out = append(out, servedCatalog{cat: rc, kind: c.Type, root: rc.URI(), objects: true, close: rc.Close})
			continue
		}
		wh := strings.TrimPrefix(c.Properties["warehouse"], "file://")
		if objstore.IsObjectURI(wh) {
			sc, err := openObjectCatalog(ctx, c, wh, cacheRoot)
			if err != nil {
				return fail(fmt.Errorf("catalog %s: %w", c.Name, err))
			}
			out = append(out, sc)
			continue
		}
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

// openObjectCatalog opens a catalog whose warehouse is the object store
// location wh: its store (from Iceberg's s3.* properties and the standard
// AWS credential chain), the local cache of what it reads, and the
// catalog. It checks at once that the bucket answers with the credentials
// given, so that a mistake shows at start rather than at the first query.
func openObjectCatalog(ctx context.Context, c conf.Catalog, wh, cacheRoot string) (servedCatalog, error) {
	cfg, err := objstore.S3ConfigFromProperties(c.Properties)
	if err != nil {
		return servedCatalog{}, err
	}
	store, err := objstore.NewS3(ctx, cfg)
	if err != nil {
		return servedCatalog{}, err
	}
	errOne := errors.New("one object")
	if err := store.List(ctx, strings.TrimSuffix(wh, "/")+"/", func(objstore.Info) error { return errOne }); err != nil && !errors.Is(err, errOne) {
		return servedCatalog{}, fmt.Errorf("warehouse %s: %w", wh, err)
	}
	var (
		blobs    *objstore.Cache
		cleanups []func() error
	)
	if limit := c.CacheBytes(); limit > 0 {
		dir := c.Properties[conf.PropCacheDir]
		if dir == "" {
			if dir, err = os.MkdirTemp(cacheRoot, "icegate-cache-"+c.Name+"-"); err != nil {
				return servedCatalog{}, fmt.Errorf("cache directory: %w", err)
			}
			tmp := dir
			cleanups = append(cleanups, func() error { return os.RemoveAll(tmp) })
		}
		if blobs, err = objstore.NewCache(dir, limit); err != nil {
			return servedCatalog{}, fmt.Errorf("cache directory %s: %w", dir, err)
		}
	}
	cleanup := func() error {
		var errs []error
		for _, f := range cleanups {
			errs = append(errs, f())
		}
		return errors.Join(errs...)
	}
	switch c.Type {
	case conf.CatalogSQL:
		db, dialect, err := sqldb.Open(ctx, c.Properties["uri"], c.Properties)
		if err != nil {
			cleanup()
			return servedCatalog{}, err
		}
		sc, err := catalog.NewSQLObjects(ctx, c.Name, db, dialect, store, blobs, wh)
		if err != nil {
			db.Close()
			cleanup()
			return servedCatalog{}, err
		}
		return servedCatalog{cat: sc, kind: c.Type, root: sc.Root(), objects: true, close: func(ctx context.Context) error {
			return errors.Join(sc.Close(ctx), db.Close(), cleanup())
		}}, nil
	case conf.CatalogHadoop:
		hc, err := catalog.NewObjectHadoop(ctx, c.Name, store, blobs, wh)
		if err != nil {
			cleanup()
			return servedCatalog{}, err
		}
		return servedCatalog{cat: hc, kind: c.Type, root: hc.Root(), objects: true, close: func(ctx context.Context) error {
			return cleanup()
		}}, nil
	}
	cleanup()
	return servedCatalog{}, fmt.Errorf("type %q is not supported", c.Type)
}
