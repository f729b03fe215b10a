package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"strings"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/audit"
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

// reloader is what SIGHUP reloads: the audit log's file, then the
// configuration, whose users, access rules and TLS certificates change for
// new connections while open sessions keep theirs. A configuration that
// does not load is logged and the one in force kept. Settings read only
// at start are logged as requiring a restart when they change.
type reloader struct {
	srv         *wire.Server
	started     *conf.Config                 // the configuration at start
	load        func() (*conf.Config, error) // nil: no configuration reload
	attachRoles func(*auth.Authenticator)
	audit       *audit.Log
	logger      *slog.Logger
}

// watch reloads at every SIGHUP until ctx ends.
func (r *reloader) watch(ctx context.Context) {
	hup := hangups(ctx)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
			}
			r.reload()
		}
	}()
}

// reload does one SIGHUP's work.
func (r *reloader) reload() {
	// The audit log first, whatever the configuration says: a rotation
	// (move, then SIGHUP) must not wait for a configuration that loads.
	if r.audit != nil {
		if err := r.audit.Reopen(); err != nil {
			r.logger.Error("audit log not reopened; records go on to the file it had", "file", r.started.AuditFile, "err", err)
		} else {
			r.logger.Info("audit log reopened", "file", r.started.AuditFile)
		}
	}
	if r.load == nil {
		return
	}
	cfg, err := r.load()
	if err == nil {
		for _, c := range restartOnly(r.started, cfg) {
			r.logger.Warn("setting changed in the configuration requires restart; the value in force stays",
				"setting", c.key, "value", c.old, "new", c.new)
		}
		err = r.reloadAccess(cfg)
	}
	if err != nil {
		r.logger.Error("configuration not reloaded; the one in force stays", "err", err)
		return
	}
	r.logger.Info("configuration reloaded: users, access rules and TLS apply to new connections")
}

// reloadAccess swaps in the access of cfg.
func (r *reloader) reloadAccess(cfg *conf.Config) error {
	// Trust mode is checked against the address being served.
	cfg.Listen = r.started.Listen
	authn, tlsConfig, err := buildAccess(cfg, r.logger)
	if err != nil {
		return err
	}
	if r.attachRoles != nil {
		r.attachRoles(authn) // roles of the store keep logging in
	}
	return r.srv.Reload(authn, tlsConfig)
}

// settingChange is a setting whose value changed in the configuration.
type settingChange struct{ key, old, new string }

// restartOnly lists the settings read only at start whose value differs
// between the configuration in force and a reloaded one, by their keys.
func restartOnly(was, now *conf.Config) []settingChange {
	var out []settingChange
	add := func(key string, old, new any) {
		o, n := fmt.Sprint(old), fmt.Sprint(new)
		if o != n {
			out = append(out, settingChange{key, o, n})
		}
	}
	add("listen", was.Listen, now.Listen)
	add("http.listen", was.HTTPListen, now.HTTPListen)
	add("rest.listen", was.RESTListen, now.RESTListen)
	if !reflect.DeepEqual(was.Catalogs, now.Catalogs) {
		// Named only: properties hold passwords.
		out = append(out, settingChange{"catalogs", catalogNames(was), catalogNames(now)})
	}
	add("max_connections", was.MaxConnections, now.MaxConnections)
	add("max_message_size", was.MaxMessageSize, now.MaxMessageSize)
	add("authentication_timeout", was.AuthenticationTimeout, now.AuthenticationTimeout)
	add("statement_mem", was.MaxStatementMem, now.MaxStatementMem)
	add("temp_directory", was.TempDirectory, now.TempDirectory)
	add("log.level", was.LogLevel, now.LogLevel)
	add("log.statement", was.LogStatement, now.LogStatement)
	add("log.min_duration_statement", was.LogMinDurationStatement, now.LogMinDurationStatement)
	add("shutdown.drain-timeout", was.ShutdownDrainTimeout, now.ShutdownDrainTimeout)
	add("audit.file", was.AuditFile, now.AuditFile)
	add("audit.fsync", was.AuditFsync, now.AuditFsync)
	return out
}

// catalogNames names the catalogs of cfg.
func catalogNames(cfg *conf.Config) string {
	names := make([]string, len(cfg.Catalogs))
	for i, c := range cfg.Catalogs {
		names[i] = c.Name
	}
	return strings.Join(names, ",")
}
