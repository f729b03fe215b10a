package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/wire"
)

// buildAccess makes what admits connections from cfg: the Authenticator
// (users, the built-in user's password, access rules) and the TLS
// configuration, with client certificates asked for when tls.ca is set.
func buildAccess(cfg *conf.Config, logger *slog.Logger) (*auth.Authenticator, *tls.Config, error) {
	users := make([]auth.User, len(cfg.Users))
	for i, u := range cfg.Users {
		users[i] = auth.User{Name: u.Name, SCRAM: u.SCRAM}
	}
	rules, err := accessRules(cfg.Access)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rules {
		switch {
		case r.Method == auth.MethodCert && cfg.Access.TLSCA == "":
			// PostgreSQL refuses such a rule without ssl_ca_file too.
			return nil, nil, fmt.Errorf("access rule %s: client certificates can only be checked with tls.ca set", r.Source)
		case r.Type == auth.ConnHostSSL && cfg.TLSCert == "":
			logger.Warn("access rule cannot match: it is for TLS connections and TLS is not configured (tls.cert, tls.key)", "rule", r.Source)
		}
	}
	authn, err := auth.NewFromConfig(auth.Config{Users: users, BuiltinPassword: cfg.Password, Rules: rules,
		TLSRequired: cfg.Access.TLSRequired, Logger: logger})
	if err != nil {
		return nil, nil, fmt.Errorf("set up authentication: %w", err)
	}
	if err := authn.CheckListen(cfg.Listen); err != nil {
		return nil, nil, err
	}
	tlsConfig, err := loadTLS(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Access.TLSCA != "" {
		pem, err := os.ReadFile(cfg.Access.TLSCA)
		if err != nil {
			return nil, nil, fmt.Errorf("tls.ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, nil, fmt.Errorf("tls.ca: %s holds no PEM certificate", cfg.Access.TLSCA)
		}
		// As PostgreSQL with ssl_ca_file: a client certificate is asked
		// for and verified when sent; the cert method requires one.
		tlsConfig.ClientCAs = pool
		tlsConfig.ClientAuth = tls.VerifyClientCertIfGiven
	}
	logger.Info("access rules in force", "rules", ruleSummary(rules), "tls", tlsConfig != nil, "tls_required", cfg.Access.TLSRequired,
		"client_certificates", cfg.Access.TLSCA != "")
	return authn, tlsConfig, nil
}

// ruleSummary says which rules are in force, for the log.
func ruleSummary(rules []auth.Rule) string {
	if rules == nil {
		return "defaults"
	}
	return fmt.Sprintf("%d configured", len(rules))
}

// accessRules parses access.rules, then the rules of access.hba-file. nil
// when neither is set: the Authenticator's defaults.
func accessRules(a conf.Access) ([]auth.Rule, error) {
	if !a.Configured() {
		return nil, nil
	}
	rules := []auth.Rule{}
	for i, r := range a.Rules {
		rule, err := auth.ParseRule(auth.RuleSpec{Type: r.Type, Database: r.Database, User: r.User, Address: r.Address, Method: r.Method},
			fmt.Sprintf("access.rules[%d]", i))
		if err != nil {
			return nil, err
		}
		rules = append(rules, rule)
	}
	if a.HBAFile != "" {
		f, err := os.Open(a.HBAFile)
		if err != nil {
			return nil, fmt.Errorf("access.hba-file: %w", err)
		}
		defer f.Close()
		more, err := auth.ParseHBA(f, a.HBAFile)
		if err != nil {
			return nil, err
		}
		rules = append(rules, more...)
	}
	return rules, nil
}

// reloadOnHangup reloads the configuration at every SIGHUP until ctx
// ends: users, access rules and TLS certificates change for new
// connections; open sessions keep theirs. A configuration that does not
// load is logged and the one in force kept. Settings read only at start
// (listen, catalogs, limits) keep their values until a restart.
func reloadOnHangup(ctx context.Context, srv *wire.Server, listen string, load func() (*conf.Config, error), attachRoles func(*auth.Authenticator), logger *slog.Logger) {
	if load == nil {
		return
	}
	hup := hangups(ctx)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
			}
			if err := reloadAccess(srv, listen, load, attachRoles, logger); err != nil {
				logger.Error("configuration not reloaded; the one in force stays", "err", err)
				continue
			}
			logger.Info("configuration reloaded: users, access rules and TLS apply to new connections")
		}
	}()
}

// reloadAccess loads the configuration and swaps in its access.
func reloadAccess(srv *wire.Server, listen string, load func() (*conf.Config, error), attachRoles func(*auth.Authenticator), logger *slog.Logger) error {
	cfg, err := load()
	if err != nil {
		return err
	}
	if cfg.Listen != listen {
		logger.Warn("listen changed in the configuration; it takes effect at the next start", "listen", listen, "new", cfg.Listen)
	}
	// Trust mode is checked against the address being served.
	cfg.Listen = listen
	authn, tlsConfig, err := buildAccess(cfg, logger)
	if err != nil {
		return err
	}
	if attachRoles != nil {
		attachRoles(authn) // roles of the store keep logging in
	}
	return srv.Reload(authn, tlsConfig)
}
