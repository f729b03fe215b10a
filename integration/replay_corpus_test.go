package integration

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// replayEntry is one query of a client replay file: a line
// `-- @q <id> <tags> [check=shape] [modes=simple]` and the SQL under it, up
// to the next such line. Comment and blank lines at the end of an entry
// belong to what follows (the next entry's source note, a section header)
// and are cut off.
type replayEntry struct {
	id     string
	tags   []string
	simple bool // one simple-protocol Query with every statement
	sql    string
	file   string
	line   int
}

// readReplayFile reads the entries of one replay file.
func readReplayFile(path string) ([]replayEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []replayEntry
	var cur *replayEntry
	var body []string
	finish := func() error {
		if cur == nil {
			return nil
		}
		for len(body) > 0 {
			last := strings.TrimSpace(body[len(body)-1])
			if last != "" && !strings.HasPrefix(last, "--") {
				break
			}
			body = body[:len(body)-1]
		}
		cur.sql = strings.TrimSpace(strings.Join(body, "\n"))
		if cur.sql == "" {
			return fmt.Errorf("%s:%d: entry %s has no SQL", path, cur.line, cur.id)
		}
		if !cur.simple {
			cur.sql = strings.TrimSpace(strings.TrimSuffix(cur.sql, ";"))
		}
		entries = append(entries, *cur)
		cur, body = nil, nil
		return nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "-- @q "); ok {
			if err := finish(); err != nil {
				return nil, err
			}
			e, err := parseReplayHeader(rest)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, lineNo, err)
			}
			e.file, e.line = path, lineNo
			cur = &e
			continue
		}
		if cur != nil {
			body = append(body, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return entries, nil
}

// parseReplayHeader reads the words after "-- @q".
func parseReplayHeader(s string) (replayEntry, error) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return replayEntry{}, fmt.Errorf("-- @q without an id")
	}
	e := replayEntry{id: words[0]}
	for _, w := range words[1:] {
		key, val, isOpt := strings.Cut(w, "=")
		switch {
		case !isOpt:
			e.tags = append(e.tags, w)
		case key == "check" && val == "shape":
		case key == "modes" && val == "simple":
			e.simple = true
		default:
			return e, fmt.Errorf("entry %s: unknown option %s (want check=shape, modes=simple)", e.id, w)
		}
	}
	return e, nil
}
