package integration

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// An answers file holds blocks of expected results, each introduced by a
// "## " line that says which query and which snapshot it is for. Four
// formats exist, told apart by the file's header comment; each has its own
// parser below and all produce answerBlocks.

type answerFormat string

const (
	formatDuckDB answerFormat = "duckdb" // tab-separated, as DuckDB prints; BLOB as \xNN escapes
	formatImpala answerFormat = "impala" // comma-separated, strings in single quotes, NULL bare
	formatCSV    answerFormat = "csv"    // hand-written CSV with a header line of column names
	formatSpec   answerFormat = "spec"   // directory: expected_count.csv + expected_rows/*.parquet
)

// answerBlock is one block of expected results.
type answerBlock struct {
	file   string
	title  string
	format answerFormat
	// skip, when not empty, says why the block is not checked: it is about
	// another snapshot, another query or other scan options.
	skip string
	// count is the expected COUNT(*) when isCount.
	isCount bool
	count   int64
	// header names the columns when the format has one (csv, spec).
	header []string
	// rows are the expected rows of SELECT *, values as written (nullValue
	// for NULL), in the column order of header or of the table.
	rows [][]string
	// dropLast: the rows carry one extra trailing column (Impala's data
	// sequence number) that SELECT * does not return.
	dropLast bool
}

// readAnswers parses the answers file or directory rel (as listed in
// tables.json) of fixture fx.
func readAnswers(t *testing.T, fixturesDir string, fx fixture, rel string) []answerBlock {
	t.Helper()
	path := filepath.Join(fixturesDir, rel)
	if strings.HasSuffix(rel, "/") {
		return readSpecAnswers(t, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read answers: %v", err)
	}
	text := string(data)
	preamble := strings.ToLower(text[:max(0, strings.Index(text, "\n## "))])
	var blocks []answerBlock
	switch {
	case strings.Contains(preamble, "tab-separated as duckdb prints"):
		blocks = parseDuckDBAnswers(t, text, fx)
	case strings.Contains(preamble, "impala") && strings.Contains(preamble, "comma-separated"):
		blocks = parseImpalaAnswers(t, text)
	case strings.Contains(preamble, "comma-separated, header = column names"):
		blocks = parseCSVAnswers(t, text, fx)
	default:
		t.Fatalf("answers %s: unknown format (header comment not recognised)", rel)
	}
	for i := range blocks {
		blocks[i].file = rel
	}
	return blocks
}

// splitBlocks cuts text into "## " titles and their lines (blank lines
// dropped; "# " comment lines kept for the format parser to read or skip).
func splitBlocks(text string) (titles []string, bodies [][]string) {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "## "):
			titles = append(titles, strings.TrimPrefix(line, "## "))
			bodies = append(bodies, nil)
		case len(titles) == 0, line == "":
		default:
			bodies[len(bodies)-1] = append(bodies[len(bodies)-1], line)
		}
	}
	return titles, bodies
}

// parseDuckDBAnswers reads blocks titled
// "<what>; target: <dir or metadata file>; scan options: <opts>; <order>; source: ...".
func parseDuckDBAnswers(t *testing.T, text string, fx fixture) []answerBlock {
	titles, bodies := splitBlocks(text)
	var out []answerBlock
	for i, title := range titles {
		b := answerBlock{title: title, format: formatDuckDB}
		fields := map[string]string{}
		parts := strings.Split(title, "; ")
		for _, p := range parts[1:] {
			if k, v, ok := strings.Cut(p, ": "); ok {
				fields[k] = v
			}
		}
		switch target := fields["target"]; {
		case fields["scan options"] != "none":
			b.skip = "scan options " + fields["scan options"]
		case target != "(table directory)" && target != fx.CurrentMetadata:
			b.skip = "targets metadata " + target + ", not the current one"
		}
		var rows [][]string
		for _, line := range bodies[i] {
			if strings.HasPrefix(line, "# ") {
				continue
			}
			vals := strings.Split(line, "\t")
			for j, v := range vals {
				if v == "NULL" {
					vals[j] = nullValue
				}
			}
			rows = append(rows, vals)
		}
		switch parts[0] {
		case "all columns (SELECT *)":
			b.rows = rows
		case "COUNT(*)":
			b.isCount = true
			b.count = singleCount(t, title, rows)
		default:
			b.skip = "query " + parts[0]
		}
		out = append(out, b)
	}
	return out
}

