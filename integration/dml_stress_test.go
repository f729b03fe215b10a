package integration

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/catalog"
)

// The row-level write stress test and the crash test share one table shape:
//
//	CREATE TABLE <t> (id bigint, w int, v bigint) PARTITIONED BY (w)
//
// Each writer w (1, 2, ...) owns the rows with w = w and ids w*dmlIDSpan+n,
// which only it changes, so it can predict them: it keeps them as
// dmlOwnedRows and records their state after each acknowledged statement.
// Rows with w = 0 and ids 1..dmlCounters are counters every writer
// increments inside some of its statements (UPDATE, MERGE, ON CONFLICT),
// together with its own rows; their final values are the number of
// acknowledged increments.
const (
	dmlCounters = 4
	dmlIDSpan   = 1_000_000
)

// dmlOwnedRows is one writer's rows: id -> v.
type dmlOwnedRows map[int64]int64

func (m dmlOwnedRows) clone() dmlOwnedRows {
	c := make(dmlOwnedRows, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func (m dmlOwnedRows) ids() []int64 {
	ids := make([]int64, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// digest identifies the rows' state (ids and values).
func (m dmlOwnedRows) digest() uint64 {
	h := fnv.New64a()
	for _, id := range m.ids() {
		fmt.Fprintf(h, "%d:%d,", id, m[id])
	}
	return h.Sum64()
}

func (m dmlOwnedRows) String() string {
	var b strings.Builder
	for i, id := range m.ids() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d:%d", id, m[id])
	}
	return "{" + b.String() + "}"
}

// dmlOp is one statement of a writer and what it must do.
type dmlOp struct {
	kind string
	sql  string
	// returning: the statement has RETURNING id, v; wantRows are those
	// rows as "id:v", sorted.
	returning bool
	wantRows  []string
	wantTag   string
	// after is the writer's rows once the statement has happened; bumps
	// the counters it increments (counter id -> increment).
	after dmlOwnedRows
	bumps map[int64]int64
}

// dmlWriter generates statements for writer w of table tbl and keeps what
// its acknowledged statements did.
type dmlWriter struct {
	tbl    string
	w      int64
	rng    *rand.Rand
	next   int64 // next unused id suffix
	rows   dmlOwnedRows
	kinds  []string // what gen picks from
	bumped map[int64]int64
	// history[i] is the rows' digest after i acknowledged writes and
	// bumpsAt[i] the counter increments they made in total.
	history []uint64
	bumpsAt []int64
	acked   map[string]int
}

func newDMLWriter(tbl string, w int64, seed uint64, kinds []string) *dmlWriter {
	return &dmlWriter{
		tbl: tbl, w: w, rng: rand.New(rand.NewPCG(seed, uint64(w))),
		rows: dmlOwnedRows{}, kinds: kinds, bumped: map[int64]int64{},
		history: []uint64{dmlOwnedRows{}.digest()}, bumpsAt: []int64{0},
		acked: map[string]int{},
	}
}

// dmlAllKinds are the statements of the stress test.
var dmlAllKinds = []string{
	"insert", "insert", "insert", "delete", "delete", "delete-returning",
	"update", "update-returning", "update-counter", "update-counter",
	"merge", "merge", "upsert", "upsert", "upsert-nothing",
}

func (d *dmlWriter) newID() int64 {
	d.next++
	return d.w*dmlIDSpan + d.next
}

func (d *dmlWriter) pick(n int) []int64 {
	ids := d.rows.ids()
	d.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	ids = ids[:min(n, len(ids))]
	slices.Sort(ids)
	return ids
}

func (d *dmlWriter) counter() int64 { return 1 + d.rng.Int64N(dmlCounters) }

func dmlJoinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ", ")
}

// gen makes the writer's next statement. Every statement changes the
// writer's own rows, so each one is visible in their state.
func (d *dmlWriter) gen() dmlOp {
	kind := d.kinds[d.rng.IntN(len(d.kinds))]
	if len(d.rows) < 3 && kind != "upsert" && kind != "merge" {
		kind = "insert"
	}
	after := d.rows.clone()
	op := dmlOp{kind: kind, after: after}
	switch kind {
	case "insert":
		n := 1 + d.rng.IntN(3)
		vals := make([]string, n)
		for i := range n {
			id, v := d.newID(), 1+d.rng.Int64N(100)
			after[id] = v
			vals[i] = fmt.Sprintf("(%d, %d, %d)", id, d.w, v)
		}
		op.sql = fmt.Sprintf("INSERT INTO %s (id, w, v) VALUES %s", d.tbl, strings.Join(vals, ", "))
		op.wantTag = fmt.Sprintf("INSERT 0 %d", n)
	case "delete":
		ids := d.pick(1 + d.rng.IntN(2))
		for _, id := range ids {
			delete(after, id)
		}
		op.sql = fmt.Sprintf("DELETE FROM %s WHERE w = %d AND id IN (%s)", d.tbl, d.w, dmlJoinIDs(ids))
		op.wantTag = fmt.Sprintf("DELETE %d", len(ids))
	case "delete-returning":
		// All of the writer's rows with v % 5 = r, r taken from one of
		// them so that something is deleted.
		r := d.rows[d.pick(1)[0]] % 5
		for id, v := range d.rows {
			if v%5 == r {
				delete(after, id)
				op.wantRows = append(op.wantRows, fmt.Sprintf("%d:%d", id, v))
			}
		}
		op.returning = true
		op.sql = fmt.Sprintf("DELETE FROM %s WHERE w = %d AND v %% 5 = %d RETURNING id, v", d.tbl, d.w, r)
		op.wantTag = fmt.Sprintf("DELETE %d", len(op.wantRows))
	case "update", "update-returning":
		ids := d.pick(1 + d.rng.IntN(3))
		delta := 1 + d.rng.Int64N(9)
		for _, id := range ids {
			after[id] += delta
			op.wantRows = append(op.wantRows, fmt.Sprintf("%d:%d", id, after[id]))
		}
		op.sql = fmt.Sprintf("UPDATE %s SET v = v + %d WHERE w = %d AND id IN (%s)", d.tbl, delta, d.w, dmlJoinIDs(ids))
		if kind == "update-returning" {
			op.returning = true
			op.sql += " RETURNING id, v"
		} else {
			op.wantRows = nil
		}
		op.wantTag = fmt.Sprintf("UPDATE %d", len(ids))
	case "update-counter":
		// One own row and one counter in one statement, across partitions.
		id, c := d.pick(1)[0], d.counter()
		after[id]++
		op.bumps = map[int64]int64{c: 1}
		op.sql = fmt.Sprintf("UPDATE %s SET v = v + 1 WHERE id IN (%d, %d)", d.tbl, id, c)
		op.wantTag = "UPDATE 2"
	case "merge":
		// A new row, a counter and, when there is one, an own row that is
		// updated or (negative delta) deleted.
		c, nid, nv := d.counter(), d.newID(), 1+d.rng.Int64N(100)
		src := []string{fmt.Sprintf("(%d, %d)", nid, nv), fmt.Sprintf("(%d, 1)", c)}
		after[nid] = nv
		if len(d.rows) > 0 {
			id := d.pick(1)[0]
			delta := d.rng.Int64N(19) - 9
			if delta == 0 {
				delta = 1
			}
			if delta < 0 {
				delete(after, id)
			} else {
				after[id] += delta
			}
			src = append(src, fmt.Sprintf("(%d, %d)", id, delta))
		}
		op.bumps = map[int64]int64{c: 1}
		op.sql = fmt.Sprintf(`MERGE INTO %[1]s t USING (VALUES %[2]s) AS s(id, d) ON t.id = s.id
WHEN MATCHED AND s.d < 0 THEN DELETE
WHEN MATCHED THEN UPDATE SET v = t.v + s.d
WHEN NOT MATCHED THEN INSERT (id, w, v) VALUES (s.id, %[3]d, s.d)`, d.tbl, strings.Join(src, ", "), d.w)
		op.wantTag = fmt.Sprintf("MERGE %d", len(src))
	case "upsert":
		// An existing own row (if any), a new one and a counter.
		c, nid, nv := d.counter(), d.newID(), 1+d.rng.Int64N(100)
		vals := []string{fmt.Sprintf("(%d, %d, %d)", nid, d.w, nv), fmt.Sprintf("(%d, 0, 1)", c)}
		after[nid] = nv
		if len(d.rows) > 0 {
			id, delta := d.pick(1)[0], 1+d.rng.Int64N(9)
			after[id] += delta
			vals = append(vals, fmt.Sprintf("(%d, %d, %d)", id, d.w, delta))
		}
		op.bumps = map[int64]int64{c: 1}
		op.sql = fmt.Sprintf("INSERT INTO %[1]s (id, w, v) VALUES %[2]s ON CONFLICT (id) DO UPDATE SET v = %[1]s.v + EXCLUDED.v", d.tbl, strings.Join(vals, ", "))
		op.wantTag = fmt.Sprintf("INSERT 0 %d", len(vals))
	case "upsert-nothing":
		id, nid, nv := d.pick(1)[0], d.newID(), 1+d.rng.Int64N(100)
		after[nid] = nv
		op.sql = fmt.Sprintf("INSERT INTO %s (id, w, v) VALUES (%d, %d, %d), (%d, %d, %d) ON CONFLICT (id) DO NOTHING", d.tbl, id, d.w, 1+d.rng.Int64N(100), nid, d.w, nv)
		op.wantTag = "INSERT 0 1"
	default:
		panic("unknown statement kind " + kind)
	}
	slices.Sort(op.wantRows)
	return op
}

// ack records that op happened.
func (d *dmlWriter) ack(op dmlOp) {
	d.rows = op.after
	total := d.bumpsAt[len(d.bumpsAt)-1]
	for c, n := range op.bumps {
		d.bumped[c] += n
		total += n
	}
	d.history = append(d.history, d.rows.digest())
	d.bumpsAt = append(d.bumpsAt, total)
	d.acked[op.kind]++
}

// dmlRun runs op on conn. It returns the command tag and, for RETURNING,
// the rows as "id:v", sorted.
func dmlRun(ctx context.Context, conn *pgx.Conn, op dmlOp) (string, []string, error) {
	if !op.returning {
		tag, err := conn.Exec(ctx, op.sql)
		return tag.String(), nil, err
	}
	rows, err := conn.Query(ctx, op.sql)
	if err != nil {
		return "", nil, err
	}
	var got []string
	for rows.Next() {
		var id, v int64
		if err := rows.Scan(&id, &v); err != nil {
			rows.Close()
			return "", nil, err
		}
		got = append(got, fmt.Sprintf("%d:%d", id, v))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", nil, err
	}
	slices.Sort(got)
	return rows.CommandTag().String(), got, nil
}

// dmlCheckResult compares what the server answered to an acknowledged op
// with what it must answer.
func dmlCheckResult(op dmlOp, tag string, rows []string) error {
	if tag != op.wantTag {
		return fmt.Errorf("%s: tag %q, want %q", op.sql, tag, op.wantTag)
	}
	if op.returning && !slices.Equal(rows, op.wantRows) {
		return fmt.Errorf("%s: RETURNING %v, want %v", op.sql, rows, op.wantRows)
	}
	return nil
}

// dmlIs40001 reports a 40001: the statement had no effect.
func dmlIs40001(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40001"
}

// dmlReadTable reads every row of tbl (at version when not empty: "VERSION
// AS OF n") into the writers' rows by w and the counters.
func dmlReadTable(ctx context.Context, conn *pgx.Conn, tbl, version string) (map[int64]dmlOwnedRows, map[int64]int64, error) {
	sql := "SELECT id, w, v FROM " + tbl
	if version != "" {
		sql += " " + version
	}
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	owned, counters := map[int64]dmlOwnedRows{}, map[int64]int64{}
	seen := map[int64]bool{}
	for rows.Next() {
		var id, v int64
		var w int32
		if err := rows.Scan(&id, &w, &v); err != nil {
			return nil, nil, err
		}
		if seen[id] {
			return nil, nil, fmt.Errorf("%s: id %d is there more than once", sql, id)
		}
		seen[id] = true
		if w == 0 {
			counters[id] = v
			continue
		}
		if owned[int64(w)] == nil {
			owned[int64(w)] = dmlOwnedRows{}
		}
		owned[int64(w)][id] = v
	}
	return owned, counters, rows.Err()
}

// dmlStressSeconds is ICEGATE_STRESS_SECONDS, 30 when unset.
func dmlStressSeconds(t *testing.T) time.Duration {
	s := os.Getenv("ICEGATE_STRESS_SECONDS")
	if s == "" {
		return 30 * time.Second
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n <= 0 {
		t.Fatalf("ICEGATE_STRESS_SECONDS=%q: want a positive number of seconds", s)
	}
	return time.Duration(n * float64(time.Second))
}

// dmlModeProps sets every row-level write mode of tbl to mode.
func dmlModeProps(tbl, mode string) string {
	return fmt.Sprintf("ALTER TABLE %s SET TBLPROPERTIES ('write.delete.mode' = '%[2]s', 'write.update.mode' = '%[2]s', 'write.merge.mode' = '%[2]s')", tbl, mode)
}

// dmlExecRetrying runs sql until it does not fail with 40001.
func dmlExecRetrying(ctx context.Context, conn *pgx.Conn, sql string) error {
	for {
		_, err := conn.Exec(ctx, sql)
		if !dmlIs40001(err) {
			return err
		}
		if ctx.Err() != nil {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDMLStress has 16 connections run random INSERT, UPDATE, DELETE,
// MERGE and INSERT ... ON CONFLICT statements on one table for
// ICEGATE_STRESS_SECONDS (default 30): the first half copy-on-write, the
// second merge-on-read. A statement failing with 40001 had no effect and
// is retried; any other error fails the test. Afterwards the table must be
// exactly what the acknowledged statements made it, one snapshot per
// acknowledged statement on one line of history, every snapshot must read
// and hold, for each writer, the state after some prefix of its
// acknowledged statements (no statement half there), and every file in
// the table's directory must be referenced by its metadata (a failed
// commit removes what it wrote). ICEGATE_STRESS_FORMAT=3 runs it on a
// format 3 table (deletion vectors).
func TestDMLStress(t *testing.T) {
	if testing.Short() {
		t.Skip("the stress test runs for 30 s; -short skips it")
	}
	format := os.Getenv("ICEGATE_STRESS_FORMAT")
	if format == "" {
		format = "2"
	}
	const writers = 16
	duration := dmlStressSeconds(t)
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), duration+5*time.Minute)
	defer cancel()
	setup := connect(t, addr)
	counterRows := make([]string, dmlCounters)
	for i := range counterRows {
		counterRows[i] = fmt.Sprintf("(%d, 0, 0)", i+1)
	}
	for _, sql := range []string{
		"CREATE TABLE stress (id bigint, w int, v bigint) USING iceberg PARTITIONED BY (w) TBLPROPERTIES ('format-version' = '" + format + "')",
		dmlModeProps("stress", "copy-on-write"),
		"INSERT INTO stress VALUES " + strings.Join(counterRows, ", "),
	} {
		if _, err := setup.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %s", sql, describe(err))
		}
	}

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d writers for %v, format %s", seed, writers, duration, format)
	start := time.Now()
	half, end := start.Add(duration/2), start.Add(duration)
	ws := make([]*dmlWriter, writers)
	var mu sync.Mutex
	var retries, gaveUp, cutOff, writes int
	var wg sync.WaitGroup
	for i := range ws {
		ws[i] = newDMLWriter("stress", int64(i+1), seed, dmlAllKinds)
		conn := connect(t, addr)
		wg.Add(1)
		go func(d *dmlWriter) {
			defer wg.Done()
			for n := 0; time.Now().Before(end); n++ {
				if n%8 == 7 {
					// Each writer reads its own rows back now and then.
					owned, _, err := dmlReadTable(ctx, conn, fmt.Sprintf("stress WHERE w = %d", d.w), "")
					if err != nil {
						t.Errorf("writer %d reads its rows: %s", d.w, describe(err))
						return
					}
					if got := owned[d.w]; got.digest() != d.rows.digest() {
						t.Errorf("writer %d reads its rows %v, want %v", d.w, got, d.rows)
						return
					}
				}
				op := d.gen()
				for attempt := 1; ; attempt++ {
					tag, rows, err := dmlRun(ctx, conn, op)
					if err == nil {
						if err := dmlCheckResult(op, tag, rows); err != nil {
							t.Errorf("writer %d: %v", d.w, err)
						}
						d.ack(op)
						mu.Lock()
						writes++
						mu.Unlock()
						break
					}
					if !dmlIs40001(err) {
						t.Errorf("writer %d, %s: %s", d.w, op.sql, describe(err))
						return
					}
					mu.Lock()
					retries++
					mu.Unlock()
					if !time.Now().Before(end) {
						mu.Lock()
						cutOff++
						mu.Unlock()
						break
					}
					if attempt == 100 {
						mu.Lock()
						gaveUp++
						mu.Unlock()
						break
					}
					time.Sleep(time.Duration(d.rng.IntN(5*min(attempt, 10))) * time.Millisecond)
				}
			}
		}(ws[i])
	}
	// Half way through, row-level writes turn merge-on-read.
	switcher := connect(t, addr)
	time.Sleep(time.Until(half))
	if err := dmlExecRetrying(ctx, switcher, dmlModeProps("stress", "merge-on-read")); err != nil {
		t.Errorf("switch to merge-on-read: %s", describe(err))
	}
	switched := time.Now()
	wg.Wait()
	elapsed := time.Since(start)

	acked := map[string]int{}
	for _, d := range ws {
		for k, n := range d.acked {
			acked[k] += n
		}
	}
	// On a loaded machine the race commits few statements, and a kind may
	// by chance have none acknowledged; such a kind runs now, alone, so
	// that every kind is still checked against the model below.
	alone := 0
	if !t.Failed() {
		for _, k := range dmlAllKinds {
			d := ws[0]
			kinds := d.kinds
			d.kinds = []string{k}
			for try := 0; acked[k] == 0 && try < 10; try++ {
				op := d.gen()
				tag, rows, err := dmlRun(ctx, switcher, op)
				for attempt := 0; dmlIs40001(err) && attempt < 100; attempt++ {
					time.Sleep(10 * time.Millisecond)
					tag, rows, err = dmlRun(ctx, switcher, op)
				}
				if err != nil {
					t.Errorf("%s alone: %s", op.sql, describe(err))
					break
				}
				if err := dmlCheckResult(op, tag, rows); err != nil {
					t.Errorf("%s alone: %v", op.sql, err)
				}
				d.ack(op)
				writes++
				alone++
				acked[op.kind]++
			}
			d.kinds = kinds
		}
	}
	t.Logf("%d statements acknowledged in %v (%.1f commits/s), %d retries after 40001, %d statements given up after 100 attempts, %d failing with 40001 at the end; by kind %v (%d of them run alone afterwards)",
		writes-alone, elapsed.Round(time.Millisecond), float64(writes-alone)/elapsed.Seconds(), retries, gaveUp, cutOff, acked, alone)
	if t.Failed() {
		return
	}
	for _, k := range dmlAllKinds {
		if acked[k] == 0 {
			t.Errorf("no %s statement was acknowledged", k)
		}
	}

	// The table now is what the acknowledged statements made it.
	owned, counters, err := dmlReadTable(ctx, setup, "stress", "")
	if err != nil {
		t.Fatalf("read the table: %s", describe(err))
	}
	var wantSum, gotSum int64
	for _, d := range ws {
		if got := owned[d.w]; got.digest() != d.rows.digest() {
			t.Errorf("writer %d's rows are %v, want %v", d.w, got, d.rows)
		}
		for _, v := range d.rows {
			wantSum += v
		}
		delete(owned, d.w)
	}
	for w, rows := range owned {
		t.Errorf("rows of no writer (w = %d): %v", w, rows)
	}
	for c := int64(1); c <= dmlCounters; c++ {
		var want int64
		for _, d := range ws {
			want += d.bumped[c]
		}
		wantSum += want
		if got, ok := counters[c]; !ok || got != want {
			t.Errorf("counter %d is %d (present: %v), want %d acknowledged increments", c, got, ok, want)
		}
	}
	if len(counters) != dmlCounters {
		t.Errorf("%d counter rows, want %d: %v", len(counters), dmlCounters, counters)
	}
	if err := setup.QueryRow(ctx, "SELECT coalesce(sum(v), 0) FROM stress").Scan(&gotSum); err != nil {
		t.Errorf("sum(v): %s", describe(err))
	} else if gotSum != wantSum {
		t.Errorf("sum(v) = %d, want %d", gotSum, wantSum)
	}

	cat, err := catalog.NewFilesystem("check", warehouse, nil)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: "stress"})
	if err != nil {
		t.Fatal(err)
	}
	chain := dmlSnapshotChain(t, tbl)
	// One snapshot for the counters' insert, then one per acknowledged
	// statement, each the child of the one before.
	if len(chain) != len(tbl.Metadata.Snapshots) || len(chain) != writes+1 {
		t.Errorf("%d snapshots, %d on the current line of history; want %d (one per acknowledged statement and the first insert)",
			len(tbl.Metadata.Snapshots), len(chain), writes+1)
	}
	var morDeleteFiles int64
	for _, s := range chain {
		if s.TimestampMs > switched.UnixMilli() {
			n, _ := strconv.ParseInt(s.Summary["added-delete-files"], 10, 64)
			morDeleteFiles += n
		}
	}
	t.Logf("merge-on-read half: %d delete files added", morDeleteFiles)
	if morDeleteFiles == 0 {
		t.Errorf("no snapshot after the switch to merge-on-read added a delete file")
	}
	var listed int
	if err := setup.QueryRow(ctx, "SELECT count(*) FROM stress$snapshots").Scan(&listed); err != nil {
		t.Errorf("stress$snapshots: %s", describe(err))
	} else if listed != len(tbl.Metadata.Snapshots) {
		t.Errorf("stress$snapshots lists %d snapshots, the metadata %d", listed, len(tbl.Metadata.Snapshots))
	}
	dmlCheckSnapshots(t, ctx, setup, "stress", chain, ws, 40)

	unref, total, err := dmlUnreferencedFiles(ctx, tbl)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files in the table directory, all referenced but %d", total, len(unref))
	for i, f := range unref {
		if i == 20 {
			t.Errorf("... and %d more", len(unref)-i)
			break
		}
		t.Errorf("file %s is referenced by no metadata of the table", f)
	}
}

