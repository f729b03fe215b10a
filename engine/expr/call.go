package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
)

// compileCall picks the kernel of a Call from its name and argument types.
func (c *compiler) compileCall(e *Call, args []node) (node, error) {
	if e.Go != nil {
		return &rowFnNode{args: args, fn: e.Go, t: e.T, name: e.Fn}, nil
	}
	ts := make([]arrow.DataType, len(e.Args))
	for i, a := range e.Args {
		ts[i] = a.Type()
		if dt, ok := ts[i].(*arrow.DictionaryType); ok {
			ts[i] = dt.ValueType
		}
	}
	k, err := c.kernel(e.Fn, ts, e.T)
	if err != nil {
		return nil, err
	}
	if e.Fn == "and" || e.Fn == "or" {
		return c.compileLogic(e, args), nil
	}
	return &callNode{args: args, fn: k}, nil
}

func wrongArgs(fn string, ts []arrow.DataType) error {
	if isOperator(fn) {
		return operatorError(fn, ts)
	}
	return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, ts))
}

func (c *compiler) kernel(fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, error) {
	if k, ok, err := kernelDatetime(c, fn, ts, res); ok {
		return k, err
	}
	if k, ok, err := kernelSpark(c, fn, ts, res); ok {
		return k, err
	}
	if k, ok := kernelPGAssign(fn); ok {
		return k, nil
	}
	n := len(ts)
	switch fn {
	case "+", "-", "*", "/", "%":
		if n != 2 {
			return nil, wrongArgs(fn, ts)
		}
		return arithKernel(fn, ts[0], ts[1], res)
	case "neg", "abs":
		if n != 1 || !kindOf(ts[0]).isNumber() {
			return nil, wrongArgs(fn, ts)
		}
		return unaryNum(fn, ts[0]), nil
	case "=", "<>", "<", "<=", ">", ">=":
		if n != 2 {
			return nil, wrongArgs(fn, ts)
		}
		return compareKernel(fn, ts[0], ts[1])
	case "is_distinct_from", "is_not_distinct_from":
		if n != 2 {
			return nil, wrongArgs(fn, ts)
		}
		return distinctKernel(fn == "is_not_distinct_from", ts[0], ts[1])
	case "and", "or":
		if n < 2 || !allKinds(ts, kBool) {
			return nil, wrongArgs(fn, ts)
		}
		return andOr(fn == "and"), nil
	case "not":
		if n != 1 || !allKinds(ts, kBool) {
			return nil, wrongArgs(fn, ts)
		}
		return notKernel, nil
	case "isnull", "isnotnull":
		if n != 1 {
			return nil, wrongArgs(fn, ts)
		}
		return nullTest(fn == "isnull"), nil
	case "like", "not_like", "ilike", "not_ilike":
		if (n != 2 && n != 3) || !allKinds(ts, kText) {
			return nil, wrongArgs(fn, ts)
		}
		return likeKernel(fn == "not_like" || fn == "not_ilike", fn == "ilike" || fn == "not_ilike"), nil
	case "||":
		if n == 2 && allKinds(ts, kBytea) {
			return byteaCatKernel, nil
		}
		if n != 2 || !allKinds(ts, kText) {
			return nil, wrongArgs(fn, ts)
		}
		return catKernel(), nil
	case "in":
		if n < 2 {
			return nil, wrongArgs(fn, ts)
		}
		for _, t := range ts[1:] {
			if _, err := compareKernel("=", ts[0], t); err != nil {
				return nil, err
			}
		}
		return inKernel, nil
	case "coalesce", "greatest", "least":
		if n < 1 {
			return nil, wrongArgs(fn, ts)
		}
		for _, t := range ts {
			if kindOf(t) != kNull && !arrow.TypeEqual(t, res) {
				return nil, pgerr.New(pgerr.DatatypeMismatch, "%s argument of type %s must be cast to %s", upperName(fn), PGTypeName(t), PGTypeName(res))
			}
		}
		switch fn {
		case "coalesce":
			return coalesceKernel(res), nil
		case "greatest":
			return extremeKernel(res, 1), nil
		}
		return extremeKernel(res, -1), nil
	case "nullif":
		if n != 2 {
			return nil, wrongArgs(fn, ts)
		}
		if _, err := compareKernel("=", ts[0], ts[1]); err == nil {
			return nullifKernel(res, nil), nil
		}
		// Compare the first argument widened to the second's type.
		widen, err := castKernel(ts[0], ts[1], c.tz)
		if err != nil {
			return nil, err
		}
		if _, err := compareKernel("=", ts[1], ts[1]); err != nil {
			return nil, err
		}
		return nullifKernel(res, widen), nil
	case "lower", "upper":
		if n != 1 || !allKinds(ts, kText) {
			return nil, wrongArgs(fn, ts)
		}
		return caseKernel(fn == "upper"), nil
	case "length", "character_length":
		if n != 1 || !(allKinds(ts, kText) || allKinds(ts, kBytea)) {
			return nil, wrongArgs(fn, ts)
		}
		return lengthKernel(ts[0]), nil
	case "substr", "substring":
		if fn == "substring" && n == 2 && allKinds(ts, kText) {
			// substring(text FROM pattern) (regex_funcs.go).
			if k, ok, err := kernelRegex(c, fn, ts, res); ok {
				return k, err
			}
		}
		if (n != 2 && n != 3) || !allKinds(ts[:1], kText) || !allKinds(ts[1:], kInt4) {
			return nil, wrongArgs(fn, ts)
		}
		return substrKernel(n), nil
	case "strpos":
		if n != 2 || !allKinds(ts, kText) {
			return nil, wrongArgs(fn, ts)
		}
		return strposKernel(), nil
	case "trim", "btrim", "ltrim", "rtrim":
		if (n != 1 && n != 2) || !allKinds(ts, kText) {
			return nil, wrongArgs(fn, ts)
		}
		return trimKernel(fn != "rtrim", fn != "ltrim", n), nil
	case "replace":
		if n != 3 || !allKinds(ts, kText) {
			return nil, wrongArgs(fn, ts)
		}
		return replaceKernel(), nil
	case "concat":
		if !allKinds(ts, kText) {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "concat arguments must be cast to text")
		}
		return concatKernel, nil
	case "round", "trunc", "ceil", "ceiling", "floor", "sqrt":
		if n == 2 && (fn == "round" || fn == "trunc") && kindOf(ts[0]).isDecimal() && kindOf(ts[1]) == kInt4 {
			return decRoundToKernel(fn), nil
		}
		if n != 1 {
			return nil, wrongArgs(fn, ts)
		}
		switch k := kindOf(ts[0]); {
		case k == kFloat8:
			return mapFloat[float64, float64](Float8, floatRounder(fn)), nil
		case k.isDecimal() && fn == "sqrt":
			return decSqrtKernel(), nil
		case k.isDecimal():
			return decRoundKernel(fn, res), nil
		}
		return nil, wrongArgs(fn, ts)
	case "power", "pow":
		if n != 2 {
			return nil, wrongArgs(fn, ts)
		}
		if kindOf(ts[0]) == kFloat8 && kindOf(ts[1]) == kFloat8 {
			return floatPower, nil
		}
		if kindOf(ts[0]).isDecimal() && kindOf(ts[1]).isDecimal() {
			return decPowerKernel(), nil
		}
		return nil, wrongArgs(fn, ts)
	case "date_trunc":
		if n != 2 || kindOf(ts[0]) != kText {
			return nil, wrongArgs(fn, ts)
		}
		if k := kindOf(ts[1]); k == kTimestamp || k == kTimestamptz {
			return dateTruncKernel(ts[1], c.tz), nil
		}
		return nil, wrongArgs(fn, ts)
	case "date_part", "extract":
		if n != 2 || kindOf(ts[0]) != kText {
			return nil, wrongArgs(fn, ts)
		}
		switch kindOf(ts[1]) {
		case kDate, kTime, kTimestamp, kTimestamptz:
			return datePartKernel(ts[1], fn == "extract", c.tz), nil
		}
		return nil, wrongArgs(fn, ts)
	}
	if k, ok, err := c.kernelMore(fn, ts, res); ok {
		return k, err
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, ts))
}
