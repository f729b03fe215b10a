package sysfunc

import (
	"context"
	"maps"
	"math/big"
	"strings"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// Sizes and encodings: pg_relation_size and friends (from the Iceberg data
// file sizes of each table's current snapshot), pg_database_size,
// pg_size_pretty, pg_encoding_to_char / pg_char_to_encoding.

func addSizeFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"pg_relation_size":       {Bind: bindRelationSize},
		"pg_total_relation_size": {Bind: bindRelationSize},
		"pg_table_size":          {Bind: bindRelationSize},
		"pg_indexes_size":        {Bind: bindRelationSize},
		"pg_database_size":       {Bind: bindDatabaseSize},
		"pg_size_pretty":         {Bind: bindSizePretty},
		"pg_encoding_to_char":    {Bind: bindEncodingToChar},
		"pg_char_to_encoding":    {Bind: bindCharToEncoding},
	})
}

// bindRelationSize is pg_relation_size(regclass [, fork text]),
// pg_total_relation_size, pg_table_size and pg_indexes_size(regclass): a
// table's size is the total size of its current snapshot's data files
// (the primary key's index takes no space); a view's is 0; NULL for an OID
// that names nothing, 42P01 for a name.
func bindRelationSize(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	counts := []int{1}
	if c.Name == "pg_relation_size" {
		counts = append(counts, 2)
	}
	if err := b.SysArity(c, counts...); err != nil {
		return bind.Bound{}, err
	}
	arg, byName := regclassArg(b, c, 0)
	args := []expr.Expr{arg}
	if len(c.Args) == 2 {
		args = append(args, b.SysArg(c, 1, plan.TText))
	}
	name := c.Name
	return b.SysCall(c, plan.TInt8, args, bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		fork := "main"
		if len(v) == 2 {
			fork = bind.TextValue(v[1])
			switch fork {
			case "main", "fsm", "vm", "init":
			default:
				return nil, invalidParameter("invalid fork name").
					WithHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".")
			}
		}
		r, err := regclassValue(snap, v[0], byName)
		if err != nil {
			return nil, err
		}
		if r == nil {
			if oid, err := oidValue(v[0]); err == nil && !byName && regtype.RelationOfIndex(snap, oid) != nil {
				return int64(0), nil
			}
			return nil, nil
		}
		if fork != "main" || name == "pg_indexes_size" || r.Bytes < 0 {
			return int64(0), nil
		}
		return r.Bytes, nil
	})
}

// bindDatabaseSize is pg_database_size(name | oid): the size of every
// table of the warehouse.
func bindDatabaseSize(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	byName := isTextArg(c.Args[0])
	t := tOIDArg
	if byName {
		t = plan.TText
	}
	db := b.Env().DatabaseName()
	return b.SysCall(c, plan.TInt8, b.SysArgs(c, t), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		if byName {
			if name := bind.TextValue(v[0]); name != db {
				return nil, pgerr.New(pgerr.InvalidCatalogName, "database \"%s\" does not exist", name)
			}
		} else if oid, err := oidValue(v[0]); err != nil || oid != syscat.DatabaseOID {
			return nil, err
		}
		var total int64
		for _, r := range snap.Relations {
			if r.Bytes > 0 {
				total += r.Bytes
			}
		}
		return total, nil
	})
}

// bindSizePretty is pg_size_pretty(bigint | numeric): a byte count in
// bytes, kB, MB, GB, TB or PB, rounded half away from zero as PostgreSQL
// 15 does.
func bindSizePretty(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	a := c.Args[0]
	var arg expr.Expr
	switch {
	case a.T.OID == pgtypes.Numeric || a.T.OID == pgtypes.Float4 || a.T.OID == pgtypes.Float8:
		// numeric (a float argument resolves to the numeric form): its text.
		arg = b.Coerce(bind.Bound{E: b.Coerce(a, plan.ArrowOf(plan.TNumeric)), T: plan.TNumeric}, expr.Text)
	case a.Unknown() || a.T.OID == pgtypes.Int2 || a.T.OID == pgtypes.Int4 || a.T.OID == pgtypes.Int8:
		arg = b.Coerce(coerce1(b, a, plan.TInt8), expr.Text)
	default:
		return bind.Bound{}, b.ErrAt(bind.UndefinedCall(c.Name, c.Args), c.Loc())
	}
	return b.SysCall(c, plan.TText, []expr.Expr{arg}, bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		return sizePretty(bind.TextValue(v[0]))
	})
}

// coerce1 returns a as type t, as a bound value.
func coerce1(b *bind.Binder, a bind.Bound, t plan.Type) bind.Bound {
	return bind.Bound{E: b.Coerce(a, plan.ArrowOf(t)), T: t}
}

