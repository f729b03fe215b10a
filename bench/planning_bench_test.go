package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/translate"
	"github.com/icegate/icegate/wire"
)

// The planning benchmark's table: planDays partitions (identity on
// event_date), each appended in its own commit as planFilesPerDay data
// files of planRowsPerFile rows. Every append writes one manifest, so the
// table has planDays manifests and planDays*planFilesPerDay data files.
// Ids are dense and increase with the day and the file, so each file's id
// bounds are disjoint from every other's.
const (
	planNamespace   = "planbench"
	planTable       = planNamespace + ".events"
	planDays        = 1000
	planFilesPerDay = 10
	planRowsPerFile = 10
	planFirstDay    = "2023-01-01"
)

// planPointDay and planPointFile pick the partition and the data file the
// point query hits (a day in the middle, a file in the middle of it).
const (
	planPointDay  = 617
	planPointFile = 4
)

// BenchmarkPlanning measures planning over a table of 10,000 data files in
// 1,000 manifests (1,000 appends; generated once, untimed, see
// planWarehouse), over the wire against an in-process icegate:
//
//   - point/cold and point/warm: SELECT of one row by partition column and
//     id (one partition, one data file, one row group);
//   - id-only/cold and id-only/warm: the same row by id alone, so no
//     manifest can be skipped and every file's id bounds are tested;
//   - count/cold and count/warm: SELECT count(*) of the whole table;
//   - select-1/cold and select-1/warm: SELECT 1, the cost of a statement
//     that reads no table (the baseline of the others).
//
// Cold: every iteration opens a new Filesystem catalog (so its cache of
// parsed metadata, manifest lists and manifests is empty), a new server and
// a new connection, untimed, then times the first statement. The operating
// system's page cache stays warm. Warm: one server and connection, the
// statement run once untimed first. Each iteration also runs EXPLAIN
// ANALYZE of the statement (untimed; on a fresh server for cold) and the
// benchmark reports the medians of the wall time over the wire (ms), of
// icegate's Planning Time (lowering: the scan's manifests are read and
// pruned here) and of the execution after it (Execution Time, which as in
// PostgreSQL leaves planning out), and
// the manifests, files and row groups the scan considered and skipped.
func BenchmarkPlanning(b *testing.B) {
	dir := planWarehouse(b)
	day, id := planPointKey()
	point := fmt.Sprintf("SELECT id, event_date, amount, note FROM %s WHERE event_date = DATE '%s' AND id = %d", planTable, day, id)
	byID := fmt.Sprintf("SELECT id, event_date, amount, note FROM %s WHERE id = %d", planTable, id)
	count := "SELECT count(*) FROM " + planTable
	wantCount := int64(planDays * planFilesPerDay * planRowsPerFile)

	checkPoint := func(b *testing.B, rows [][]any) {
		if len(rows) != 1 || rows[0][0] != id {
			b.Fatalf("point query returned %v, want the one row with id %d", rows, id)
		}
	}
	checkCount := func(b *testing.B, rows [][]any) {
		if len(rows) != 1 || rows[0][0] != wantCount {
			b.Fatalf("count(*) returned %v, want %d", rows, wantCount)
		}
	}
	checkOne := func(b *testing.B, rows [][]any) {
		if len(rows) != 1 || rows[0][0] != int32(1) {
			b.Fatalf("SELECT 1 returned %v", rows)
		}
	}
	for _, q := range []struct {
		name, sql string
		check     func(*testing.B, [][]any)
		// pruning is what EXPLAIN ANALYZE must say the scan did; "" is
		// no scan run (count(*) is answered from the snapshot summary).
		pruning string
	}{
		{"point", point, checkPoint, "manifests 1000 skipped 999, files 10 skipped 9, row groups 1 skipped 0"},
		{"id-only", byID, checkPoint, "manifests 1000 skipped 0, files 10000 skipped 9999, row groups 1 skipped 0"},
		{"count", count, checkCount, ""},
		{"select-1", "SELECT 1", checkOne, ""},
	} {
		b.Run(q.name+"/cold", func(b *testing.B) {
			var m planMeasures
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				conn, stop := planServer(b, dir)
				b.StartTimer()
				start := time.Now()
				rows := planQuery(b, conn, q.sql)
				m.wall = append(m.wall, time.Since(start))
				b.StopTimer()
				stop()
				q.check(b, rows)
				conn, stop = planServer(b, dir)
				m.explain(b, conn, q.sql, q.pruning)
				stop()
				b.StartTimer()
			}
			m.report(b)
		})
		b.Run(q.name+"/warm", func(b *testing.B) {
			b.StopTimer()
			conn, stop := planServer(b, dir)
			defer stop()
			q.check(b, planQuery(b, conn, q.sql))
			var m planMeasures
			b.StartTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				rows := planQuery(b, conn, q.sql)
				m.wall = append(m.wall, time.Since(start))
				b.StopTimer()
				q.check(b, rows)
				m.explain(b, conn, q.sql, q.pruning)
				b.StartTimer()
			}
			m.report(b)
		})
	}
}