// parseImpalaAnswers reads blocks titled "<what>, <snapshot>; ...".
func parseImpalaAnswers(t *testing.T, text string) []answerBlock {
	titles, bodies := splitBlocks(text)
	var out []answerBlock
	for i, title := range titles {
		b := answerBlock{title: title, format: formatImpala}
		what, _, _ := strings.Cut(title, ";")
		var rows [][]string
		for _, line := range bodies[i] {
			if strings.HasPrefix(line, "# ") {
				continue
			}
			vals, err := splitImpalaRow(line)
			if err != nil {
				t.Fatalf("answers block %q: %v", title, err)
			}
			rows = append(rows, vals)
		}
		switch what {
		case "all columns (SELECT *), current snapshot":
			b.rows = rows
		case "all columns + data sequence number, current snapshot":
			b.rows, b.dropLast = rows, true
		case "COUNT(*), current snapshot":
			b.isCount = true
			b.count = singleCount(t, title, rows)
		default:
			b.skip = what
		}
		out = append(out, b)
	}
	return out
}

// splitImpalaRow splits one Impala result line: comma-separated, strings in
// single quotes (a quote inside escaped with a backslash), NULL bare.
func splitImpalaRow(line string) ([]string, error) {
	var vals []string
	for i := 0; i <= len(line); {
		if i < len(line) && line[i] == '\'' {
			var sb strings.Builder
			j := i + 1
			for ; j < len(line) && line[j] != '\''; j++ {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				}
				sb.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, fmt.Errorf("unterminated string in %q", line)
			}
			vals = append(vals, sb.String())
			i = j + 1
			if i < len(line) && line[i] != ',' {
				return nil, fmt.Errorf("text after a quoted string in %q", line)
			}
			i++
			continue
		}
		end := strings.IndexByte(line[i:], ',')
		if end < 0 {
			end = len(line) - i
		}
		v := line[i : i+end]
		if v == "NULL" {
			v = nullValue
		}
		vals = append(vals, v)
		i += end + 1
	}
	return vals, nil
}

// parseCSVAnswers reads hand-written blocks: a header line, then rows.
// "## current snapshot, all columns ..." are SELECT * results; "## COUNT(*)
// per snapshot" lists snapshot_id,count, of which the current snapshot's
// row is checked.
func parseCSVAnswers(t *testing.T, text string, fx fixture) []answerBlock {
	titles, bodies := splitBlocks(text)
	var out []answerBlock
	for i, title := range titles {
		b := answerBlock{title: title, format: formatCSV}
		var lines []string
		for _, line := range bodies[i] {
			if !strings.HasPrefix(line, "# ") {
				lines = append(lines, line)
			}
		}
		r := csv.NewReader(strings.NewReader(strings.Join(lines, "\n")))
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		if err != nil || len(recs) == 0 {
			t.Fatalf("answers block %q: not CSV with a header: %v", title, err)
		}
		header, rows := recs[0], recs[1:]
		for _, row := range rows {
			for j, v := range row {
				if v == "NULL" {
					row[j] = nullValue
				}
			}
		}
		switch {
		case strings.HasPrefix(title, "current snapshot, all columns"):
			b.header, b.rows = header, rows
		case strings.HasPrefix(title, "COUNT(*) per snapshot"):
			b.skip = "no row for the current snapshot " + fx.CurrentSnapshotID.String()
			for _, row := range rows {
				if len(row) == 2 && row[0] == fx.CurrentSnapshotID.String() {
					b.skip, b.isCount = "", true
					b.count = parseCount(t, title, row[1])
				}
			}
		default:
			b.skip = title
		}
		out = append(out, b)
	}
	return out
}

func singleCount(t *testing.T, title string, rows [][]string) int64 {
	t.Helper()
	if len(rows) != 1 || len(rows[0]) != 1 {
		t.Fatalf("answers block %q: want one count, have %v", title, rows)
	}
	return parseCount(t, title, rows[0][0])
}

func parseCount(t *testing.T, title, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		t.Fatalf("answers block %q: count %q: %v", title, s, err)
	}
	return n
}