// sizeUnits are pg_size_pretty's units: each unit's limit, whether the
// value is rounded in it, and its power of two.
var sizeUnits = []struct {
	name  string
	limit int64
	round bool
	bits  uint
}{
	{"bytes", 10 * 1024, false, 0},
	{"kB", 20*1024 - 1, true, 10},
	{"MB", 20*1024 - 1, true, 20},
	{"GB", 20*1024 - 1, true, 30},
	{"TB", 20*1024 - 1, true, 40},
	{"PB", 20*1024 - 1, true, 50},
}

// sizePretty formats a number of bytes given as decimal text.
func sizePretty(text string) (string, error) {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(text))
	if !ok {
		return "", pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", text)
	}
	limit := func(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }
	abs := func(x *big.Rat) *big.Rat { return new(big.Rat).Abs(x) }
	for i, u := range sizeUnits {
		last := i == len(sizeUnits)-1
		if last || abs(r).Cmp(limit(u.limit)) < 0 {
			if u.round {
				r = halfRounded(r)
			}
			if r.IsInt() {
				return r.Num().String() + " " + u.name, nil
			}
			return strings.TrimRight(strings.TrimRight(r.FloatString(20), "0"), ".") + " " + u.name, nil
		}
		next := sizeUnits[i+1]
		bits := next.bits - u.bits
		if next.round {
			bits--
		}
		if u.round {
			bits++
		}
		// Divide, truncating toward zero.
		q := new(big.Int).Quo(truncRat(r), new(big.Int).Lsh(big.NewInt(1), bits))
		r = new(big.Rat).SetInt(q)
	}
	return "", nil
}

// truncRat is r truncated toward zero.
func truncRat(r *big.Rat) *big.Int {
	return new(big.Int).Quo(r.Num(), r.Denom())
}

// halfRounded is PostgreSQL's half_rounded: (x + sign(x)) / 2, truncated.
func halfRounded(r *big.Rat) *big.Rat {
	x := truncRat(r)
	if x.Sign() < 0 {
		x.Sub(x, big.NewInt(1))
	} else {
		x.Add(x, big.NewInt(1))
	}
	return new(big.Rat).SetInt(x.Quo(x, big.NewInt(2)))
}

// encodingNames are PostgreSQL's encodings by number.
var encodingNames = []string{"SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8",
	"MULE_INTERNAL", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9",
	"LATIN10", "WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252", "ISO_8859_5",
	"ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U",
	"SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004"}

// encodingAliases are the other names pg_char_to_encoding accepts, in the
// normalized form (lower case, letters and digits only).
var encodingAliases = map[string]int32{
	"unicode": 6, "utf8": 6, "alt": 20, "win": 23, "koi8": 22, "mskanji": 35, "shiftjis": 35, "sjis": 35,
	"tcvn": 19, "tcvn5712": 19, "vscii": 19, "windows1251": 23, "windows1252": 24, "windows866": 20,
	"windows874": 21, "windows1250": 29, "windows1253": 30, "windows1254": 31, "windows1255": 32,
	"windows1256": 18, "windows1257": 33, "windows1258": 19, "windows932": 35, "windows936": 37,
	"windows949": 38, "windows950": 36, "iso88591": 8, "iso88592": 9, "iso88593": 10, "iso88594": 11,
	"iso88599": 12, "iso885910": 13, "iso885913": 14, "iso885914": 15, "iso885915": 16, "iso885916": 17,
	"abc": 19, "cp1251": 23, "cp1252": 24, "cp866": 20, "cp932": 35, "cp936": 37, "cp949": 38, "cp950": 36,
}

// normalizeEncoding is PostgreSQL's clean_encoding_name: letters and
// digits, lower case.
func normalizeEncoding(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			sb.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			sb.WriteRune(r + 'a' - 'A')
		}
	}
	return sb.String()
}

// bindEncodingToChar is pg_encoding_to_char(int4): the encoding's name, ""
// for a number that names none.
func bindEncodingToChar(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, tNameArg, b.SysArgs(c, plan.TInt4), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		n, _ := bind.ToInt64(v[0])
		if n < 0 || n >= int64(len(encodingNames)) {
			return "", nil
		}
		return encodingNames[n], nil
	})
}

// bindCharToEncoding is pg_char_to_encoding(name): the encoding's number,
// -1 for a name that is none.
func bindCharToEncoding(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TInt4, b.SysArgs(c, tNameArg), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		name := normalizeEncoding(bind.TextValue(v[0]))
		for i, e := range encodingNames {
			if normalizeEncoding(e) == name {
				return int32(i), nil
			}
		}
		if n, ok := encodingAliases[name]; ok {
			return n, nil
		}
		return int32(-1), nil
	})
}
