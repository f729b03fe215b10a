package translate

import (
	"fmt"
	"sort"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Per-statement read and write options, written as Flink's hint after a
// table name: SELECT ... FROM t /*+ OPTIONS('snapshot-id'='123') */.
// PostgreSQL's parser drops comments, so before parsing the hints are
// found among the scanner's tokens and kept by the offset of the table
// name each follows (the RangeVar's location), as the time-travel
// clauses are (asof.go). snapshot-id and as-of-timestamp become such a
// clause; the other options are checked against the registry
// (options.go) and, when icegate does not act on them, answered with a
// NOTICE.

// tableHint is the OPTIONS hint of one table reference.
type tableHint struct {
	loc     int32             // offset of the comment
	options map[string]string // by lower-case Iceberg name; values checked and normalised
	keys    []string          // the keys as written, in order
}

// scanHints finds the OPTIONS hints of sql. Time-travel options are added
// to asOf (which it may create); a hint after a name that already has a
// time-travel clause is an error.
func scanHints(sql string, asOf map[int32]*asOfClause) (map[int32]*asOfClause, map[int32]*tableHint, error) {
	if !strings.Contains(sql, "/*+") {
		return asOf, nil, nil
	}
	res, err := pg.Scan(sql)
	if err != nil {
		return asOf, nil, nil // the parser reports it
	}
	toks := make([]dialectTok, len(res.Tokens))
	for i, t := range res.Tokens {
		text := sql[t.Start:t.End]
		toks[i] = dialectTok{tok: t.Token, start: int(t.Start), end: int(t.End), text: text, low: strings.ToLower(text)}
	}
	var hints map[int32]*tableHint
	for i, t := range toks {
		if t.tok != pg.Token_C_COMMENT || !strings.HasPrefix(t.text, "/*+") {
			continue
		}
		body := strings.TrimSpace(strings.TrimSuffix(t.text[3:], "*/"))
		if !strings.HasPrefix(strings.ToLower(body), "options") {
			continue // another engine's hint: a comment to icegate
		}
		key, ok := hintedName(toks, i)
		if !ok {
			e := pgerr.New(pgerr.SyntaxError, "an OPTIONS hint must follow a table name")
			e.Position = charPos(sql, int32(t.start))
			return nil, nil, e
		}
		h, err := parseHint(body, int32(t.start))
		if err != nil {
			if pe := pgerr.As(err); pe != nil && pe.Position == 0 {
				pe.Position = charPos(sql, int32(t.start))
			}
			return nil, nil, err
		}
		if hints == nil {
			hints = map[int32]*tableHint{}
		}
		hints[key] = h
		c, err := h.timeTravel()
		if err != nil || c == nil {
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		if asOf[key] != nil {
			e := pgerr.New(pgerr.SyntaxError, "a table reference has both a time-travel clause and the %s option", h.timeTravelKey())
			e.Position = charPos(sql, int32(t.start))
			return nil, nil, e
		}
		if asOf == nil {
			asOf = map[int32]*asOfClause{}
		}
		asOf[key] = c
	}
	return asOf, hints, nil
}

// hintedName returns the offset of the name the hint at toks[i] follows:
// a table name (word(.word)*) or a function call (name(...)).
func hintedName(toks []dialectTok, i int) (int32, bool) {
	k := i - 1
	if k >= 0 && toks[k].tok == pg.Token_ASCII_41 {
		depth := 0
		for ; k >= 0; k-- {
			switch toks[k].tok {
			case pg.Token_ASCII_41:
				depth++
			case pg.Token_ASCII_40:
				depth--
			}
			if depth == 0 {
				break
			}
		}
		k--
	}
	if k < 0 || !isWordTok(toks[k]) {
		return 0, false
	}
	for k-2 >= 0 && toks[k-1].text == "." && isWordTok(toks[k-2]) {
		k -= 2
	}
	return int32(toks[k].start), true
}

// parseHint reads OPTIONS('key' = 'value', ...) and checks each option.
func parseHint(body string, loc int32) (*tableHint, error) {
	res, err := pg.Scan(body)
	if err != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "invalid OPTIONS hint: %v", err)
	}
	toks := res.Tokens
	text := func(i int) string { return body[toks[i].Start:toks[i].End] }
	bad := func(i int) error {
		if i >= len(toks) {
			return pgerr.New(pgerr.SyntaxError, "invalid OPTIONS hint: it ends too early").
				WithHint("Write /*+ OPTIONS('key' = 'value', ...) */.")
		}
		return pgerr.New(pgerr.SyntaxError, "invalid OPTIONS hint at or near \"%s\"", text(i)).
			WithHint("Write /*+ OPTIONS('key' = 'value', ...) */.")
	}
	if len(toks) < 2 || toks[1].Token != pg.Token_ASCII_40 {
		return nil, bad(1)
	}
	h := &tableHint{loc: loc, options: map[string]string{}}
	i := 2
	for {
		if i >= len(toks) {
			return nil, bad(i)
		}
		if toks[i].Token != pg.Token_SCONST {
			return nil, bad(i)
		}
		key := unquoteSQL(text(i))
		if i+2 >= len(toks) || toks[i+1].Token != pg.Token_ASCII_61 {
			return nil, bad(i + 1)
		}
		j := i + 2
		var val string
		switch toks[j].Token {
		case pg.Token_SCONST:
			val = unquoteSQL(text(j))
		case pg.Token_ICONST, pg.Token_FCONST:
			val = text(j)
		case pg.Token_ASCII_45:
			if j+1 < len(toks) && toks[j+1].Token == pg.Token_ICONST {
				j++
				val = "-" + text(j)
				break
			}
			return nil, bad(j)
		default:
			return nil, bad(j)
		}
		if err := h.Add(key, val); err != nil {
			return nil, err
		}
		i = j + 1
		if i < len(toks) && toks[i].Token == pg.Token_ASCII_44 {
			i++
			continue
		}
		if i < len(toks) && toks[i].Token == pg.Token_ASCII_41 && i == len(toks)-1 {
			return h, nil
		}
		return nil, bad(i)
	}
}