// planPointKey is the partition value and id of the point query's row: the
// middle row of file planPointFile of day planPointDay.
func planPointKey() (string, int64) {
	first, _ := time.Parse(time.DateOnly, planFirstDay)
	day := first.AddDate(0, 0, planPointDay).Format(time.DateOnly)
	return day, planID(planPointDay, planPointFile, planRowsPerFile/2)
}

func planID(day, file, row int) int64 {
	return int64((day*planFilesPerDay+file)*planRowsPerFile + row)
}

// planMeasures gathers one sub-benchmark's iterations.
type planMeasures struct {
	wall, planning, execution []time.Duration
	pruning                   string // the scan's pruning counts (the same every iteration)
	plan                      []string
}

var (
	planTimeRe    = regexp.MustCompile(`^(Planning|Execution) Time: ([0-9.]+) ms$`)
	planPruningRe = regexp.MustCompile(`manifests (\d+) skipped (\d+), files (\d+) skipped (\d+), row groups (\d+) skipped (\d+)`)
)

// explain runs EXPLAIN ANALYZE of sql and keeps its times and pruning,
// which must be wantPruning ("": no scan ran).
func (m *planMeasures) explain(b *testing.B, conn *pgx.Conn, sql string, wantPruning string) {
	rows := planQuery(b, conn, "EXPLAIN ANALYZE "+sql)
	m.plan, m.pruning = m.plan[:0], ""
	times := map[string]time.Duration{}
	for _, r := range rows {
		line, _ := r[0].(string)
		m.plan = append(m.plan, line)
		if g := planTimeRe.FindStringSubmatch(strings.TrimSpace(line)); g != nil {
			ms, err := strconv.ParseFloat(g[2], 64)
			if err != nil {
				b.Fatalf("EXPLAIN ANALYZE line %q: %v", line, err)
			}
			times[g[1]] = time.Duration(ms * float64(time.Millisecond))
		}
		if g := planPruningRe.FindString(line); g != "" {
			m.pruning = g
		}
	}
	if m.pruning != wantPruning {
		b.Fatalf("EXPLAIN ANALYZE %s: scan pruning %q, want %q:\n%s", sql, m.pruning, wantPruning, strings.Join(m.plan, "\n"))
	}
	planning, ok1 := times["Planning"]
	execution, ok2 := times["Execution"]
	if !ok1 || !ok2 {
		b.Fatalf("EXPLAIN ANALYZE printed no Planning or Execution Time:\n%s", strings.Join(m.plan, "\n"))
	}
	m.planning = append(m.planning, planning)
	m.execution = append(m.execution, execution)
}

