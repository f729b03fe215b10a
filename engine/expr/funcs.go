package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
)

// The catalogue of scalar functions and operators a Call may name.
//
// The binder calls Resolve(fn, argTypes): it answers the types each argument
// must be cast to (insert a Cast where it differs from the argument's type;
// Resolve never asks for a cast PostgreSQL would not make implicitly) and the
// result type to put in Call.T. Notation below: int = int2|int4|int8,
// num = Decimal128(P,S) or NumericType(), float = float4|float8,
// "common" = the common type of the arguments (CommonType).
//
//	operator / function          arguments                         result
//	+ - * / %                    int,int (same width after cast)   that int type
//	                             num,num                           +,-,%: Decimal128(38,max(S1,S2));
//	                                                               *: Decimal128(38,S1+S2);
//	                                                               /: NumericType() (or NumericType
//	                                                               whenever an argument is NumericType)
//	                             float4,float4                     float4
//	                             float8,float8 (any other float mix) float8
//	neg abs                      int | num | float                 same (Decimal128 keeps P,S)
//	= <> < <= > >=               common type of both               bool; decimals of any scales
//	                                                               compare without a cast
//	and or                       bool, bool, ... (2 or more)       bool
//	not                          bool                              bool
//	isnull isnotnull             any                               bool
//	is_distinct_from             common, common                    bool
//	is_not_distinct_from         common, common                    bool
//	like not_like ilike not_ilike text, text [, text escape]        bool (default escape \)
//	||                           text, text (a non-text side is cast to text) text
//	in                           x, v1, v2, ... (all common)       bool: x = any vi, NULL rules of =ANY
//	coalesce greatest least      common, ... (1 or more)           common
//	nullif                       a, common(a, b)                   type of a (compared in the common type)
//	lower upper                  text                              text
//	length character_length      text | bytea                      int4
//	substr substring             text, int4 [, int4]               text
//	strpos                       text, text                        int4
//	btrim trim ltrim rtrim       text [, text characters]          text
//	replace                      text, text, text                  text
//	concat                       any, ... (cast to text)           text (NULLs skipped)
//	round trunc                  float8                            float8
//	                             num                               Decimal128(38,0)
//	                             num, int4                         NumericType()
//	ceil ceiling floor           float8 | num                      float8 | Decimal128(38,0)
//	sqrt                         float8 | num                      float8 | NumericType()
//	power pow                    float8, float8 | num, num         float8 | NumericType() (numeric:
//	                                                               integral exponents only, else 0A000)
//	date_trunc                   text, timestamp | timestamptz     same as 2nd (timestamptz truncates
//	                                                               in the session TimeZone)
//	date_part                    text, date|timestamp|timestamptz|time   float8
//	extract                      text, date|timestamp|timestamptz|time   NumericType() (EXTRACT)
//
// int arguments of round/trunc/ceil/floor/sqrt/power are cast to float8, as
// PostgreSQL resolves them. now() is not a function here: the binder makes
// it a Lit. Casts (Cast nodes) are listed by CanCast.
//
// FunctionNames lists every name Resolve knows.
func FunctionNames() []string {
	return append([]string(nil), functionNames[:]...)
}

var functionNames = [...]string{
	"+", "-", "*", "/", "%", "neg",
	"=", "<>", "<", "<=", ">", ">=",
	"and", "or", "not", "isnull", "isnotnull", "is_distinct_from", "is_not_distinct_from",
	"like", "not_like", "ilike", "not_ilike", "||", "in",
	"coalesce", "nullif", "greatest", "least",
	"lower", "upper", "length", "character_length", "substr", "substring", "strpos",
	"trim", "btrim", "ltrim", "rtrim", "replace", "concat",
	"abs", "round", "trunc", "ceil", "ceiling", "floor", "sqrt", "power", "pow",
	"date_trunc", "date_part", "extract",
}

// Resolved is the answer of Resolve: the type each argument must have (cast
// when it differs) and the type of the result.
type Resolved struct {
	Args   []arrow.DataType
	Result arrow.DataType
}