// add checks one option of the hint: 22023 for an unknown option, a
// session-only one, a repeated one or an invalid value.
func (h *tableHint) Add(key, val string) error {
	o := lookupOption(key)
	if o == nil {
		return pgerr.New(pgerr.InvalidParameterValue, "unknown option \"%s\" in an OPTIONS hint", key).
			WithHint("The read and write options are %s.", strings.Join(optionNames(levelRead|levelWrite), ", "))
	}
	if o.Levels&(levelRead|levelWrite) == 0 {
		return pgerr.New(pgerr.InvalidParameterValue, "option \"%s\" is a session setting, not a read or write option", key).
			WithHint("SET %s = '%s' sets it for the session.", o.settingName(), strings.ReplaceAll(val, "'", "''"))
	}
	name := strings.ToLower(key)
	if !o.isPrefix() {
		name = strings.ToLower(o.Name) // split_size is split-size
	}
	if _, dup := h.options[name]; dup {
		return pgerr.New(pgerr.InvalidParameterValue, "option \"%s\" is given twice in an OPTIONS hint", key)
	}
	v, err := o.Check(key, val)
	if err != nil {
		return err
	}
	h.options[name] = v
	h.keys = append(h.keys, name)
	return nil
}

// timeTravelKey is the option that picks the snapshot ("" none):
// snapshot-id wins over as-of-timestamp.
func (h *tableHint) timeTravelKey() string {
	for _, k := range []string{"snapshot-id", "as-of-timestamp"} {
		if _, ok := h.options[k]; ok {
			return k
		}
	}
	return ""
}

// timeTravel is the time-travel clause of the hint's snapshot-id or
// as-of-timestamp (milliseconds), nil when it has neither.
func (h *tableHint) timeTravel() (*asOfClause, error) {
	switch h.timeTravelKey() {
	case "snapshot-id":
		return &asOfClause{value: h.options["snapshot-id"], loc: h.loc}, nil
	case "as-of-timestamp":
		var ms int64
		if _, err := fmt.Sscan(h.options["as-of-timestamp"], &ms); err != nil {
			return nil, invalidOption("as-of-timestamp", h.options["as-of-timestamp"])
		}
		at := time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000-07:00")
		return &asOfClause{timestamp: true, value: "timestamptz '" + at + "'", loc: h.loc}, nil
	}
	return nil, nil
}

// notices are the NOTICEs of the hint's options icegate does not act on.
func (h *tableHint) notices() []Notice {
	var out []Notice
	tt := h.timeTravelKey()
	for _, k := range h.keys {
		o := lookupOption(k)
		if o == nil {
			continue
		}
		if k == "as-of-timestamp" && tt == "snapshot-id" {
			out = append(out, Notice{Severity: "NOTICE", Code: "00000",
				Message: "option as-of-timestamp is ignored: snapshot-id is given too, and wins"})
			continue
		}
		if o.Acts&(levelRead|levelWrite) != 0 {
			continue
		}
		out = append(out, optionIgnoredNotice(fmt.Sprintf("option \"%s\"", k), o))
	}
	return out
}

// hintNotices are the NOTICEs of a statement's hints, in text order.
func hintNotices(hints map[int32]*tableHint) []Notice {
	if len(hints) == 0 {
		return nil
	}
	hs := make([]*tableHint, 0, len(hints))
	for _, h := range hints {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].loc < hs[j].loc })
	var out []Notice
	for _, h := range hs {
		out = append(out, h.notices()...)
	}
	return out
}

// unquoteSQL removes the quotes of a string constant and undoubles the
// quotes inside it.
func unquoteSQL(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}
