package translate

import (
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// runAll runs sql to its end and returns its error.
func runAll(s *session, sql string) error {
	return runAllCtx(context.Background(), s, sql)
}

// runAllCtx is runAll under ctx: it prepares sql in s, executes every
// statement and drains its rows; an error fails the statement, as wire
// does.
func runAllCtx(ctx context.Context, s *session, sql string) error {
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		s.StatementFailed(err)
		return err
	}
	for _, st := range stmts {
		rows, err := st.Execute(ctx, nil)
		if err != nil {
			s.StatementFailed(err)
			return err
		}
		for {
			b, err := rows.Next(ctx)
			if err != nil {
				rows.Close()
				s.StatementFailed(err)
				return err
			}
			if b == nil {
				break
			}
		}
		if err := rows.Close(); err != nil {
			s.StatementFailed(err)
			return err
		}
	}
	return nil
}

// trustWarehouse is a warehouse in a temp dir (dir/wh) holding ns.t with
// two rows and ns.u, and a directory outside it (dir/outside) holding a
// copy of t's data file.
type trustWarehouse struct {
	dir, wh, table string
	data, manifest string // t's data file and manifest
	list, current  string // t's manifest list and current metadata file
	outside        string // the copy of the data file outside the warehouse
}

func newTrustWarehouse(t *testing.T) *trustWarehouse {
	t.Helper()
	dir := t.TempDir()
	w := &trustWarehouse{dir: dir, wh: filepath.Join(dir, "wh")}
	cat, err := catalog.NewFilesystem("icegate", w.wh, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (a int, b text)", "INSERT INTO ns.t VALUES (1, 'x'), (2, 'y')",
		"CREATE TABLE ns.u (a int)", "INSERT INTO ns.u VALUES (7)"} {
		if err := runAll(s.(*session), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	w.table = filepath.Join(w.wh, "ns", "t")
	one := func(pattern string) string {
		m, _ := filepath.Glob(filepath.Join(w.table, pattern))
		if len(m) != 1 {
			t.Fatalf("%s: %v", pattern, m)
		}
		return m[0]
	}
	w.data, w.manifest, w.list = one("data/*.parquet"), one("metadata/*-m0.avro"), one("metadata/snap-*.avro")
	w.current = one("metadata/v2.metadata.json")
	w.outside = filepath.Join(dir, "outside", "x.parquet")
	if err := os.MkdirAll(filepath.Dir(w.outside), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, w.data, w.outside)
	return w
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// session is a fresh session over the warehouse (nothing cached).
func (w *trustWarehouse) session(t *testing.T) (*session, *catalog.Filesystem) {
	t.Helper()
	cat, err := catalog.NewFilesystem("icegate", w.wh, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*session), cat
}

// editMetadata replaces old by new in t's current metadata file.
func (w *trustWarehouse) editMetadata(t *testing.T, old, new string) {
	t.Helper()
	b, err := os.ReadFile(w.current)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("metadata has no %q", old)
	}
	if err := os.WriteFile(w.current, []byte(strings.ReplaceAll(string(b), old, new)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commitDataFile commits t's data file again under another written path.
func (w *trustWarehouse) commitDataFile(t *testing.T, path string) {
	t.Helper()
	_, cat := w.session(t)
	ctx := context.Background()
	id := catalog.Identifier{Namespace: []string{"ns"}, Name: "t"}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil || len(tasks) != 1 {
		t.Fatalf("plan: %v %v", tasks, err)
	}
	df := *tasks[0].File
	df.Path = path
	if _, err := catalog.Append(ctx, cat, id, []*catalog.DataFile{&df}, nil); err != nil {
		t.Fatal(err)
	}
}

// checkFileError checks that err has SQLSTATE code and a message that
// names want and shows no absolute path of the warehouse.
func checkFileError(t *testing.T, what string, err error, code, want, root string) {
	t.Helper()
	pe := pgerr.As(err)
	if pe == nil {
		t.Errorf("%s: error %v, want SQLSTATE %s", what, err, code)
		return
	}
	if pe.Code != code || !strings.Contains(pe.Message, want) || strings.Contains(pe.Message+pe.Detail, root) ||
		strings.Contains(pe.Message, "root:") {
		t.Errorf("%s: %s %q (detail %q), want %s naming %q and no path under %s", what, pe.Code, pe.Message, pe.Detail, code, want, root)
	}
}

// TestFilesOutsideWarehouse: paths written in a table's metadata never
// lead out of the warehouse: ".." is refused with 42501 naming the path,
// an absolute path elsewhere resolves by its tail inside the table (and
// is missing there), symbolic links that lead outside are refused.
func TestFilesOutsideWarehouse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, w *trustWarehouse)
		code  string
		want  string
	}{
		{"manifest list with ..", func(t *testing.T, w *trustWarehouse) {
			w.editMetadata(t, w.list, "../../../../../../../../../../etc/passwd")
		}, pgerr.InsufficientPrivilege, "../../../../../../../../../../etc/passwd"},
		{"manifest list under the table with ..", func(t *testing.T, w *trustWarehouse) {
			w.editMetadata(t, w.list, w.table+"/metadata/../../../../outside/x.parquet")
		}, pgerr.InsufficientPrivilege, "leaves the warehouse"},
		{"manifest list /etc/passwd", func(t *testing.T, w *trustWarehouse) {
			w.editMetadata(t, w.list, "/etc/passwd")
		}, pgerr.UndefinedFile, `"/etc/passwd"`},
		{"data file with ..", func(t *testing.T, w *trustWarehouse) {
			w.commitDataFile(t, w.table+"/data/../../../../outside/x.parquet")
		}, pgerr.InsufficientPrivilege, `"data/../../../../outside/x.parquet"`},
		{"data file relative with ..", func(t *testing.T, w *trustWarehouse) {
			w.commitDataFile(t, "../../../outside/x.parquet")
		}, pgerr.InsufficientPrivilege, "../../../outside/x.parquet"},
		{"data file absolute outside", func(t *testing.T, w *trustWarehouse) {
			w.commitDataFile(t, w.outside)
		}, pgerr.UndefinedFile, "x.parquet"},
		{"data file is a symbolic link out", func(t *testing.T, w *trustWarehouse) {
			if err := os.Symlink(w.outside, filepath.Join(w.table, "data", "evil.parquet")); err != nil {
				t.Fatal(err)
			}
			w.commitDataFile(t, w.table+"/data/evil.parquet")
		}, pgerr.InsufficientPrivilege, "evil.parquet"},
		{"data directory is a symbolic link out", func(t *testing.T, w *trustWarehouse) {
			if err := os.Symlink(filepath.Dir(w.outside), filepath.Join(w.table, "data", "sub")); err != nil {
				t.Fatal(err)
			}
			w.commitDataFile(t, w.table+"/data/sub/x.parquet")
		}, pgerr.InsufficientPrivilege, "sub/x.parquet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newTrustWarehouse(t)
			tc.setup(t, w)
			s, _ := w.session(t)
			checkFileError(t, "SELECT", runAll(s, "SELECT * FROM ns.t"), tc.code, tc.want, w.wh)
			if err := runAll(s, "SELECT * FROM ns.u"); err != nil {
				t.Errorf("other table: %v", err)
			}
		})
	}
}

// TestFilesOutsideWarehouseKeepsLinksInside: a symbolic link that stays
// inside the warehouse is followed.
func TestFilesOutsideWarehouseKeepsLinksInside(t *testing.T) {
	w := newTrustWarehouse(t)
	inside := filepath.Join(w.wh, "shared")
	if err := os.Mkdir(inside, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, w.data, filepath.Join(inside, "y.parquet"))
	if err := os.Symlink(filepath.Join(inside, "y.parquet"), filepath.Join(w.table, "data", "ok.parquet")); err != nil {
		t.Fatal(err)
	}
	w.commitDataFile(t, w.table+"/data/ok.parquet")
	s, _ := w.session(t)
	if err := runAll(s, "SELECT * FROM ns.t"); err != nil {
		t.Fatal(err)
	}
}

// TestCorruptFiles: a table file that is missing, truncated, garbled or a
// directory answers 58P01 / XX001 / 58030 naming the file relative to the
// table and the table, for reads and writes (never 40001 or a retry
// loop), and the other tables keep answering.
func TestCorruptFiles(t *testing.T) {
	truncate := func(path string) func(t *testing.T, w *trustWarehouse) {
		return func(t *testing.T, w *trustWarehouse) {
			if err := os.Truncate(path, 20); err != nil {
				t.Fatal(err)
			}
		}
	}
	garble := func(pick func(w *trustWarehouse) string) func(t *testing.T, w *trustWarehouse) {
		return func(t *testing.T, w *trustWarehouse) {
			p := pick(w)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for i := 4; i < len(b)-8; i++ {
				b[i] ^= 0x5a
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func(pick func(w *trustWarehouse) string) func(t *testing.T, w *trustWarehouse) {
		return func(t *testing.T, w *trustWarehouse) {
			if err := os.Remove(pick(w)); err != nil {
				t.Fatal(err)
			}
		}
	}
	data := func(w *trustWarehouse) string { return w.data }
	manifest := func(w *trustWarehouse) string { return w.manifest }
	list := func(w *trustWarehouse) string { return w.list }
	current := func(w *trustWarehouse) string { return w.current }
	rel := func(w *trustWarehouse, p string) string {
		r, _ := filepath.Rel(w.table, p)
		return `"` + filepath.ToSlash(r) + `" of table "ns.t"`
	}
	for _, tc := range []struct {
		name        string
		pick        func(w *trustWarehouse) string
		setup       func(t *testing.T, w *trustWarehouse)
		read, write string // SQLSTATEs of SELECT and INSERT ("" = succeeds)
	}{
		{"data file truncated", data, nil, pgerr.DataCorrupted, ""},
		{"data file garbled", data, nil, pgerr.DataCorrupted, ""},
		{"data file missing", data, nil, pgerr.UndefinedFile, ""},
		// An INSERT reads the manifests that could list the file it adds
		// (no commit adds a file already live), so it meets the broken one.
		{"manifest truncated", manifest, nil, pgerr.DataCorrupted, pgerr.DataCorrupted},
		{"manifest missing", manifest, nil, pgerr.UndefinedFile, pgerr.UndefinedFile},
		{"manifest list truncated", list, nil, pgerr.DataCorrupted, pgerr.DataCorrupted},
		{"manifest list missing", list, nil, pgerr.UndefinedFile, pgerr.UndefinedFile},
		{"metadata file garbled", current, nil, pgerr.DataCorrupted, pgerr.DataCorrupted},
		{"metadata file truncated", current, nil, pgerr.DataCorrupted, pgerr.DataCorrupted},
		{"metadata file is a directory", current, func(t *testing.T, w *trustWarehouse) {
			if err := os.Remove(w.current); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(w.current, 0o755); err != nil {
				t.Fatal(err)
			}
		}, pgerr.IOError, pgerr.IOError},
		{"next metadata file is a directory", func(w *trustWarehouse) string { return filepath.Join(filepath.Dir(w.current), "v3.metadata.json") },
			func(t *testing.T, w *trustWarehouse) {
				if err := os.Mkdir(filepath.Join(filepath.Dir(w.current), "v3.metadata.json"), 0o755); err != nil {
					t.Fatal(err)
				}
			}, pgerr.IOError, pgerr.IOError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newTrustWarehouse(t)
			setup := tc.setup
			if setup == nil {
				switch {
				case strings.Contains(tc.name, "truncated"):
					setup = truncate(tc.pick(w))
				case strings.Contains(tc.name, "garbled"):
					setup = garble(tc.pick)
				default:
					setup = remove(tc.pick)
				}
			}
			setup(t, w)
			want := rel(w, tc.pick(w))
			s, _ := w.session(t)
			for _, q := range []struct{ sql, code string }{{"SELECT * FROM ns.t", tc.read}, {"INSERT INTO ns.t VALUES (3, 'z')", tc.write}} {
				err := runAll(s, q.sql)
				if q.code == "" {
					if err != nil {
						t.Errorf("%s: %v", q.sql, err)
					}
					continue
				}
				checkFileError(t, q.sql, err, q.code, want, w.wh)
			}
			if err := runAll(s, "SELECT * FROM ns.u"); err != nil {
				t.Errorf("other table: %v", err)
			}
			if err := runAll(s, "INSERT INTO ns.u VALUES (8)"); err != nil {
				t.Errorf("other table: %v", err)
			}
		})
	}
}

// TestCorruptFixtureFiles: the same for files of other formats, in copies
// of fixture tables: ORC and Avro data files, Puffin deletion vectors.
func TestCorruptFixtureFiles(t *testing.T) {
	for _, tc := range []struct {
		table, file string
	}{
		{"impala__airports_orc", "000000_0"},
		{"impala__iceberg_avro_only", "data/00000-0-data-noemi_20221021195331_77fbb37f-2393-4a66-9656-61cd56b94b46-job_16629766502890_0015-1-00001.avro"},
		{"impala__iceberg_v3_deletion_vectors", "data/00000-9-08e88179-85b6-4635-8b34-94b49abc87d9-00001-deletes.puffin"},
	} {
		for _, how := range []string{"truncated", "missing"} {
			t.Run(tc.table+" "+how, func(t *testing.T) {
				wh := t.TempDir()
				dst := filepath.Join(wh, "fx", tc.table)
				copyTree(t, filepath.Join(fixturesRoot(t), "iceberg", tc.table), dst)
				target := filepath.Join(dst, filepath.FromSlash(tc.file))
				var err error
				code := pgerr.DataCorrupted
				if how == "truncated" {
					err = os.Truncate(target, 9)
				} else {
					err, code = os.Remove(target), pgerr.UndefinedFile
				}
				if err != nil {
					t.Fatal(err)
				}
				cat, err := catalog.NewFilesystem("icegate", wh, nil)
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
				if err != nil {
					t.Fatal(err)
				}
				err = runAll(s.(*session), "SELECT * FROM fx."+tc.table)
				// A missing file that no directory of the table matches is
				// named as its metadata writes it.
				checkFileError(t, "SELECT", err, code, path.Base(tc.file)+`" of table "fx.`+tc.table+`"`, wh)
			})
		}
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// failingSyncer fails every file sync with err.
type failingSyncer struct{ err error }

func (f failingSyncer) SyncFile(*os.File) error { return f.err }
func (f failingSyncer) SyncDir(string) error    { return nil }

// TestWriteErrorsNameRelativePaths: a write that fails (a directory of the
// table that is not one, a failing fsync, a full disk) answers with its
// SQLSTATE and names files relative to the table or the warehouse, never
// by the server's absolute path; the table is left as it was.
func TestWriteErrorsNameRelativePaths(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, w *trustWarehouse, cat *catalog.Filesystem)
		code  string
		want  string
	}{
		{"data directory is a file", func(t *testing.T, w *trustWarehouse, _ *catalog.Filesystem) {
			data := filepath.Join(w.table, "data")
			if err := os.RemoveAll(data); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(data, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}, pgerr.IOError, "ns/t/data"},
		{"fsync fails", func(t *testing.T, w *trustWarehouse, cat *catalog.Filesystem) {
			cat.SetSyncer(failingSyncer{syscall.EIO})
		}, pgerr.IOError, `of table "ns.t": input/output error`},
		{"disk full", func(t *testing.T, w *trustWarehouse, cat *catalog.Filesystem) {
			cat.SetSyncer(failingSyncer{syscall.ENOSPC})
		}, pgerr.DiskFull, `could not fsync file "data/`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newTrustWarehouse(t)
			s, cat := w.session(t)
			tc.setup(t, w, cat)
			checkFileError(t, "INSERT", runAll(s, "INSERT INTO ns.t VALUES (3, 'z')"), tc.code, tc.want, w.wh)
			if err := runAll(s, "SELECT * FROM ns.u"); err != nil {
				t.Errorf("another table does not read after the failed write: %v", err)
			}
		})
	}
}