// report reports the medians and logs the last plan.
func (m *planMeasures) report(b *testing.B) {
	b.ReportMetric(planMedianMs(m.wall), "median-ms")
	b.ReportMetric(planMedianMs(m.planning), "planning-ms")
	b.ReportMetric(planMedianMs(m.execution), "execution-ms")
	if g := planPruningRe.FindStringSubmatch(m.pruning); g != nil {
		for i, unit := range []string{"manifests", "manifests-skipped", "files", "files-skipped", "rowgroups", "rowgroups-skipped"} {
			n, _ := strconv.Atoi(g[i+1])
			b.ReportMetric(float64(n), unit)
		}
	}
	b.Logf("median over the wire %.3f ms, planning %.3f ms, execution %.3f ms (%d runs); plan:\n%s",
		planMedianMs(m.wall), planMedianMs(m.planning), planMedianMs(m.execution), len(m.wall), strings.Join(m.plan, "\n"))
}

func planMedianMs(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	mid := s[len(s)/2]
	if len(s)%2 == 0 {
		mid = (s[len(s)/2-1] + mid) / 2
	}
	return float64(mid.Microseconds()) / 1000
}

// planQuery runs sql and returns every row's values.
func planQuery(b *testing.B, conn *pgx.Conn, sql string) [][]any {
	rows, err := conn.Query(context.Background(), sql)
	if err != nil {
		b.Fatalf("%s: %v", sql, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
	if err != nil {
		b.Fatalf("%s: %v", sql, err)
	}
	return out
}

// planServer starts an icegate on a new Filesystem catalog over the
// warehouse dir (an empty cache) and connects to it; stop closes both.
func planServer(b *testing.B, dir string) (*pgx.Conn, func()) {
	b.Helper()
	cat, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	logger := quietLogger()
	authn, err := auth.New(nil, "", logger)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := wire.NewServer(wire.Config{
		Backend: translate.NewBackend(cat, translate.Options{Logger: logger}),
		Auth:    authn,
		Logger:  logger,
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+host+":"+port+"/icegate?sslmode=disable")
	if err != nil {
		cancel()
		b.Fatalf("connect: %v", err)
	}
	return conn, func() {
		conn.Close(context.Background())
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			b.Errorf("Serve: %v", err)
		}
	}
}

// planWarehouseOnce generates the table once per process.
var planWarehouseOnce struct {
	once sync.Once
	dir  string
	err  error
}

// planWarehouse returns a warehouse holding planTable: in
// ICEGATE_BENCH_KEEP when set (generated there only when the table is not
// there yet, and kept), else in a temporary directory removed when the
// benchmark ends (so every -count run generates it again).
func planWarehouse(b *testing.B) string {
	w := &planWarehouseOnce
	w.once.Do(func() {
		dir := os.Getenv("ICEGATE_BENCH_KEEP")
		if dir == "" {
			if w.dir, w.err = os.MkdirTemp("", "icegate-planbench-"); w.err != nil {
				return
			}
			dir = w.dir
		}
		w.err = planGenerate(b, dir)
		if w.err == nil {
			w.dir = dir
		}
	})
	if w.err != nil {
		b.Fatal(w.err)
	}
	if os.Getenv("ICEGATE_BENCH_KEEP") == "" {
		b.Cleanup(func() {
			os.RemoveAll(w.dir)
			planWarehouseOnce = struct {
				once sync.Once
				dir  string
				err  error
			}{}
		})
	}
	return w.dir
}

// planGenerate creates planTable in the warehouse dir unless it is there:
// the table through SQL, then planDays appends (catalog.Append), each of
// planFilesPerDay Parquet files written by engine/write.Writer (one Writer
// a file, so each is a file of its own with its column metrics).
func planGenerate(b *testing.B, dir string) error {
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		return err
	}
	ident := catalog.Identifier{Namespace: []string{planNamespace}, Name: "events"}
	if tbl, err := cat.LoadTable(ctx, ident); err == nil {
		if s := tbl.Metadata.CurrentSnapshot(); s != nil && s.Summary["total-data-files"] == strconv.Itoa(planDays*planFilesPerDay) {
			b.Logf("reusing %s in %s", planTable, dir)
			return nil
		}
		return fmt.Errorf("%s in %s is not the planning benchmark's table: drop it or use another ICEGATE_BENCH_KEEP", planTable, dir)
	}
	start := time.Now()
	conn, stop := planServer(b, dir)
	for _, sql := range []string{
		"CREATE SCHEMA IF NOT EXISTS " + planNamespace,
		"CREATE TABLE " + planTable + " (id bigint NOT NULL, event_date date NOT NULL, amount double precision, note text)" +
			" USING iceberg PARTITIONED BY (event_date) TBLPROPERTIES ('format-version' = '2')",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			stop()
			return fmt.Errorf("%s: %w", sql, err)
		}
	}
	stop()

	// The table's schema, spec and locations do not change between the
	// appends: one goroutine writes each day's files from the first load
	// while this one commits the days before.
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type dayFiles struct {
		files []*catalog.DataFile
		err   error
	}
	days := make(chan dayFiles, 4)
	go func() {
		defer close(days)
		first, _ := time.Parse(time.DateOnly, planFirstDay)
		epochDay := int32(first.Unix() / 86400)
		for day := 0; day < planDays; day++ {
			files := make([]*catalog.DataFile, 0, planFilesPerDay)
			for file := 0; file < planFilesPerDay; file++ {
				df, err := planWriteFile(ctx, cat, tbl, epochDay+int32(day), day, file)
				if err != nil {
					days <- dayFiles{err: fmt.Errorf("day %d file %d: %w", day, file, err)}
					return
				}
				files = append(files, df)
			}
			select {
			case days <- dayFiles{files: files}:
			case <-ctx.Done():
				return
			}
		}
	}()
	day := 0
	for d := range days {
		if d.err != nil {
			return d.err
		}
		if _, err := catalog.Append(ctx, cat, ident, d.files, nil); err != nil {
			return fmt.Errorf("append day %d: %w", day, err)
		}
		day++
	}
	if day != planDays {
		return fmt.Errorf("generated %d days of %d", day, planDays)
	}
	b.Logf("generated %s in %s: %d data files in %d appends, %v", planTable, dir, planDays*planFilesPerDay, planDays, time.Since(start).Round(time.Millisecond))
	return nil
}

