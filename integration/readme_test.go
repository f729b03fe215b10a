package integration

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/s3test"
)

// TestReadme runs the examples of README.md as a newcomer would, in order,
// and checks the answers it shows, so that the README cannot drift from
// what icegate does.
//
// The README's fenced blocks are read as follows:
//   - ```sh: the lines that start `go run ./cmd/icegate sample`, `go run
//     ./cmd/icegate serve` and `psql` run (with a freshly built binary for
//     `go run ./cmd/icegate`, and free ports for the ones written); other
//     lines (installing packages, make) do not. A psql line without -c is
//     the interactive session the SQL blocks are typed into.
//   - ```sql: the examples, run one after the other in that one psql
//     session (psql -X -v ON_ERROR_STOP=1 -f), so \gset, \copy and COPY
//     FROM STDIN work as typed; any error fails the test.
//   - ```text right after a sh or sql block: what that block prints, compared
//     line by line without trailing blanks (`in 4.1s` timings excepted).
//
// Every command runs in a temporary directory holding a link testdata to
// the repository's fixtures, as a clone's root would.
func TestReadme(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("psql is not on PATH, and CI is set: CI must install postgresql-client (see .ci/run)")
		}
		t.Skip("psql is not on PATH: install postgresql-client to run the README's examples (it fails instead when CI is set)")
	}
	root := fixtures.ModuleRoot(t)
	blocks, err := readmeBlocks(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	// The examples run against the default catalog as the README sets it
	// up (a warehouse directory), and again with an icegate.yaml that
	// makes the default catalog one on an S3-compatible server: a sql
	// catalog, and a hadoop one.
	t.Run("directory", func(t *testing.T) { runReadme(t, bin, psql, blocks, "", false) })
	t.Run("sql-directory", func(t *testing.T) { runReadme(t, bin, psql, blocks, "sql", false) })
	// And through a gateway whose default catalog is the REST catalog
	// another icegate serves over a SQL catalog.
	t.Run("rest", func(t *testing.T) { runReadme(t, bin, psql, blocks, "rest", false) })
	for _, kind := range []string{"sql", "hadoop"} {
		t.Run(kind+"-s3", func(t *testing.T) {
			if _, err := s3test.Binary(); err != nil && os.Getenv("ICEGATE_REQUIRE_S3") == "" {
				t.Skipf("no S3-compatible server to run the README on: %v", err)
			}
			runReadme(t, bin, psql, blocks, kind, true)
		})
	}
}

// runReadme runs the README's blocks in a fresh work directory; with kind
// set, the sample and servers that name no warehouse get a configuration
// that serves a catalog of that kind (on an S3-compatible server when onS3)
// as the default database.
func runReadme(t *testing.T, bin, psql string, blocks []readmeBlock, kind string, onS3 bool) {
	work := t.TempDir()
	if err := os.Symlink(fixtures.Warehouse(t), filepath.Join(work, "testdata")); err != nil {
		t.Fatal(err)
	}
	r := &readmeRun{t: t, bin: bin, psql: psql, work: work, ports: map[string]string{}}
	if kind != "" {
		props := map[string]string{"warehouse": filepath.Join(t.TempDir(), "lake")}
		if onS3 {
			srv := s3test.Start(t)
			props = srv.Props()
			props["warehouse"] = srv.URI("lake")
		}
		props["type"] = kind
		switch kind {
		case "sql":
			props["uri"] = "jdbc:sqlite:" + filepath.Join(work, "catalog.db")
		case "rest":
			srv := startRESTCatalogServer(t, bin, t.TempDir())
			props = map[string]string{"type": kind, "uri": "http://" + srv.restAddr, "warehouse": "lake"}
		}
		where := props["warehouse"] // what the README shows as ./warehouse
		if kind == "rest" {
			where = props["uri"]
		}
		body := "catalogs:\n  icegate:\n"
		for _, k := range slices.Sorted(maps.Keys(props)) {
			body += fmt.Sprintf("    %s: %q\n", k, props[k])
		}
		if kind == "rest" || onS3 {
			// A REST or object-store default catalog has no local directory
			// to keep roles in: the README's roles section needs
			// roles.directory.
			body += fmt.Sprintf("roles:\n  directory: %q\n", filepath.Join(t.TempDir(), "roles"))
		}
		r.config = filepath.Join(t.TempDir(), "icegate.yaml")
		if err := os.WriteFile(r.config, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		// What the README shows of the warehouse's location.
		r.shown = map[string]string{where: "./warehouse", " --config " + r.config: ""}
	}

	var script bytes.Buffer
	var lineOf []int // README line of each script line
	var sqlBlocks []readmeBlock
	for i, b := range blocks {
		var want *readmeBlock
		if i+1 < len(blocks) && blocks[i+1].lang == "text" {
			want = &blocks[i+1]
		}
		switch b.lang {
		case "sh":
			got := r.shell(b, len(sqlBlocks) > 0)
			if want != nil {
				compareOutput(t, b.line, r.asShown(got), want)
			}
		case "sql":
			fmt.Fprintf(&script, "\\echo %s%d\n", readmeMarker, len(sqlBlocks))
			lineOf = append(lineOf, b.line)
			for j, l := range strings.SplitAfter(b.text, "\n") {
				if l == "" {
					continue
				}
				script.WriteString(l)
				lineOf = append(lineOf, b.line+1+j)
			}
			sqlBlocks = append(sqlBlocks, b)
		}
	}
	if len(sqlBlocks) == 0 {
		t.Fatal("README.md has no ```sql blocks")
	}
	if r.session == nil {
		t.Fatal("README.md has no psql line (without -c) to type the SQL examples into")
	}

	file := filepath.Join(t.TempDir(), "readme.sql")
	if err := os.WriteFile(file, script.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{"-X", "-v", "ON_ERROR_STOP=1"}, r.session...), "-f", file)
	stdout, stderr, err := r.run(r.psql, args...)
	if err != nil {
		// psql:<file>:<line>: ERROR: ... names the script line; say which
		// README line that is.
		at := regexp.MustCompile(`psql:[^:]*:(\d+):`)
		msg := at.ReplaceAllStringFunc(stderr, func(m string) string {
			n, _ := strconv.Atoi(at.FindStringSubmatch(m)[1])
			if n >= 1 && n <= len(lineOf) {
				return fmt.Sprintf("README.md:%d:", lineOf[n-1])
			}
			return m
		})
		t.Fatalf("the SQL examples fail (psql %v):\n%s", err, msg)
	}
	outputs := strings.Split(stdout, readmeMarker)
	if len(outputs) != len(sqlBlocks)+1 {
		t.Fatalf("psql printed %d block markers, want %d:\n%s", len(outputs)-1, len(sqlBlocks), stdout)
	}
	for i, b := range blocks {
		if b.lang != "sql" || i+1 >= len(blocks) || blocks[i+1].lang != "text" {
			continue
		}
		k := indexOfBlock(sqlBlocks, b)
		out := outputs[k+1]
		out = out[strings.IndexByte(out, '\n')+1:] // the marker's number
		compareOutput(t, b.line, r.asShown(out), &blocks[i+1])
	}
}

