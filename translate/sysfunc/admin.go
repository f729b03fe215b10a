package sysfunc

import (
	"context"
	"maps"
	"math"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// Server administration functions clients and migration tools send:
// pg_sleep, pg_cancel_backend and pg_terminate_backend (knex's query
// timeout), and the advisory locks (golang-migrate, Flyway, Rails...);
// pg_notify is 0A000, as LISTEN and NOTIFY are.
// They run when the statement does, row by row, never folded; the
// sessions and locks they act on are the backend's (bind.Backends).

func addAdminFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"pg_sleep":               {Bind: bindSleep},
		"pg_cancel_backend":      {Bind: bindSignalBackend(false)},
		"pg_terminate_backend":   {Bind: bindSignalBackend(true)},
		"pg_advisory_unlock_all": {Bind: bindAdvisoryUnlockAll},
		"pg_notify":              {Bind: bindNotify},
	})
	for _, shared := range []bool{false, true} {
		suffix := ""
		if shared {
			suffix = "_shared"
		}
		for _, xact := range []bool{false, true} {
			infix := "_"
			if xact {
				infix = "_xact_"
			}
			m["pg_advisory"+infix+"lock"+suffix] = bind.SysFuncDef{Bind: bindAdvisoryLock(shared, xact, true)}
			m["pg_try_advisory"+infix+"lock"+suffix] = bind.SysFuncDef{Bind: bindAdvisoryLock(shared, xact, false)}
		}
		m["pg_advisory_unlock"+suffix] = bind.SysFuncDef{Bind: bindAdvisoryUnlock(shared)}
	}
}

var tVoid = plan.Type{OID: pgtypes.Void, Typmod: -1}

// volatile marks calls that act on the server: run for every row, never
// at bind.
var volatile = bind.SysCallOpts{Volatile: true}

// bindSleep is pg_sleep(seconds double precision): the statement waits,
// until canceled or past statement_timeout.
func bindSleep(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, tVoid, b.SysArgs(c, plan.TFloat8), volatile, func(ctx context.Context, _ *syscat.Snapshot, a []any) (any, error) {
		secs, _ := a[0].(float64)
		if !(secs > 0) {
			return "", nil
		}
		d := time.Duration(math.Min(secs, float64(math.MaxInt64/int64(time.Second))) * float64(time.Second))
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return "", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// bindNotify is pg_notify(channel, payload): LISTEN and NOTIFY are not
// there, so it is 0A000 as the NOTIFY statement is.
func bindNotify(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	return bind.Bound{}, b.ErrAt(pgerr.NotYet("NOTIFY"), c.Loc())
}

// backends is the server's sessions and locks, or 0A000 without a server.
func backends(b *bind.Binder, name string) (bind.Backends, error) {
	if bk := b.Env().Backends(); bk != nil {
		return bk, nil
	}
	return nil, pgerr.NotYet(name + " without a server")
}

// bindSignalBackend is pg_cancel_backend(pid) and pg_terminate_backend(pid
// [, timeout]): true when a session with that process id was signalled.
func bindSignalBackend(terminate bool) sysBind {
	return func(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
		counts := []int{1}
		ts := []plan.Type{plan.TInt4}
		if terminate {
			counts = []int{1, 2}
			if len(c.Args) == 2 {
				ts = append(ts, plan.TInt8)
			}
		}
		if err := b.SysArity(c, counts...); err != nil {
			return bind.Bound{}, err
		}
		bk, err := backends(b, c.Name)
		if err != nil {
			return bind.Bound{}, b.ErrAt(err, c.Loc())
		}
		return b.SysCall(c, plan.TBool, b.SysArgs(c, ts...), volatile, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
			pid, _ := bind.ToInt64(a[0])
			var timeout int64
			if len(a) == 2 {
				if timeout, _ = bind.ToInt64(a[1]); timeout < 0 {
					return nil, pgerr.New(pgerr.NumericValueOutOfRange, "\"timeout\" must not be negative")
				}
			}
			if terminate {
				return bk.TerminateBackend(int32(pid), time.Duration(timeout)*time.Millisecond)
			}
			return bk.CancelBackend(int32(pid))
		})
	}
}

// advisoryArgs coerces an advisory lock's key: one bigint or two
// integers.
func advisoryArgs(b *bind.Binder, c *bind.SysCallSite) (args []plan.Type, err error) {
	if err := b.SysArity(c, 1, 2); err != nil {
		return nil, err
	}
	if len(c.Args) == 1 {
		return []plan.Type{plan.TInt8}, nil
	}
	return []plan.Type{plan.TInt4, plan.TInt4}, nil
}

func advisoryKey(a []any) bind.AdvisoryKey {
	k1, _ := bind.ToInt64(a[0])
	if len(a) == 1 {
		return bind.AdvisoryKey{Key: k1}
	}
	k2, _ := bind.ToInt64(a[1])
	return bind.AdvisoryKey{Key: k1<<32 | int64(uint32(k2)), Pair: true}
}

// bindAdvisoryLock is pg_[try_]advisory[_xact]_lock[_shared](key): the
// waiting forms return void once the lock is taken, the try forms whether
// it was.
func bindAdvisoryLock(shared, xact, wait bool) sysBind {
	return func(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
		ts, err := advisoryArgs(b, c)
		if err != nil {
			return bind.Bound{}, err
		}
		bk, err := backends(b, c.Name)
		if err != nil {
			return bind.Bound{}, b.ErrAt(err, c.Loc())
		}
		t := plan.TBool
		if wait {
			t = tVoid
		}
		return b.SysCall(c, t, b.SysArgs(c, ts...), volatile, func(ctx context.Context, _ *syscat.Snapshot, a []any) (any, error) {
			got, err := bk.AdvisoryLock(ctx, advisoryKey(a), shared, xact, wait)
			if err != nil {
				return nil, err
			}
			if wait {
				return "", nil
			}
			return got, nil
		})
	}
}

// bindAdvisoryUnlock is pg_advisory_unlock[_shared](key).
func bindAdvisoryUnlock(shared bool) sysBind {
	return func(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
		ts, err := advisoryArgs(b, c)
		if err != nil {
			return bind.Bound{}, err
		}
		bk, err := backends(b, c.Name)
		if err != nil {
			return bind.Bound{}, b.ErrAt(err, c.Loc())
		}
		return b.SysCall(c, plan.TBool, b.SysArgs(c, ts...), volatile, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
			return bk.AdvisoryUnlock(advisoryKey(a), shared), nil
		})
	}
}

// bindAdvisoryUnlockAll is pg_advisory_unlock_all().
func bindAdvisoryUnlockAll(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	bk, err := backends(b, c.Name)
	if err != nil {
		return bind.Bound{}, b.ErrAt(err, c.Loc())
	}
	return b.SysCall(c, tVoid, nil, bind.SysCallOpts{Volatile: true, Lenient: true}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		bk.AdvisoryUnlockAll()
		return "", nil
	})
}

// sysBind is the Bind of a bind.SysFuncDef.
type sysBind = func(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error)
