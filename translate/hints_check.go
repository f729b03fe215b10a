package translate

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// checkHints checks the OPTIONS hints of one parsed query string against
// the option registry (22023 for an unknown, session-only, repeated or
// invalid option) and adds the time-travel clauses of snapshot-id and
// as-of-timestamp to the statements' asOf. The statements of one string
// share their hints and asOf maps; stmts are all of them.
func checkHints(stmts []parsedStmt) error {
	if len(stmts) == 0 || len(stmts[0].hints) == 0 {
		return nil
	}
	hints, sql, asOf := stmts[0].hints, stmts[0].sql, stmts[0].asOf
	locs := make([]int32, 0, len(hints))
	for k := range hints {
		locs = append(locs, k)
	}
	slices.Sort(locs)
	for _, key := range locs {
		h := hints[key]
		if h.options != nil {
			continue // checked already
		}
		h.options = map[string]string{}
		for _, p := range h.pairs {
			if err := h.Add(p[0], p[1]); err != nil {
				if pe := pgerr.As(err); pe != nil && pe.Position == 0 {
					pe.Position = charPos(sql, h.loc)
				}
				h.options, h.keys = nil, nil
				return err
			}
		}
		c, err := h.timeTravel()
		if err != nil {
			return err
		}
		if c == nil {
			continue
		}
		if asOf[key] != nil {
			e := pgerr.New(pgerr.SyntaxError, "a table reference has both a time-travel clause and the %s option", h.timeTravelKey())
			e.Position = charPos(sql, h.loc)
			return e
		}
		if asOf == nil {
			asOf = map[int32]*asOfClause{}
		}
		asOf[key] = c
	}
	for i := range stmts {
		stmts[i].asOf = asOf
	}
	return nil
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

// parseChecked parses sql and checks its hints.
func parseChecked(sql string) ([]parsedStmt, error) {
	stmts, err := parse(sql, translateParse)
	if err != nil {
		return nil, err
	}
	return stmts, checkHints(stmts)
}

// translateParse are the parse options of icegate's SQL.
var translateParse = parseConfig{isMetaTable: func(name string) bool { return metaTableByName(name) != nil }}
