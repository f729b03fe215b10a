package translate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
)

// hintNoticesOf are the NOTICEs of the hint's options icegate does not act on.
func hintNoticesOf(h *parse.Hint) []Notice {
	var out []Notice
	tt := hints.TimeTravelKey(h)
	for _, k := range h.Keys {
		o := conf.LookupOption(k)
		if o == nil {
			continue
		}
		if k == "as-of-timestamp" && tt == "snapshot-id" {
			out = append(out, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "option as-of-timestamp is ignored: snapshot-id is given too, and wins"})
			continue
		}
		if o.Acts&(conf.LevelRead|conf.LevelWrite) != 0 || o.Matches != "" && strings.EqualFold(h.Options[strings.ToLower(o.Name)], o.Matches) {
			continue
		}
		out = append(out, optionIgnoredNotice(fmt.Sprintf("option \"%s\"", k), o))
	}
	return out
}

// hintNotices are the NOTICEs of a statement's hints, in text order.
func hintNotices(hints map[int32]*parse.Hint) []Notice {
	if len(hints) == 0 {
		return nil
	}
	hs := make([]*parse.Hint, 0, len(hints))
	for _, h := range hints {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Loc < hs[j].Loc })
	var out []Notice
	for _, h := range hs {
		out = append(out, hintNoticesOf(h)...)
	}
	return out
}