// planWriteFile writes the rows of one data file: planRowsPerFile rows of
// the day, ids in planID order.
func planWriteFile(ctx context.Context, cat *catalog.Filesystem, tbl *catalog.Table, date int32, day, file int) (*catalog.DataFile, error) {
	m := tbl.Metadata
	schema := m.CurrentSchema()
	out, err := cat.NewOutput(tbl)
	if err != nil {
		return nil, err
	}
	w, err := write.NewWriter(ctx, write.WriterSpec{IO: write.TableOutput(ctx, out), DataDir: write.DataDir(m),
		Schema: schema, Spec: m.SpecByID(m.DefaultSpecID), Properties: m.Properties, FormatVersion: m.FormatVersion})
	if err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, len(schema.Fields))
	for i, f := range schema.Fields {
		fields[i] = arrow.Field{Name: f.Name, Type: engine.ArrowType(f.Type), Nullable: !f.Required}
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer rb.Release()
	for row := 0; row < planRowsPerFile; row++ {
		id := planID(day, file, row)
		rb.Field(0).(*array.Int64Builder).Append(id)
		rb.Field(1).(*array.Date32Builder).Append(arrow.Date32(date))
		rb.Field(2).(*array.Float64Builder).Append(float64(id%9973) / 100)
		planAppendString(rb.Field(3), fmt.Sprintf("event %d of day %d", id, day))
	}
	batch := rb.NewRecordBatch()
	defer batch.Release()
	if err := w.Write(batch); err != nil {
		return nil, err
	}
	files, err := w.Close()
	if err != nil {
		return nil, err
	}
	if len(files) != 1 {
		return nil, fmt.Errorf("writer wrote %d files, want 1", len(files))
	}
	return files[0], nil
}

// planAppendString appends to a string column of either Arrow string type.
func planAppendString(bld array.Builder, s string) {
	switch bb := bld.(type) {
	case *array.StringBuilder:
		bb.Append(s)
	case *array.LargeStringBuilder:
		bb.Append(s)
	case *array.StringViewBuilder:
		bb.Append(s)
	}
}