// Resolve checks a call of fn with arguments of the given types and says
// which casts the arguments need and what the call returns. Errors are
// *pgerr.Error with PostgreSQL's SQLSTATE (42883 for an unknown function or
// operator, 42804 for types that cannot be matched).
func Resolve(fn string, args []arrow.DataType) (Resolved, error) {
	// Nanosecond timestamps compute as microseconds (PostgreSQL's
	// precision); dictionary-encoded columns as their values.
	norm := make([]arrow.DataType, len(args))
	for i, a := range args {
		norm[i] = normalize(a)
	}
	args = norm
	// Date/time/interval operators and functions the core does not type
	// (date + int, timestamp - interval, date_part on interval...).
	if r, ok, err := resolveDatetime(fn, args); ok {
		return r, err
	}
	// Checks of values written into recorded PostgreSQL types (pg_assign.go).
	if r, ok, err := resolvePGAssign(fn, args); ok {
		return r, err
	}
	// Spark's functions PostgreSQL lacks (spark_funcs.go).
	if r, ok, err := resolveSpark(fn, args); ok {
		return r, err
	}
	n := len(args)
	same := func(res arrow.DataType) (Resolved, error) {
		return Resolved{Args: append([]arrow.DataType(nil), args...), Result: res}, nil
	}
	all := func(t arrow.DataType, res arrow.DataType) (Resolved, error) {
		out := make([]arrow.DataType, n)
		for i := range out {
			out[i] = t
		}
		return Resolved{Args: out, Result: res}, nil
	}
	switch fn {
	case "+", "-", "*", "/", "%":
		if n != 2 {
			break
		}
		return resolveArith(fn, args[0], args[1])
	case "neg", "abs":
		if n != 1 {
			break
		}
		k := kindOf(args[0])
		if k.isNumber() {
			return same(args[0])
		}
		if k == kNull {
			return all(Float8, Float8)
		}
	case "=", "<>", "<", "<=", ">", ">=", "is_distinct_from", "is_not_distinct_from":
		if n != 2 {
			break
		}
		l, r, ok := compareTypes(args[0], args[1])
		if !ok {
			break
		}
		return Resolved{Args: []arrow.DataType{l, r}, Result: Bool}, nil
	case "and", "or":
		if n < 2 {
			break
		}
		if allKinds(args, kBool) {
			return all(Bool, Bool)
		}
	case "not":
		if n == 1 && allKinds(args, kBool) {
			return all(Bool, Bool)
		}
	case "isnull", "isnotnull":
		if n == 1 {
			return same(Bool)
		}
	case "like", "not_like", "ilike", "not_ilike":
		if (n == 2 || n == 3) && allKinds(args, kText) {
			return all(Text, Bool)
		}
	case "||":
		if n == 2 && kindOf(args[0]) == kBytea && kindOf(args[1]) == kBytea {
			return all(Bytea, Bytea)
		}
		if n == 2 && (isTextish(args[0]) || isTextish(args[1])) {
			return all(Text, Text)
		}
	case "in":
		if n < 2 {
			break
		}
		t, err := CommonType("IN", args)
		if err != nil {
			break
		}
		return all(t, Bool)
	case "coalesce", "greatest", "least":
		if n < 1 {
			break
		}
		t, err := CommonType(upperName(fn), args)
		if err != nil {
			return Resolved{}, err
		}
		return all(t, t)
	case "nullif":
		if n != 2 {
			break
		}
		// The result has the first argument's type (PostgreSQL's
		// nullif(int4, int8) is int4); the comparison widens as needed.
		_, r, ok := compareTypes(args[0], args[1])
		if !ok {
			break
		}
		if kindOf(args[0]) == kNull {
			return Resolved{Args: []arrow.DataType{r, r}, Result: r}, nil
		}
		return Resolved{Args: []arrow.DataType{args[0], r}, Result: args[0]}, nil
	case "lower", "upper":
		if n == 1 && allKinds(args, kText) {
			return all(Text, Text)
		}
	case "length", "character_length":
		if n == 1 && (allKinds(args, kText) || allKinds(args, kBytea)) {
			return same(Int4)
		}
	case "substr", "substring":
		if (n == 2 || n == 3) && isTextish(args[0]) && castsImplicitly(args[1], Int4) && (n == 2 || castsImplicitly(args[2], Int4)) {
			r := Resolved{Args: []arrow.DataType{Text, Int4, Int4}[:n], Result: Text}
			return r, nil
		}
		if fn == "substring" {
			// substring(text FROM pattern) (regex_funcs.go).
			if r, ok, err := resolveRegex(fn, args); ok {
				return r, err
			}
		}
	case "strpos":
		if n == 2 && allKinds(args, kText) {
			return all(Text, Int4)
		}
	case "trim", "btrim", "ltrim", "rtrim":
		if (n == 1 || n == 2) && allKinds(args, kText) {
			return all(Text, Text)
		}
	case "replace":
		if n == 3 && allKinds(args, kText) {
			return all(Text, Text)
		}
	case "concat":
		return all(Text, Text)
	case "round", "trunc":
		if n == 2 && kindOf(args[0]).isDecimal() && castsImplicitly(args[1], Int4) {
			return Resolved{Args: []arrow.DataType{args[0], Int4}, Result: NumericType()}, nil
		}
		fallthrough
	case "ceil", "ceiling", "floor":
		if n != 1 {
			break
		}
		switch k := kindOf(args[0]); {
		case k.isDecimal():
			return same(&arrow.Decimal128Type{Precision: 38, Scale: 0})
		case k.isInt() || k.isFloat() || k == kNull:
			return all(Float8, Float8)
		}
	case "sqrt":
		if n != 1 {
			break
		}
		switch k := kindOf(args[0]); {
		case k.isDecimal():
			return same(NumericType())
		case k.isInt() || k.isFloat() || k == kNull:
			return all(Float8, Float8)
		}
	case "power", "pow":
		if n != 2 {
			break
		}
		k0, k1 := kindOf(args[0]), kindOf(args[1])
		if k0.isNumber() && k1.isNumber() {
			if k0.isFloat() || k1.isFloat() {
				return all(Float8, Float8)
			}
			if k0.isDecimal() || k1.isDecimal() {
				return all(NumericType(), NumericType())
			}
			return all(Float8, Float8)
		}
	case "date_trunc":
		if n == 2 && kindOf(args[0]) == kText {
			switch kindOf(args[1]) {
			case kTimestamp, kTimestamptz:
				return same(args[1])
			case kDate:
				return Resolved{Args: []arrow.DataType{Text, Timestamptz}, Result: Timestamptz}, nil
			}
		}
	case "date_part", "extract":
		if n == 2 && kindOf(args[0]) == kText {
			switch kindOf(args[1]) {
			case kDate, kTimestamp, kTimestamptz, kTime:
				if fn == "extract" {
					return same(NumericType())
				}
				if kindOf(args[1]) == kDate {
					// date_part(text, date) is date_part(text, timestamp) in PostgreSQL.
					return Resolved{Args: []arrow.DataType{Text, Timestamp}, Result: Float8}, nil
				}
				return same(Float8)
			}
		}
	default:
		if r, ok, err := resolveMore(fn, args); ok {
			return r, err
		}
		return Resolved{}, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args))
	}
	if isOperator(fn) {
		return Resolved{}, operatorError(fn, args)
	}
	return Resolved{}, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// normalize maps a type to the one kernels compute on.