// readmeMarker starts the line psql echoes before each SQL block's output.
const readmeMarker = "@@readme-block-"

// readmeBlock is one fenced block of the README.
type readmeBlock struct {
	lang string
	text string
	line int // of the opening fence, 1-based
}

// readmeBlocks returns the fenced blocks of the Markdown file path.
func readmeBlocks(path string) ([]readmeBlock, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var blocks []readmeBlock
	var cur *readmeBlock
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{lang: strings.TrimSpace(strings.TrimPrefix(line, "```")), line: n}
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: fence not closed", path, cur.line)
	}
	return blocks, sc.Err()
}

func indexOfBlock(blocks []readmeBlock, b readmeBlock) int {
	for i := range blocks {
		if blocks[i].line == b.line {
			return i
		}
	}
	return -1
}

// compareOutput compares what a block printed with the text block want,
// line by line without trailing blanks; a sample run's duration is
// masked.
func compareOutput(t *testing.T, line int, got string, want *readmeBlock) {
	t.Helper()
	norm := func(s string) string {
		s = regexp.MustCompile(`in \d+(\.\d+)?s\.`).ReplaceAllString(s, "in Xs.")
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " \t")
		}
		return strings.TrimRight(strings.Join(lines, "\n"), "\n")
	}
	if g, w := norm(got), norm(want.text); g != w {
		t.Errorf("README.md:%d: the block prints\n%s\nbut README.md:%d shows\n%s", line, g, want.line, w)
	}
}

// readmeRun is the state of a README run: the servers started and the
// psql session.
type readmeRun struct {
	t         *testing.T
	bin, psql string
	work      string
	ports     map[string]string // port written in the README -> address served
	session   []string          // psql arguments of the interactive session
	shown     map[string]string // text printed -> as the README shows it
	config    string            // --config for commands that name no warehouse
}

// withConfig adds --config to icegate's arguments when the run has a
// configuration and they name no warehouse.
func (r *readmeRun) withConfig(args []string) []string {
	if r.config == "" || slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--warehouse") || strings.HasPrefix(a, "--config") }) {
		return args
	}
	return append(slices.Clone(args), "--config", r.config)
}

// asShown rewrites what a run printed as the README shows it.
func (r *readmeRun) asShown(s string) string {
	for from, to := range r.shown {
		s = strings.ReplaceAll(s, from, to)
	}
	return s
}

const goRunIcegate = "go run ./cmd/icegate "

