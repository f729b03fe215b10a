package main

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/conf"
)

// TestOpenRESTCatalog: a catalog of type rest is served through the REST
// client, its warehouse only a name.
func TestOpenRESTCatalog(t *testing.T) {
	ctx := context.Background()
	backend, err := catalog.NewFilesystem("remote", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := backend.CreateNamespace(ctx, []string{"shop"}, nil); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(restserver.New(backend, restserver.Options{}))
	defer srv.Close()
	cfg := &conf.Config{Catalogs: []conf.Catalog{{Name: "lake", Type: conf.CatalogREST,
		Properties: map[string]string{"uri": srv.URL, "warehouse": "s3://not-a-place-of-files/x"}}}}
	cats, err := openCatalogs(ctx, cfg, "")
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer closeCatalogs(ctx, cats, nil)
	if len(cats) != 1 || cats[0].kind != conf.CatalogREST || cats[0].cat.Name() != "lake" {
		t.Fatalf("opened %+v", cats)
	}
	if _, ok := cats[0].cat.(catalog.MutableCatalog); !ok {
		t.Fatal("the REST catalog cannot be written")
	}
	ns, err := cats[0].cat.ListNamespaces(ctx)
	if err != nil || len(ns) != 1 || !slices.Equal(ns[0], []string{"shop"}) {
		t.Fatalf("namespaces %v, %v", ns, err)
	}
}