func normalize(t arrow.DataType) arrow.DataType {
	switch tt := t.(type) {
	case *arrow.DictionaryType:
		return normalize(tt.ValueType)
	case *arrow.TimestampType:
		if tt.Unit != arrow.Microsecond {
			return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: tt.TimeZone}
		}
	}
	return t
}

func resolveArith(fn string, l, r arrow.DataType) (Resolved, error) {
	kl, kr := kindOf(l), kindOf(r)
	if kl == kNull && kr == kNull {
		return Resolved{}, operatorError(fn, []arrow.DataType{l, r})
	}
	if kl == kNull {
		l, kl = r, kr
	}
	if kr == kNull {
		r, kr = l, kl
	}
	if !kl.isNumber() || !kr.isNumber() {
		return Resolved{}, operatorError(fn, []arrow.DataType{l, r})
	}
	switch {
	case kl.isFloat() || kr.isFloat():
		if fn == "%" {
			return Resolved{}, operatorError(fn, []arrow.DataType{l, r})
		}
		if kl == kFloat4 && kr == kFloat4 {
			return Resolved{Args: []arrow.DataType{Float4, Float4}, Result: Float4}, nil
		}
		return Resolved{Args: []arrow.DataType{Float8, Float8}, Result: Float8}, nil
	case kl.isInt() && kr.isInt():
		t := l
		if kr > kl {
			t = r
		}
		return Resolved{Args: []arrow.DataType{t, t}, Result: t}, nil
	}
	// At least one decimal: ints become numeric of scale 0.
	if kl.isInt() {
		l = intAsDecimal(kl)
	}
	if kr.isInt() {
		r = intAsDecimal(kr)
	}
	return Resolved{Args: []arrow.DataType{l, r}, Result: arithDecimalResult(fn, l, r)}, nil
}

