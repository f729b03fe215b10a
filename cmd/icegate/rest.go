package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/conf"
)

// Timeouts of the REST catalog's HTTP server. Bodies are metadata (at
// most restserver's 16 MiB), so a minute to read or write one is ample.
const (
	restReadHeaderTimeout = 10 * time.Second
	restReadTimeout       = time.Minute
	restWriteTimeout      = 2 * time.Minute
	restIdleTimeout       = 2 * time.Minute
	restMaxHeaderBytes    = 64 << 10
	restShutdownTimeout   = 10 * time.Second
)

// vendedKeys are the properties of an object-store catalog handed to REST
// clients that ask for vended credentials.
var vendedKeys = []string{"s3.endpoint", "s3.region", "client.region", "s3.path-style-access",
	"s3.access-key-id", "s3.secret-access-key", "s3.session-token"}

// vendable is what the REST catalog may vend for c: the configured s3.*
// properties of a catalog in an object store; nothing for a local one, nor
// for a catalog of type rest, whose storage credentials are its server's
// to vend, per table, and are not passed on.
func vendable(cfg *conf.Config, c servedCatalog) map[string]string {
	if !c.objects || c.kind == conf.CatalogREST {
		return nil
	}
	for _, cc := range cfg.Catalogs {
		if cc.Name != c.cat.Name() {
			continue
		}
		out := map[string]string{}
		for _, k := range vendedKeys {
			if v := cc.Properties[k]; v != "" {
				out[k] = v
			}
		}
		return out
	}
	return nil
}

// restCatalog is the REST catalog's HTTP server, started by startREST.
type restCatalog struct {
	srv  *http.Server
	done chan error // Serve's result
}

// startREST serves the catalogs over the Iceberg REST catalog protocol
// on cfg.RESTListen, with the logins of the PostgreSQL port and its TLS
// settings. Catalogs that cannot be written are not served (none of the
// configured kinds is read-only today). failed is called when serving
// stops on an error.
func startREST(ctx context.Context, cfg *conf.Config, cats []servedCatalog, authn *auth.Authenticator,
	tlsConfig *tls.Config, logger *slog.Logger, failed func(error)) (*restCatalog, error) {
	if err := authn.CheckListen(cfg.RESTListen); err != nil {
		return nil, fmt.Errorf("REST catalog: %w", err)
	}
	named := make([]restserver.Named, 0, len(cats))
	for _, c := range cats {
		mc, ok := c.cat.(catalog.MutableCatalog)
		if !ok {
			logger.Warn("REST catalog: catalog not served: it cannot be written", "catalog", c.cat.Name())
			continue
		}
		named = append(named, restserver.Named{Name: c.cat.Name(), Catalog: mc, Credentials: vendable(cfg, c)})
	}
	tokens, err := restserver.NewTokens(authn, logger)
	if err != nil {
		return nil, fmt.Errorf("REST catalog: %w", err)
	}
	h, err := restserver.NewMulti(named, restserver.Options{
		Logger:          logger,
		Tokens:          tokens,
		VendCredentials: cfg.RESTVendCredentials,
	})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.RESTListen)
	if err != nil {
		return nil, fmt.Errorf("REST catalog: listen on %s: %w", cfg.RESTListen, err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: restReadHeaderTimeout,
		ReadTimeout:       restReadTimeout,
		WriteTimeout:      restWriteTimeout,
		IdleTimeout:       restIdleTimeout,
		MaxHeaderBytes:    restMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
		srv.TLSConfig = tlsConfig.Clone()
		// Client certificates (tls.ca) are for the PostgreSQL port's cert
		// rules; REST clients log in with tokens.
		srv.TLSConfig.ClientAuth, srv.TLSConfig.ClientCAs = tls.NoClientCert, nil
		ln = tls.NewListener(ln, srv.TLSConfig)
	}
	addr := ln.Addr().(*net.TCPAddr)
	names := make([]string, len(named))
	for i, n := range named {
		names[i] = n.Name
	}
	how := "bearer tokens from " + restserver.TokenPath + " (client_id and client_secret: an icegate user and its password)"
	if authn.Trust() {
		how = "no password: loopback clients only, no token needed"
	}
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	logger.Info("REST catalog listening on "+addr.String(),
		"uri", fmt.Sprintf("%s://%s/", scheme, net.JoinHostPort(host, fmt.Sprint(addr.Port))),
		"catalogs", strings.Join(names, ","),
		"tls", tlsConfig != nil,
		"vend_credentials", cfg.RESTVendCredentials,
		"auth", how)
	if tlsConfig == nil && !authn.Trust() && !addr.IP.IsLoopback() {
		logger.Warn("REST catalog without TLS: passwords and tokens cross the network in the clear; set tls.cert and tls.key")
	}
	rc := &restCatalog{srv: srv, done: make(chan error, 1)}
	go func() {
		err := srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		if err != nil {
			failed(fmt.Errorf("REST catalog: %w", err))
		}
		rc.done <- err
	}()
	return rc, nil
}

// stop ends the REST catalog: no new requests, and those under way get
// restShutdownTimeout to finish.
func (rc *restCatalog) stop(logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), restShutdownTimeout)
	defer cancel()
	if err := rc.srv.Shutdown(ctx); err != nil {
		logger.Warn("REST catalog: requests still running at shutdown were cut", "err", err)
		rc.srv.Close()
	}
	<-rc.done
	logger.Info("REST catalog stopped")
}
