package translate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreateTableLocationForms: the table's own directory (as a path or a
// file: URI) is honoured; another directory of the warehouse is 0A000;
// one outside it, object storage included, is 42501 with the reason.
func TestCreateTableLocationForms(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, `CREATE SCHEMA db`)
	for _, c := range []struct{ sql, want string }{
		{`CREATE TABLE db.a (id int) LOCATION '` + filepath.Join(dir, "db", "a") + `'`, "CREATE TABLE"},
		{`CREATE TABLE db.b (id int) USING iceberg LOCATION 'file://` + filepath.Join(dir, "db", "b") + `/'`, "CREATE TABLE"},
		{`CREATE TABLE db.c (id int) USING iceberg LOCATION '` + filepath.Join(dir, "elsewhere") + `'`, "error (0A000)"},
		{`CREATE TABLE db.d (id int) USING iceberg LOCATION '/tmp'`, "error (42501)"},
		{`CREATE TABLE db.e (id int) USING iceberg LOCATION 'gs://bucket/e'`, "error (42501)"},
	} {
		if got := statementOutput(s, c.sql); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s, want %s", c.sql, got, c.want)
		}
	}
	run(t, s, `INSERT INTO db.b VALUES (1)`)
	if got := queryRows(t, s, `SELECT count(*) FROM db.b`); got[0] != "1" {
		t.Errorf("db.b has %v rows", got)
	}
	stmts, err := s.Prepare(context.Background(), `CREATE TABLE db.f (id int) USING iceberg LOCATION 's3://bucket/f'`, nil)
	if err == nil {
		_, err = stmts[0].Execute(context.Background(), nil)
	}
	if pe := pgerrAs(err); pe == nil || !strings.Contains(pe.Detail, "Object storage (s3://) is not supported yet") {
		t.Errorf("s3 location: %v, detail %+v", err, pe)
	}
}

// TestCreateTableLocationThroughLink: the table's own directory named
// through a symbolic link to the warehouse is the table's directory.
func TestCreateTableLocationThroughLink(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, `CREATE SCHEMA db`)
	link := filepath.Join(t.TempDir(), "wh")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	run(t, s, `CREATE TABLE db.a (id int) USING iceberg LOCATION '`+filepath.Join(link, "db", "a")+`'`)
	run(t, s, `INSERT INTO db.a VALUES (1)`)
	if got := queryRows(t, s, `SELECT count(*) FROM db.a`); got[0] != "1" {
		t.Errorf("db.a has %v rows", got)
	}
	if got := statementOutput(s, `CREATE TABLE db.b (id int) USING iceberg LOCATION '`+filepath.Join(link, "elsewhere")+`'`); !strings.HasPrefix(got, "error (0A000)") {
		t.Errorf("another directory of the warehouse through the link: %s", got)
	}
}