// arithDecimalResult is the result type of a decimal operator.
func arithDecimalResult(fn string, l, r arrow.DataType) arrow.DataType {
	dl, okl := l.(*arrow.Decimal128Type)
	dr, okr := r.(*arrow.Decimal128Type)
	if !okl || !okr || fn == "/" {
		return NumericType()
	}
	switch fn {
	case "*":
		if dl.Scale+dr.Scale > 38 {
			return NumericType()
		}
		return &arrow.Decimal128Type{Precision: 38, Scale: dl.Scale + dr.Scale}
	default:
		return &arrow.Decimal128Type{Precision: 38, Scale: max(dl.Scale, dr.Scale)}
	}
}

func intAsDecimal(k kind) arrow.DataType {
	switch k {
	case kInt2:
		return &arrow.Decimal128Type{Precision: 5, Scale: 0}
	case kInt4:
		return &arrow.Decimal128Type{Precision: 10, Scale: 0}
	}
	return &arrow.Decimal128Type{Precision: 19, Scale: 0}
}

// compareTypes answers the types both sides of a comparison are cast to.
// Decimals of different scales stay as they are: the kernels compare them
// exactly.
func compareTypes(l, r arrow.DataType) (arrow.DataType, arrow.DataType, bool) {
	kl, kr := kindOf(l), kindOf(r)
	if kl.isDecimal() && kr.isDecimal() {
		return l, r, true
	}
	// An integer against a decimal of another scale becomes a scale-0
	// decimal (not both NumericType): the kernel compares across scales
	// without converting the column.
	if kl.isDecimal() && kr.isInt() && !isScale0(l) {
		return l, intAsDecimal(kr), true
	}
	if kl.isInt() && kr.isDecimal() && !isScale0(r) {
		return intAsDecimal(kl), r, true
	}
	t, err := CommonType("", []arrow.DataType{l, r})
	if err != nil {
		return nil, nil, false
	}
	return t, t, true
}

func isScale0(t arrow.DataType) bool {
	d, ok := t.(*arrow.Decimal128Type)
	return ok && d.Scale == 0
}

// CommonType is the type PostgreSQL resolves a set of values to (UNION,
// CASE, COALESCE, IN, VALUES...): what argument types are cast to. ctx names
// the construct for the error message ("CASE", "COALESCE"); the error is
// 42804 "CASE types integer and text cannot be matched".
func CommonType(ctx string, types []arrow.DataType) (arrow.DataType, error) {
	var res arrow.DataType
	for _, t := range types {
		if kindOf(t) == kNull {
			continue
		}
		if res == nil {
			res = t
			continue
		}
		u, ok := common2(res, t)
		if !ok {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched", ctx, PGTypeName(res), PGTypeName(t))
		}
		res = u
	}
	if res == nil {
		return Text, nil // all NULL: PostgreSQL resolves unknown to text
	}
	return res, nil
}

