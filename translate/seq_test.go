package translate

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// TestSequenceTwoSessionsInterleave: two sessions of one backend take
// values of one sequence in turn; each sees its own currval, and no value
// is handed out twice.
func TestSequenceTwoSessionsInterleave(t *testing.T) {
	a, _, _ := newWriteSession(t)
	run(t, a, `CREATE SEQUENCE s`)
	bs, err := a.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	b := bs.(*session)
	seen := map[string]bool{}
	take := func(s *session, name string) string {
		v := queryRows(t, s, `SELECT nextval('s')`)[0]
		if seen[v] {
			t.Fatalf("%s got %s a second time", name, v)
		}
		seen[v] = true
		if cur := queryRows(t, s, `SELECT currval('s')`)[0]; cur != v {
			t.Fatalf("%s: currval %s after nextval %s", name, cur, v)
		}
		return v
	}
	var order []string
	for i := 0; i < 5; i++ {
		order = append(order, take(a, "a"), take(b, "b"))
	}
	// CACHE 1: the values go out in the order they are asked for.
	for i, v := range order {
		if v != strconv.Itoa(i+1) {
			t.Fatalf("values in order of the calls: %v", order)
		}
	}
}

// TestSequenceTwoBackendsConcurrent: two backends (two icegate processes
// as far as the warehouse can tell: each opens the directory itself) run
// sessions that insert into a serial table and call nextval at the same
// time; every value is distinct, and the ids number the rows without
// gaps (CACHE 1, one value per row).
func TestSequenceTwoBackendsConcurrent(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, `CREATE TABLE t (id serial, w int)`)
	other, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	backends := []Backend{s.backend, NewBackend(other, Options{})}
	const workers, perWorker = 6, 8
	var mu sync.Mutex
	var ids []string
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			sess, err := backends[w%2].NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				errs <- err
				return
			}
			ws := sess.(*session)
			for k := 0; k < perWorker; k++ {
				rs, err := execAll(ws, fmt.Sprintf(`INSERT INTO t (w) VALUES (%d) RETURNING id`, w))
				if err != nil {
					errs <- fmt.Errorf("worker %d: %w", w, err)
					return
				}
				for _, r := range rs {
					for {
						b, err := r.Next(context.Background())
						if err != nil {
							errs <- err
							return
						}
						if b == nil {
							break
						}
						mu.Lock()
						for i := 0; i < int(b.NumRows()); i++ {
							ids = append(ids, valueText(b.Column(0), i))
						}
						mu.Unlock()
					}
					r.Close()
				}
			}
			errs <- nil
		}(w)
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if len(ids) != workers*perWorker {
		t.Fatalf("%d ids returned, want %d", len(ids), workers*perWorker)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("id %s handed out twice: %v", id, ids)
		}
		seen[id] = true
	}
	got := queryRows(t, s, `SELECT count(*), count(DISTINCT id), min(id), max(id) FROM t`)
	want := fmt.Sprintf("%d\t%d\t1\t%d", workers*perWorker, workers*perWorker, workers*perWorker)
	if got[0] != want {
		t.Fatalf("table: %s, want %s", got[0], want)
	}
}

// TestSequenceBatchTakesOneCommit: an INSERT ... SELECT of many rows takes
// its ids in a few commits of the sequence (one per batch), not one per
// row, and they are consecutive.
func TestSequenceBatchTakesOneCommit(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE t (id bigserial, g int)`)
	id := catalog.Identifier{Namespace: []string{"public"}, Name: "t_id_seq"}
	before, err := cat.LoadTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, `INSERT INTO t (g) SELECT g FROM generate_series(1, 5000) g`)
	after, err := cat.LoadTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	commits := len(after.Metadata.MetadataLog) - len(before.Metadata.MetadataLog)
	if commits < 1 || commits > 5 {
		t.Fatalf("%d commits of the sequence for 5000 rows", commits)
	}
	got := queryRows(t, s, `SELECT count(DISTINCT id), min(id), max(id) FROM t`)
	if got[0] != "5000\t1\t5000" {
		t.Fatalf("ids: %s", got[0])
	}
	if v := queryRows(t, s, `SELECT nextval('t_id_seq')`)[0]; v != "5001" {
		t.Fatalf("next value after the insert: %s", v)
	}
}

// TestSequenceConcurrentNextval: sessions of two backends call nextval of
// one sequence as fast as they can; no value comes out twice and none is
// skipped.
func TestSequenceConcurrentNextval(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, `CREATE SEQUENCE s`)
	other, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	backends := []Backend{s.backend, NewBackend(other, Options{})}
	const workers, perWorker = 8, 40
	results := make(chan []string, workers)
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			sess, err := backends[w%2].NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				errs <- err
				return
			}
			ws := sess.(*session)
			var got []string
			for k := 0; k < perWorker; k++ {
				rs, err := execAll(ws, `SELECT nextval('s')`)
				if err != nil {
					errs <- err
					return
				}
				b, err := rs[0].Next(context.Background())
				if err != nil || b == nil {
					errs <- fmt.Errorf("nextval: no row (%v)", err)
					return
				}
				got = append(got, valueText(b.Column(0), 0))
				rs[0].Close()
			}
			results <- got
			errs <- nil
		}(w)
	}
	seen := map[string]bool{}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for w := 0; w < workers; w++ {
		for _, v := range <-results {
			if seen[v] {
				t.Fatalf("value %s handed out twice", v)
			}
			seen[v] = true
		}
	}
	for i := 1; i <= workers*perWorker; i++ {
		if !seen[strconv.Itoa(i)] {
			t.Fatalf("value %d never handed out", i)
		}
	}
}

// TestSequenceCache: with CACHE 10 a session takes ten values at once, so
// a second session continues after them, as in PostgreSQL.
func TestSequenceCache(t *testing.T) {
	a, _, _ := newWriteSession(t)
	run(t, a, `CREATE SEQUENCE c CACHE 10`)
	bs, err := a.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	b := bs.(*session)
	for _, step := range []struct {
		s    *session
		want string
	}{{a, "1"}, {a, "2"}, {b, "11"}, {a, "3"}, {b, "12"}} {
		if got := queryRows(t, step.s, `SELECT nextval('c')`)[0]; got != step.want {
			t.Fatalf("nextval %s, want %s", got, step.want)
		}
	}
	if got := queryRows(t, b, `SELECT last_value FROM pg_sequences WHERE sequencename = 'c'`)[0]; got != "20" {
		t.Fatalf("pg_sequences.last_value %s, want 20 (the end of the values taken)", got)
	}
}
