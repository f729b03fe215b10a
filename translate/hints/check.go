package hints

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/parse"
)

// Check checks the OPTIONS hints of one parsed query string against
// the option registry (22023 for an unknown, session-only, repeated or
// invalid option) and adds the time-travel clauses of snapshot-id and
// as-of-timestamp to the statements' asOf. The statements of one string
// share their hints and asOf maps; stmts are all of them.
func Check(stmts []parse.Stmt) error {
	if len(stmts) == 0 || len(stmts[0].Hints) == 0 {
		return nil
	}
	hints, sql, asOf := stmts[0].Hints, stmts[0].SQL, stmts[0].AsOf
	locs := make([]int32, 0, len(hints))
	for k := range hints {
		locs = append(locs, k)
	}
	slices.Sort(locs)
	for _, key := range locs {
		h := hints[key]
		if h.Options != nil {
			continue // checked already
		}
		h.Options = map[string]string{}
		for _, p := range h.Pairs {
			if err := addHintOption(h, p[0], p[1]); err != nil {
				if pe := pgerr.As(err); pe != nil && pe.Position == 0 {
					pe.Position = parse.CharPos(sql, h.Loc)
				}
				h.Options, h.Keys = nil, nil
				return err
			}
		}
		c, err := hintTimeTravel(h)
		if err != nil {
			return err
		}
		if c == nil {
			continue
		}
		if asOf[key] != nil {
			e := pgerr.New(pgerr.SyntaxError, "a table reference has both a time-travel clause and the %s option", TimeTravelKey(h))
			e.Position = parse.CharPos(sql, h.Loc)
			return e
		}
		if asOf == nil {
			asOf = map[int32]*parse.AsOfClause{}
		}
		asOf[key] = c
	}
	for i := range stmts {
		stmts[i].AsOf = asOf
	}
	return nil
}

// addHintOption checks one option of the hint: 22023 for an unknown option, a
// session-only one, a repeated one or an invalid value.
func addHintOption(h *parse.Hint, key, val string) error {
	o := conf.LookupOption(key)
	if o == nil {
		return pgerr.New(pgerr.InvalidParameterValue, "unknown option \"%s\" in an OPTIONS hint", key).
			WithHint("The read and write options are %s.", strings.Join(conf.OptionNames(conf.LevelRead|conf.LevelWrite), ", "))
	}
	if o.Levels&(conf.LevelRead|conf.LevelWrite) == 0 {
		return pgerr.New(pgerr.InvalidParameterValue, "option \"%s\" is a session setting, not a read or write option", key).
			WithHint("SET %s = '%s' sets it for the session.", o.SettingName(), strings.ReplaceAll(val, "'", "''"))
	}
	name := strings.ToLower(key)
	if !o.IsPrefix() {
		name = strings.ToLower(o.Name) // split_size is split-size
	}
	if _, dup := h.Options[name]; dup {
		return pgerr.New(pgerr.InvalidParameterValue, "option \"%s\" is given twice in an OPTIONS hint", key)
	}
	v, err := o.Check(key, val)
	if err != nil {
		return err
	}
	h.Options[name] = v
	h.Keys = append(h.Keys, name)
	return nil
}

// TimeTravelKey is the option that picks the snapshot ("" none):
// snapshot-id wins over as-of-timestamp.
func TimeTravelKey(h *parse.Hint) string {
	for _, k := range []string{"snapshot-id", "as-of-timestamp"} {
		if _, ok := h.Options[k]; ok {
			return k
		}
	}
	return ""
}

// hintTimeTravel is the time-travel clause of the hint's snapshot-id or
// as-of-timestamp (milliseconds), nil when it has neither.
func hintTimeTravel(h *parse.Hint) (*parse.AsOfClause, error) {
	switch TimeTravelKey(h) {
	case "snapshot-id":
		return &parse.AsOfClause{Value: h.Options["snapshot-id"], Loc: h.Loc}, nil
	case "as-of-timestamp":
		var ms int64
		if _, err := fmt.Sscan(h.Options["as-of-timestamp"], &ms); err != nil {
			return nil, conf.InvalidOption("as-of-timestamp", h.Options["as-of-timestamp"])
		}
		at := time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000-07:00")
		return &parse.AsOfClause{Timestamp: true, Value: "timestamptz '" + at + "'", Loc: h.Loc}, nil
	}
	return nil, nil
}

// ParseChecked parses sql and checks its hints.
func ParseChecked(sql string) ([]parse.Stmt, error) {
	stmts, err := parse.Parse(sql, ParseConfig)
	if err != nil {
		return nil, err
	}
	return stmts, Check(stmts)
}

// ParseConfig are the parse options of icegate's SQL.
var ParseConfig = parse.Config{IsMetaTable: func(name string) bool { return metatable.ByName(name) != nil }}