func common2(a, b arrow.DataType) (arrow.DataType, bool) {
	ka, kb := kindOf(a), kindOf(b)
	if arrow.TypeEqual(a, b) {
		return a, true
	}
	if da, la := listDepth(a); da > 0 {
		if db, lb := listDepth(b); db > 0 && da != db && arrow.TypeEqual(la, lb) {
			// Arrays of one element type and different numbers of
			// dimensions: the deeper, which the other's NULL and empty
			// values fit (depthCast).
			if db > da {
				return b, true
			}
			return a, true
		}
	}
	switch {
	case ka.isNumber() && kb.isNumber():
		switch {
		case ka.isFloat() || kb.isFloat():
			// PostgreSQL's implicit casts run int -> numeric -> real ->
			// double precision: real absorbs ints and numerics.
			if ka == kFloat8 || kb == kFloat8 {
				return Float8, true
			}
			return Float4, true
		case ka.isInt() && kb.isInt():
			if kb > ka {
				return b, true
			}
			return a, true
		}
		if ka.isInt() {
			a, ka = intAsDecimal(ka), kDecimal
		}
		if kb.isInt() {
			b, kb = intAsDecimal(kb), kDecimal
		}
		da, oka := a.(*arrow.Decimal128Type)
		db, okb := b.(*arrow.Decimal128Type)
		if oka && okb && da.Scale == db.Scale {
			return &arrow.Decimal128Type{Precision: max(da.Precision, db.Precision), Scale: da.Scale}, true
		}
		return NumericType(), true
	case ka == kb && ka != kInvalid:
		return a, true // e.g. FixedSizeBinary / String variants
	case (ka == kDate || ka == kTimestamp || ka == kTimestamptz) && (kb == kDate || kb == kTimestamp || kb == kTimestamptz):
		if ka == kTimestamptz || kb == kTimestamptz {
			return Timestamptz, true
		}
		return Timestamp, true
	}
	return nil, false
}

// castsImplicitly reports whether PostgreSQL would cast from to to without
// being asked (the int and numeric widening casts, same type, NULL).
func castsImplicitly(from, to arrow.DataType) bool {
	kf, kt := kindOf(from), kindOf(to)
	if kf == kNull || arrow.TypeEqual(from, to) {
		return true
	}
	if kf.isInt() && kt.isInt() {
		return kf <= kt
	}
	return false
}

func allKinds(ts []arrow.DataType, k kind) bool {
	for _, t := range ts {
		if kt := kindOf(t); kt != k && kt != kNull {
			return false
		}
	}
	return true
}

func isTextish(t arrow.DataType) bool {
	k := kindOf(t)
	return k == kText || k == kNull
}

func isOperator(fn string) bool {
	switch fn {
	case "+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">=", "||", "neg":
		return true
	}
	return false
}

func operatorError(fn string, args []arrow.DataType) *pgerr.Error {
	op := fn
	if fn == "neg" {
		op = "-"
	}
	var s string
	if len(args) == 1 {
		s = op + " " + PGTypeName(args[0])
	} else if len(args) == 2 {
		s = PGTypeName(args[0]) + " " + op + " " + PGTypeName(args[1])
	} else {
		s = signature(fn, args)
	}
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", s).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

func signature(fn string, args []arrow.DataType) string {
	s := fn + "("
	for i, a := range args {
		if i > 0 {
			s += ", "
		}
		s += PGTypeName(a)
	}
	return s + ")"
}

func upperName(fn string) string {
	b := []byte(fn)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// CanCast reports whether a Cast from one type to another is supported
// (PostgreSQL's explicit casts among the engine's types): between all
// number types, any type to text and text to any type, int4/int8 <-> bool,
// date <-> timestamp[tz], timestamp <-> timestamptz, timestamp[tz] -> date
// and -> time, decimal scale/precision changes, FixedSizeBinary/Binary <->
// bytea.
func CanCast(from, to arrow.DataType) bool {
	if can, ok := canCastJSON(from, to); ok {
		return can
	}
	if can, ok := canCastList(from, to); ok {
		return can
	}
	kf, kt := kindOf(from), kindOf(to)
	if kf == kInvalid || kt == kInvalid || kt == kNull {
		return false
	}
	if kf == kNull || kf == kt || kt == kText || kf == kText {
		return true
	}
	switch {
	case kf.isNumber() && kt.isNumber():
		return true
	case kf == kBool && (kt == kInt4 || kt == kInt8):
		return true
	case (kf == kInt4 || kf == kInt8) && kt == kBool:
		return true
	case (kf == kDate || kf == kTimestamp || kf == kTimestamptz) && (kt == kDate || kt == kTimestamp || kt == kTimestamptz):
		return true
	case (kf == kTimestamp || kf == kTimestamptz) && kt == kTime:
		return true
	case (kf == kTime && kt == kInterval) || (kf == kInterval && kt == kTime):
		return true
	case (kf == kBytea || kf == kFixed) && (kt == kBytea || kt == kFixed):
		return true
	}
	return false
}
