package translate

import "time"

// The session as the binder's env (bind_env.go); the other methods of env
// are the session's own.

func (s *session) sessionUser() string                { return s.user }
func (s *session) databaseName() string               { return s.database }
func (s *session) catalogName() string                { return s.cat.Name() }
func (s *session) searchPath() []string               { return s.settings.searchPath() }
func (s *session) setting(name string) (string, bool) { return s.settings.get(name) }
func (s *session) backendPID() int32                  { return s.pid }
func (s *session) backendStarted() time.Time          { return s.backend.started }

func (s *session) isTempView(name string) bool {
	_, ok := s.temp[name]
	return ok
}

func (s *session) txid() int64 { return int64(txidBase + s.sysGen) }

// txidBase offsets statement numbers into the range of normal
// transaction ids (above FirstNormalTransactionId and the ids initdb uses).
const txidBase = 1000
