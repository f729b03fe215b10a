package translate

import (
	"time"

	"github.com/icegate/icegate/translate/settings"
)

// IdleInTransactionTimeout is idle_in_transaction_session_timeout: wire
// ends a session that waits that long for its next statement inside a
// transaction block (0: never), with FATAL 25P03 as PostgreSQL does.
func (s *session) IdleInTransactionTimeout() time.Duration {
	v, _ := s.settings.Get("idle_in_transaction_session_timeout")
	ms, ok := settings.ParseMillis(v)
	if !ok {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}