// dmlSnapshotChain is the current snapshot and its ancestors, oldest first.
func dmlSnapshotChain(t *testing.T, tbl *catalog.Table) []*catalog.Snapshot {
	t.Helper()
	var chain []*catalog.Snapshot
	for s := tbl.Metadata.CurrentSnapshot(); s != nil; {
		chain = append(chain, s)
		if s.ParentSnapshotID == nil {
			break
		}
		p := tbl.Metadata.SnapshotByID(*s.ParentSnapshotID)
		if p == nil {
			t.Errorf("snapshot %d's parent %d is not in the metadata", s.SnapshotID, *s.ParentSnapshotID)
		}
		s = p
	}
	slices.Reverse(chain)
	return chain
}

// dmlCheckSnapshots reads every snapshot of chain by VERSION AS OF, and
// fully up to sample of them (evenly spread, the last included): there
// each writer's rows must be their state after some prefix of its
// acknowledged statements, and the counters' total between the
// increments those prefixes made.
func dmlCheckSnapshots(t *testing.T, ctx context.Context, conn *pgx.Conn, tbl string, chain []*catalog.Snapshot, ws []*dmlWriter, sample int) {
	t.Helper()
	full := map[int]bool{len(chain) - 1: true}
	for i := range sample {
		full[i*len(chain)/sample] = true
	}
	for i, s := range chain {
		version := fmt.Sprintf("VERSION AS OF %d", s.SnapshotID)
		if !full[i] {
			var n int64
			if err := conn.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM %s %s", tbl, version)).Scan(&n); err != nil {
				t.Errorf("snapshot %d (%d of %d): %s", s.SnapshotID, i+1, len(chain), describe(err))
			} else if lo, hi, ok := dmlSummaryRows(s); ok && (n < lo || n > hi) {
				t.Errorf("snapshot %d: %d rows; its summary says %d records less at most %d position deletes", s.SnapshotID, n, hi, hi-lo)
			}
			continue
		}
		owned, counters, err := dmlReadTable(ctx, conn, tbl, version)
		if err != nil {
			t.Errorf("snapshot %d (%d of %d): %s", s.SnapshotID, i+1, len(chain), describe(err))
			continue
		}
		var lo, hi int64
		for _, d := range ws {
			dg := owned[d.w].digest()
			first, last := -1, -1
			for k, h := range d.history {
				if h == dg {
					if first < 0 {
						first = k
					}
					last = k
				}
			}
			if first < 0 {
				t.Errorf("snapshot %d: writer %d's rows %v are no state its acknowledged statements left", s.SnapshotID, d.w, owned[d.w])
				continue
			}
			lo += d.bumpsAt[first]
			hi += d.bumpsAt[last]
		}
		var sum int64
		for _, v := range counters {
			sum += v
		}
		if sum < lo || sum > hi {
			t.Errorf("snapshot %d: the counters add up to %d, the writers' states there made between %d and %d increments", s.SnapshotID, sum, lo, hi)
		}
	}
}

