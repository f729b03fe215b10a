package conf

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cast"
	"github.com/spf13/viper"
)

// DefaultShutdownDrainTimeout is how long SIGTERM waits for running
// statements by default.
const DefaultShutdownDrainTimeout = 30 * time.Second

// maxShutdownDrainTimeout bounds shutdown.drain-timeout: a service
// manager's stop timeout must exceed it.
const maxShutdownDrainTimeout = 24 * time.Hour

// AuditFsyncModes are the values of audit.fsync.
var AuditFsyncModes = []string{"commit", "always", "never"}

// readOps reads the operations keys: shutdown.drain-timeout, audit.file
// and audit.fsync.
func readOps(v *viper.Viper, cfg *Config) error {
	cfg.ShutdownDrainTimeout = DefaultShutdownDrainTimeout
	if raw := v.Get(keyShutdownDrain); raw != nil {
		d, err := parseDuration(fmt.Sprint(raw))
		if err != nil {
			return fmt.Errorf("conf: %s: %q %v", keyShutdownDrain, fmt.Sprint(raw), err)
		}
		if d < 0 || d > maxShutdownDrainTimeout {
			return fmt.Errorf("conf: %s: %s must be from 0 to %s", keyShutdownDrain, d, maxShutdownDrainTimeout)
		}
		cfg.ShutdownDrainTimeout = d
	}
	if raw := v.Get(keyAuditFile); raw != nil {
		s, err := cast.ToStringE(raw)
		if err != nil {
			return fmt.Errorf("conf: %s: %v is not a string", keyAuditFile, raw)
		}
		cfg.AuditFile = s
	}
	cfg.AuditFsync = AuditFsyncModes[0]
	if raw := v.Get(keyAuditSync); raw != nil {
		s, err := cast.ToStringE(raw)
		if err != nil || !slices.Contains(AuditFsyncModes, s) {
			return fmt.Errorf("conf: %s: %q must be one of %v", keyAuditSync, fmt.Sprint(raw), AuditFsyncModes)
		}
		cfg.AuditFsync = s
	}
	return nil
}