// shell runs the runnable lines of a sh block and returns what they
// printed (stdout). The SQL examples run at the end, so once one has been
// seen (afterSQL) a line may not write the warehouse or use the session's
// server: it would run before the examples above it.
func (r *readmeRun) shell(b readmeBlock, afterSQL bool) string {
	t := r.t
	var out strings.Builder
	for j, l := range strings.Split(b.text, "\n") {
		l = strings.TrimSpace(l)
		at := fmt.Sprintf("README.md:%d", b.line+1+j)
		switch {
		case strings.HasPrefix(l, goRunIcegate+"sample"):
			if afterSQL {
				t.Fatalf("%s: icegate sample after the first SQL example: the SQL examples run as one psql session at the end; move it up or teach TestReadme", at)
			}
			stdout, stderr, err := r.run(r.bin, r.withConfig(strings.Fields(strings.TrimPrefix(l, goRunIcegate)))...)
			if err != nil {
				t.Fatalf("%s: %s: %v\n%s%s", at, l, err, stdout, stderr)
			}
			out.WriteString(stdout)
		case strings.HasPrefix(l, goRunIcegate+"serve"):
			r.serve(at, r.withConfig(strings.Fields(strings.TrimPrefix(l, goRunIcegate))))
		case strings.HasPrefix(l, "psql "):
			args, err := shellWords(strings.TrimPrefix(l, "psql "))
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			args = r.mapPsqlArgs(at, args)
			if !hasAny(args, "-c", "-f", "--command", "--file") {
				if afterSQL {
					t.Fatalf("%s: a second psql session after the SQL examples began; teach TestReadme", at)
				}
				r.session = args
				continue
			}
			if afterSQL && r.session != nil && args[3] == r.session[3] {
				t.Fatalf("%s: psql -c on the session's server after the first SQL example: the SQL examples run at the end; move it up or teach TestReadme", at)
			}
			stdout, stderr, err := r.run(r.psql, append([]string{"-X", "-v", "ON_ERROR_STOP=1"}, args...)...)
			if err != nil {
				t.Fatalf("%s: %s: %v\n%s%s", at, l, err, stdout, stderr)
			}
			out.WriteString(stdout)
		case l != "":
			t.Logf("%s: not run: %s", at, l)
		}
	}
	return out.String()
}

// serve starts `icegate serve` with args in the work directory, on a free
// port instead of the one written (default 127.0.0.1:5433).
func (r *readmeRun) serve(at string, args []string) {
	t := r.t
	written := "127.0.0.1:5433"
	var rest []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--listen" && i+1 < len(args):
			written = args[i+1]
			i++
		case strings.HasPrefix(args[i], "--listen="):
			written = strings.TrimPrefix(args[i], "--listen=")
		default:
			rest = append(rest, args[i])
		}
	}
	_, port, err := net.SplitHostPort(written)
	if err != nil {
		t.Fatalf("%s: listen address %q: %v", at, written, err)
	}
	addr := freeAddr(t)
	cmd := exec.Command(r.bin, append(rest, "--listen", addr)...)
	cmd.Dir = r.work
	cmd.Env = cleanEnv()
	var logs readmeLog
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("%s: icegate serve exited with %v after SIGINT\n%s", at, err, logs.String())
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("%s: icegate serve did not stop within 10s of SIGINT\n%s", at, logs.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("%s: icegate serve exited before accepting connections: %v\n%s", at, err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: icegate serve not accepting on %s after 30s\n%s", at, addr, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.ports[port] = addr
}

// mapPsqlArgs points -h/-p at the server started for the port written.
func (r *readmeRun) mapPsqlArgs(at string, args []string) []string {
	port := "5432"
	var out []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-h", "--host":
			i++
		case "-p", "--port":
			if i+1 < len(args) {
				port = args[i+1]
			}
			i++
		default:
			out = append(out, args[i])
		}
	}
	addr, ok := r.ports[port]
	if !ok {
		r.t.Fatalf("%s: psql connects to port %s, which no `icegate serve` line above serves", at, port)
	}
	host, p, _ := net.SplitHostPort(addr)
	return append([]string{"-h", host, "-p", p}, out...)
}

// run runs a command in the work directory with the test's clean
// environment and returns its stdout and stderr.
func (r *readmeRun) run(name string, args ...string) (string, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = r.work
	cmd.Env = append(cleanEnv(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable", "PGAPPNAME=icegate-readme")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// shellWords splits a command line as sh would for the README's simple
// commands: blanks separate words; '...' and "..." quote.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated %c quote in %q", c, s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\' || c == '$' || c == '`' || c == '|' || c == ';' || c == '&' || c == '<' || c == '>':
			return nil, fmt.Errorf("%q: shell syntax beyond words and quotes; teach TestReadme", s)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func hasAny(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f || strings.HasPrefix(a, f+"=") {
				return true
			}
		}
	}
	return false
}

// readmeLog collects a server's output from its two streams.
type readmeLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *readmeLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *readmeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
