package bind

import (
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

func (b *Binder) sqlValueFunction(f *pg.SQLValueFunction) (Bound, error) {
	loc := b.env.Location()
	now := b.now
	switch f.Op {
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP,
		pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N, pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP,
		pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N, pg.SQLValueFunctionOp_SVFOP_LOCALTIME,
		pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		b.params.Unstable = true // the plan holds the time
	}
	text := func(s, name string) (Bound, error) {
		return Bound{E: &expr.Lit{V: s, T: expr.Text}, T: plan.TText, Name: name, strong: true}, nil
	}
	switch f.Op {
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		y, m, d := now.In(loc).Date()
		days := int32(civilDays(y, int(m), d))
		return Bound{E: &expr.Lit{V: days, T: expr.Date}, T: plan.TDate, Name: "current_date", strong: true}, nil
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		return Bound{E: &expr.Lit{V: now.UnixMicro(), T: expr.Timestamptz}, T: plan.TTimestamptz, Name: "current_timestamp", strong: true}, nil
	case pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		return Bound{E: &expr.Lit{V: localMicros(now, loc), T: expr.Timestamp}, T: plan.TTimestamp, Name: "localtimestamp", strong: true}, nil
	case pg.SQLValueFunctionOp_SVFOP_LOCALTIME, pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		us := localMicros(now, loc) % (86400 * 1e6)
		if us < 0 {
			us += 86400 * 1e6
		}
		return Bound{E: &expr.Lit{V: us, T: expr.Time}, T: plan.TTime, Name: "localtime", strong: true}, nil
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:
		return Bound{}, b.ErrAt(pgerr.NotYet("time with time zone (CURRENT_TIME)"), f.Location)
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_USER:
		return text(b.env.CurrentUser(), "current_user")
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
		return text(b.env.CurrentUser(), "current_role")
	case pg.SQLValueFunctionOp_SVFOP_USER:
		return text(b.env.CurrentUser(), "user")
	case pg.SQLValueFunctionOp_SVFOP_SESSION_USER:
		return text(b.env.SessionUser(), "session_user")
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return text(b.env.DatabaseName(), "current_catalog")
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		s := b.env.CurrentSchema(b.ctx)
		if s == "" {
			return Bound{E: &expr.Lit{V: nil, T: expr.Text}, T: plan.TText, Name: "current_schema", strong: true}, nil
		}
		return text(s, "current_schema")
	}
	return Bound{}, b.ErrAt(pgerr.NotYet("this SQL value function"), f.Location)
}

// civilDays is the number of days from 1970-01-01 to y-m-d.
func civilDays(y, m, d int) int64 {
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// localMicros is the wall-clock time of t in loc, as microseconds since the
// epoch of a timestamp without time zone.
func localMicros(t time.Time, loc *time.Location) int64 {
	_, off := t.In(loc).Zone()
	return t.UnixMicro() + int64(off)*1e6
}