// dmlSummaryRows bounds the rows snapshot s holds by its summary: at most
// total-records, at least that less total-position-deletes (a position
// delete may name a row no longer there). ok is false when the summary
// lacks them or counts equality deletes.
func dmlSummaryRows(s *catalog.Snapshot) (lo, hi int64, ok bool) {
	get := func(k string) (int64, bool) {
		n, err := strconv.ParseInt(s.Summary[k], 10, 64)
		return n, err == nil
	}
	records, ok1 := get("total-records")
	posDeletes, ok2 := get("total-position-deletes")
	eqDeletes, ok3 := get("total-equality-deletes")
	if !ok1 || !ok2 || !ok3 || eqDeletes != 0 {
		return 0, 0, false
	}
	return records - posDeletes, records, true
}

// dmlUnreferencedFiles walks tbl's directory and returns the files no
// metadata of the table references (sorted), and how many files there are.
// Referenced are the version hint, the metadata files up to the current
// version (each one a commit), and for every snapshot its manifest list,
// manifests and their data and delete files, whatever their status, and
// statistics files.
func dmlUnreferencedFiles(ctx context.Context, tbl *catalog.Table) ([]string, int, error) {
	metaDir := filepath.Dir(tbl.MetadataLocation)
	dir := filepath.Dir(metaDir)
	refs := map[string]bool{filepath.Join(metaDir, "version-hint.text"): true}
	current := dmlMetadataVersion(filepath.Base(tbl.MetadataLocation))
	if current < 0 {
		return nil, 0, fmt.Errorf("current metadata file %s has no version", tbl.MetadataLocation)
	}
	for v := int64(1); v <= current; v++ {
		refs[filepath.Join(metaDir, fmt.Sprintf("v%d.metadata.json", v))] = true
	}
	ref := func(written string) error {
		local, err := tbl.IO.Resolve(written)
		if err != nil {
			return fmt.Errorf("referenced file %s: %w", written, err)
		}
		refs[filepath.Clean(local)] = true
		return nil
	}
	for _, e := range tbl.Metadata.MetadataLog {
		if err := ref(e.MetadataFile); err != nil {
			return nil, 0, err
		}
	}
	for _, st := range tbl.Metadata.Statistics {
		if err := ref(st.StatisticsPath); err != nil {
			return nil, 0, err
		}
	}
	for _, st := range tbl.Metadata.PartitionStatistics {
		if err := ref(st.StatisticsPath); err != nil {
			return nil, 0, err
		}
	}
	for _, s := range tbl.Metadata.Snapshots {
		if err := ref(s.ManifestList); err != nil {
			return nil, 0, err
		}
		mfs, err := catalog.ReadManifestList(ctx, tbl.IO, s)
		if err != nil {
			return nil, 0, fmt.Errorf("snapshot %d: %w", s.SnapshotID, err)
		}
		for i := range mfs {
			if err := ref(mfs[i].Path); err != nil {
				return nil, 0, err
			}
			m, err := catalog.ReadManifest(ctx, tbl.IO, &mfs[i])
			if err != nil {
				return nil, 0, fmt.Errorf("snapshot %d: %w", s.SnapshotID, err)
			}
			for _, e := range m.Entries {
				if err := ref(e.File.Path); err != nil {
					return nil, 0, fmt.Errorf("snapshot %d, manifest %s: %w", s.SnapshotID, mfs[i].Path, err)
				}
			}
		}
	}
	var unref []string
	total := 0
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if strings.HasPrefix(e.Name(), ".icegate-writes-") {
			return nil // a gateway's record of what it writes (catalog/filesystem_cleanup.go)
		}
		total++
		if !refs[filepath.Clean(path)] {
			rel, _ := filepath.Rel(dir, path)
			unref = append(unref, rel)
		}
		return nil
	})
	sort.Strings(unref)
	return unref, total, err
}

// dmlMetadataVersion is N of "vN.metadata.json", or -1.
func dmlMetadataVersion(name string) int64 {
	s, ok := strings.CutPrefix(name, "v")
	if !ok {
		return -1
	}
	s, ok = strings.CutSuffix(s, ".metadata.json")
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return n
}
