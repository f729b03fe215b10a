package oracle

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/view"
	"github.com/jackc/pgx/v5"
)

// restUserEntry is the users: entry icegate user add prints for user and
// password.
func restUserEntry(t *testing.T, user, password string) string {
	t.Helper()
	cmd := exec.Command(icegateBinary(t), "user", "add", user, "--password-stdin")
	cmd.Stdin = strings.NewReader(password + "\n")
	cmd.Env = cleanEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("icegate user add: %v", err)
	}
	return string(out)
}

// waitPort waits until something accepts on 127.0.0.1:port.
func waitPort(t *testing.T, port int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing accepts on port %d: %v", port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// connectAs is connectTo with a password login.
func connectAs(ctx context.Context, t *testing.T, port int, db, user, password string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=127.0.0.1 port=%d dbname=%s sslmode=disable connect_timeout=10", port, db))
	if err != nil {
		t.Fatal(err)
	}
	cfg.User, cfg.Password = user, password
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	cfg.RuntimeParams["TimeZone"] = "UTC"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect to icegate as %s: %v", user, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// appendIDs appends rows (id, note) to tbl, a table of a bigint id and a
// text note, and returns the table after the commit.
func appendIDs(ctx context.Context, tbl *table.Table, note string, ids ...int64) (*table.Table, error) {
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
	if err != nil {
		return nil, err
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for _, id := range ids {
		b.Field(0).(*array.Int64Builder).Append(id)
		b.Field(1).(*array.StringBuilder).Append(note)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	at := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
	defer at.Release()
	return tbl.AppendTable(ctx, at, int64(len(ids)), nil)
}

func pgIDs(ctx context.Context, t *testing.T, conn *pgx.Conn, sql string) []int64 {
	t.Helper()
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return ids
}

// TestRESTCatalog serves two catalogs with `icegate serve --rest-listen`
// and logins, and uses them with iceberg-go's REST catalog beside pgx on
// the PostgreSQL port: each sees the other's writes, and racing appends
// behave as the protocol says (a stale commit is 409 CommitFailed, which
// iceberg-go retries when the table allows retries).
func TestRESTCatalog(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	lake, sea := filepath.Join(dir, "lake"), filepath.Join(dir, "sea")
	const user, password = "ann", "rest pass 1"
	config := filepath.Join(dir, "icegate.yaml")
	body := fmt.Sprintf("catalogs:\n  lake:\n    type: hadoop\n    warehouse: %s\n  sea:\n    type: hadoop\n    warehouse: %s\nusers:\n%s",
		lake, sea, restUserEntry(t, user, password))
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	restPort := freePort(t)
	port := startIcegateEnv(t, nil, "--config", config, "--rest-listen", fmt.Sprintf("127.0.0.1:%d", restPort))
	waitPort(t, restPort)
	uri := fmt.Sprintf("http://127.0.0.1:%d", restPort)
	open := func(t *testing.T, warehouse, credential string) (*rest.Catalog, error) {
		t.Helper()
		return rest.NewCatalog(ctx, warehouse, uri, rest.WithCredential(credential), rest.WithWarehouseLocation(warehouse))
	}
	cat, err := open(t, "lake", user+":"+password)
	if err != nil {
		t.Fatalf("iceberg-go REST catalog: %v", err)
	}
	defer cat.Close()
	conn := connectAs(ctx, t, port, "lake", user, password)

	t.Run("a wrong password is refused", func(t *testing.T) {
		c, err := open(t, "lake", user+":not the password")
		if err == nil {
			_, err = c.ListNamespaces(ctx, nil)
			c.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "invalid_client") {
			t.Fatalf("iceberg-go with a wrong password: %v, want the token endpoint's invalid_client", err)
		}
	})

	if err := cat.CreateNamespace(ctx, table.Identifier{"rest"}, nil); err != nil {
		t.Fatalf("create namespace: %v", err)
	}

	compare := func(t *testing.T, ident table.Identifier) {
		t.Helper()
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatalf("iceberg-go load %v: %v", ident, err)
		}
		wantCols, want, err := scanTable(ctx, tbl)
		if err != nil {
			t.Fatalf("iceberg-go scan: %v", err)
		}
		gotCols, got, err := queryText(ctx, conn, fmt.Sprintf("SELECT * FROM %s.%s", ident[0], ident[1]))
		if err != nil {
			t.Fatalf("icegate: %v", err)
		}
		if !slices.Equal(gotCols, wantCols) {
			t.Fatalf("icegate columns %v, iceberg-go columns %v", gotCols, wantCols)
		}
		if len(want) == 0 {
			t.Fatalf("%v: no rows; the comparison checks nothing", ident)
		}
		for _, d := range diffRows(wantCols, got, want) {
			t.Errorf("%v: %s", ident, d)
		}
	}

	t.Run("iceberg-go writes over REST, icegate reads", func(t *testing.T) {
		if err := writeTable(ctx, cat, table.Identifier{"rest", "types"}, typesTable()); err != nil {
			t.Fatalf("iceberg-go writing over REST: %v", err)
		}
		compare(t, table.Identifier{"rest", "types"})
	})

	t.Run("icegate writes, iceberg-go reads over REST", func(t *testing.T) {
		for _, q := range []string{
			"CREATE TABLE rest.from_icegate (id bigint, note text)",
			"INSERT INTO rest.from_icegate VALUES (1, 'one'), (2, NULL)",
		} {
			if _, err := conn.Exec(ctx, q); err != nil {
				t.Fatalf("icegate %s: %v", q, err)
			}
		}
		compare(t, table.Identifier{"rest", "from_icegate"})
		// iceberg-go appends on icegate's commit, and icegate's next
		// statement sees it.
		tbl, err := cat.LoadTable(ctx, table.Identifier{"rest", "from_icegate"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := appendIDs(ctx, tbl, "from go", 3); err != nil {
			t.Fatalf("iceberg-go append: %v", err)
		}
		if ids := pgIDs(ctx, t, conn, "SELECT id FROM rest.from_icegate ORDER BY id"); !slices.Equal(ids, []int64{1, 2, 3}) {
			t.Fatalf("icegate after iceberg-go's append: ids %v, want [1 2 3]", ids)
		}
		if _, err := conn.Exec(ctx, "INSERT INTO rest.from_icegate VALUES (4, 'four')"); err != nil {
			t.Fatal(err)
		}
		compare(t, table.Identifier{"rest", "from_icegate"})
	})

	t.Run("a stale append is refused with CommitFailed", func(t *testing.T) {
		if _, err := conn.Exec(ctx, "CREATE TABLE rest.race (id bigint, note text)"); err != nil {
			t.Fatal(err)
		}
		ident := table.Identifier{"rest", "race"}
		a, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatal(err)
		}
		b, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := appendIDs(ctx, a, "a", 1); err != nil {
			t.Fatalf("first append: %v", err)
		}
		// b still holds the table before a's commit: the table has no
		// commit retries (iceberg-go's default), so the server's 409
		// CommitFailedException reaches the caller.
		_, err = appendIDs(ctx, b, "b", 2)
		if !errors.Is(err, table.ErrCommitFailed) {
			t.Fatalf("stale append: %v, want an error wrapping table.ErrCommitFailed (409 CommitFailedException)", err)
		}
		if ids := pgIDs(ctx, t, conn, "SELECT id FROM rest.race ORDER BY id"); !slices.Equal(ids, []int64{1}) {
			t.Fatalf("after the refused append: ids %v, want [1]", ids)
		}
	})

	t.Run("racing appends with retries both land", func(t *testing.T) {
		ident := table.Identifier{"rest", "race_retry"}
		sc := iceberg.NewSchema(0,
			iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64},
			iceberg.NestedField{ID: 2, Name: "note", Type: iceberg.PrimitiveTypes.String})
		if _, err := cat.CreateTable(ctx, ident, sc, catalog.WithProperties(iceberg.Properties{table.CommitNumRetriesKey: "10"})); err != nil {
			t.Fatal(err)
		}
		const writers, each = 4, 3
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					tbl, err := cat.LoadTable(ctx, ident)
					if err != nil {
						errs[w] = err
						return
					}
					if _, err := appendIDs(ctx, tbl, fmt.Sprint("w", w), int64(w*100+i)); err != nil {
						errs[w] = fmt.Errorf("writer %d append %d: %w", w, i, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		var want []int64
		for w := range writers {
			for i := range each {
				want = append(want, int64(w*100+i))
			}
		}
		if ids := pgIDs(ctx, t, conn, "SELECT id FROM rest.race_retry ORDER BY id"); !slices.Equal(ids, want) {
			t.Fatalf("ids %v, want %v", ids, want)
		}
	})

	t.Run("a view created by iceberg-go", func(t *testing.T) {
		ident := table.Identifier{"rest", "small_ids"}
		sc := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: false})
		v, err := view.NewVersionFromSQL(1, 0, "SELECT id FROM rest.from_icegate WHERE id < 3", table.Identifier{"rest"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.CreateView(ctx, ident, v, sc); err != nil {
			t.Fatalf("create view: %v", err)
		}
		loaded, err := cat.LoadView(ctx, ident)
		if err != nil {
			t.Fatalf("load view: %v", err)
		}
		if reps := loaded.CurrentVersion().Representations; len(reps) != 1 || reps[0].Sql != "SELECT id FROM rest.from_icegate WHERE id < 3" {
			t.Fatalf("loaded view representations %+v", reps)
		}
		if ids := pgIDs(ctx, t, conn, "SELECT id FROM rest.small_ids ORDER BY id"); !slices.Equal(ids, []int64{1, 2}) {
			t.Fatalf("icegate reads the view: ids %v, want [1 2]", ids)
		}
	})

	t.Run("the second catalog by warehouse", func(t *testing.T) {
		c, err := open(t, "sea", user+":"+password)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.CreateNamespace(ctx, table.Identifier{"deep"}, nil); err != nil {
			t.Fatal(err)
		}
		ns, err := c.ListNamespaces(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(ns) != 1 || !slices.Equal(ns[0], table.Identifier{"deep"}) {
			t.Fatalf("sea's namespaces %v, want [deep] alone", ns)
		}
		seaConn := connectAs(ctx, t, port, "sea", user, password)
		var n int
		if err := seaConn.QueryRow(ctx, "SELECT count(*) FROM information_schema.schemata WHERE schema_name = 'deep'").Scan(&n); err != nil || n != 1 {
			t.Fatalf("icegate's sea database lists schema deep %d times, %v", n, err)
		}
		if _, err := os.Stat(filepath.Join(sea, "deep")); err != nil {
			t.Fatalf("the namespace is not in sea's warehouse: %v", err)
		}
		if _, err := os.Stat(filepath.Join(lake, "deep")); err == nil {
			t.Fatal("the namespace of sea landed in lake's warehouse")
		}
	})
}
