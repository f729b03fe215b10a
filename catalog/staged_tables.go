package catalog

import "sync"

// stagedTables are the tables a catalog staged in this process
// (TableStager), by qualified name: reserved until published or
// discarded.
type stagedTables struct {
	mu     sync.Mutex
	staged map[string]stagedDir
}

// stagedDir is where a staged table writes, and whether staging made the
// directory (discarding removes it then).
type stagedDir struct {
	dir  string
	made bool
}

// reserve stages name at st; false when it is staged already.
func (s *stagedTables) reserve(name string, st stagedDir) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.staged[name]; ok {
		return false
	}
	if s.staged == nil {
		s.staged = map[string]stagedDir{}
	}
	s.staged[name] = st
	return true
}

// setMade records whether staging name made its directory.
func (s *stagedTables) setMade(name string, made bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.staged[name]; ok {
		st.made = made
		s.staged[name] = st
	}
}

// lookup returns the staging of name.
func (s *stagedTables) lookup(name string) (stagedDir, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.staged[name]
	return st, ok
}

// take ends the staging of name and returns what it was.
func (s *stagedTables) take(name string) (stagedDir, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.staged[name]
	delete(s.staged, name)
	return st, ok
}
