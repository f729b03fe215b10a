package roles

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Store is the durable state of the roles, shared by every gateway over
// the same directory. It is safe for concurrent use.
type Store struct {
	dir string
	// Bootstrap are the superusers of the configuration, never stored.
	bootstrap []string

	// hash and check make and check SCRAM verifiers (package auth's,
	// given by SetPasswords: this package sits below auth).
	hash  func(password string) (string, error)
	check func(verifier string) error

	mu  sync.Mutex
	cur *State

	// staged is set on a transaction block's Store (staged.go).
	staged *staging
}

// SetPasswords gives the store the functions that hash a plaintext
// password into a SCRAM verifier and check a verifier given as is. Call it
// before the store is used.
func (s *Store) SetPasswords(hash func(string) (string, error), check func(string) error) {
	s.hash, s.check = hash, check
}

// errNoPasswords is the error of a store that was given no password
// functions.
var errNoPasswords = errors.New("the roles store cannot hash passwords")

// HashPassword makes the SCRAM verifier of a plaintext password.
func (s *Store) HashPassword(password string) (string, error) {
	if s.hash == nil {
		return "", errNoPasswords
	}
	return s.hash(password)
}

// CheckVerifier checks a SCRAM verifier given as a role's password.
func (s *Store) CheckVerifier(v string) error {
	if s.check == nil {
		return errNoPasswords
	}
	return s.check(v)
}

// Open opens the store in dir (created on the first change) with the
// configuration's superusers; it reads the newest version there.
func Open(ctx context.Context, dir string, bootstrap []string) (*Store, error) {
	s := &Store{dir: dir, bootstrap: bootstrap, cur: emptyState()}
	// The newest version may be any: list them once; from then on only
	// the next version's name is looked at.
	v, err := s.newest()
	if err != nil {
		return nil, err
	}
	if v > 0 {
		if err := s.load(v); err != nil {
			return nil, err
		}
	}
	if _, err := s.Current(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Bootstrap are the configuration's superusers; the first is the owner
// of what the store records no owner for.
func (s *Store) Bootstrap() []string { return s.bootstrap }

// IsBootstrap reports whether name is a configured superuser.
func (s *Store) IsBootstrap(name string) bool {
	for _, b := range s.bootstrap {
		if b == name {
			return true
		}
	}
	return false
}

func (s *Store) path(v int64) string {
	return filepath.Join(s.dir, "v"+strconv.FormatInt(v, 10)+".json")
}

// Current returns the newest state. When it knows version N it checks only
// whether v<N+1>.json exists (one stat); only then does it read on. The
// State returned must not be changed.
func (s *Store) Current(ctx context.Context) (*State, error) {
	if s.staged != nil {
		return s.staged.current(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := s.cur.Version + 1
		data, err := os.ReadFile(s.path(next))
		if errors.Is(err, fs.ErrNotExist) {
			return s.cur, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read roles version %d: %w", next, err)
		}
		st, err := decode(data, next)
		if err != nil {
			return nil, err
		}
		s.cur = st
	}
}

func (s *Store) load(v int64) error {
	data, err := os.ReadFile(s.path(v))
	if err != nil {
		return fmt.Errorf("read roles version %d: %w", v, err)
	}
	st, err := decode(data, v)
	if err != nil {
		return err
	}
	s.cur = st
	return nil
}

func decode(data []byte, v int64) (*State, error) {
	st := emptyState()
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("roles version %d: %w", v, err)
	}
	if st.Roles == nil {
		st.Roles = map[string]*Role{}
	}
	if st.Objects == nil {
		st.Objects = map[string]*Object{}
	}
	st.Version = v
	return st, nil
}

// newest is the highest version in the directory (0: none).
func (s *Store) newest() (int64, error) {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("list roles directory %s: %w", s.dir, err)
	}
	var best int64
	for _, e := range ents {
		n, ok := strings.CutPrefix(e.Name(), "v")
		n, ok2 := strings.CutSuffix(n, ".json")
		if !ok || !ok2 {
			continue
		}
		if v, err := strconv.ParseInt(n, 10, 64); err == nil && v > best {
			best = v
		}
	}
	return best, nil
}

// ErrConflict is what publishing a version another gateway took first
// returns inside Update before Update retries.
var errConflict = errors.New("roles version taken")

// maxAttempts bounds Update's retries under contention.
const maxAttempts = 20

// Update applies change to a copy of the newest state and publishes it as
// the next version. When another gateway publishes that version first it
// reads the winner's and applies change again. An error of change is
// returned as it is, and nothing is published.
func (s *Store) Update(ctx context.Context, change func(*State) error) (*State, error) {
	if s.staged != nil {
		return s.staged.update(ctx, change)
	}
	for range maxAttempts {
		cur, err := s.Current(ctx)
		if err != nil {
			return nil, err
		}
		next := cur.clone()
		if err := change(next); err != nil {
			return nil, err
		}
		next.Version = cur.Version + 1
		err = s.publish(next)
		if errors.Is(err, errConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		if s.cur.Version < next.Version {
			s.cur = next
		}
		s.mu.Unlock()
		return next, nil
	}
	return nil, fmt.Errorf("roles store %s: too many concurrent changes", s.dir)
}

// publish writes st as its version: a synced temporary file linked to
// the version's name, which fails if the name exists.
func (s *Store) publish(st *State) error {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("create roles directory: %w", err)
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("encode roles: %w", err)
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(s.dir, ".tmp-"+hex.EncodeToString(rnd[:]))
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("write roles: %w", err)
	}
	defer os.Remove(tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write roles: %w", err)
	}
	if err := os.Link(tmp, s.path(st.Version)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errConflict
		}
		return fmt.Errorf("publish roles version %d: %w", st.Version, err)
	}
	if d, err := os.Open(s.dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Verifier is the SCRAM verifier a stored role logs in with: none for a
// role without a password or whose VALID UNTIL has passed. It reads the
// current state; an unreadable store gives none.
func (s *Store) Verifier(ctx context.Context, name string, now time.Time) (string, bool) {
	st, err := s.Current(ctx)
	if err != nil {
		return "", false
	}
	r := st.Role(name)
	if r == nil || r.Password == "" || r.ValidUntil != nil && now.After(*r.ValidUntil) {
		return "", false
	}
	return r.Password, true
}
