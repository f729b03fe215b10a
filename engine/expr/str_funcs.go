package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
)

// Text functions beyond the core catalogue. Notation as in funcs.go; "any"
// arguments are cast to text.
//
//	function                          arguments                       result
//	position                          text, text                      int4 (POSITION(b IN a) is position(a, b))
//	char_length                       text                            int4
//	octet_length bit_length           text | bytea                    int4
//	concat_ws                         text, any, ...                  text (NULL separator: NULL; NULL values skipped)
//	split_part                        text, text, int4                text (negative field counts from the end)
//	left right repeat                 text, int4                      text
//	lpad rpad                         text, int4 [, text fill]        text (fill defaults to ' ')
//	reverse initcap                   text                            text
//	quote_ident                       text                            text
//	quote_literal quote_nullable      any                             text
//	md5                               text | bytea                    text (hex)
//	ascii                             text                            int4
//	chr                               int4                            text
//	starts_with ^@                    text, text                      bool
//	translate                         text, text, text                text
//	overlay                           text, text, int4 [, int4]       text
//	format                            text, any, ...                  text (%s %I %L %%, n$ positions, width, -)
//	to_hex                            int4 | int8                     text
//	encode                            bytea, text format              text (hex, base64, escape)
//	decode                            text, text format               bytea
//	sha224 sha256 sha384 sha512       bytea                           bytea

func resolveText(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	ok := func(as []arrow.DataType, res arrow.DataType) (Resolved, bool, error) {
		return Resolved{Args: as, Result: res}, true, nil
	}
	texts := func(k int) []arrow.DataType {
		out := make([]arrow.DataType, k)
		for i := range out {
			out[i] = Text
		}
		return out
	}
	isInt4 := func(t arrow.DataType) bool { return castsImplicitly(t, Int4) }
	switch fn {
	case "position":
		if n == 2 && allKinds(args, kText) {
			return ok(texts(2), Int4)
		}
	case "char_length":
		if n == 1 && allKinds(args, kText) {
			return ok(texts(1), Int4)
		}
	case "octet_length", "bit_length":
		if n == 1 && kindOf(args[0]) == kBytea {
			return ok([]arrow.DataType{Bytea}, Int4)
		}
		if n == 1 && allKinds(args, kText) {
			return ok(texts(1), Int4)
		}
	case "concat_ws":
		if n >= 2 && isTextish(args[0]) {
			return ok(outputArgs(args), Text)
		}
	case "split_part":
		if n == 3 && allKinds(args[:2], kText) && isInt4(args[2]) {
			return ok([]arrow.DataType{Text, Text, Int4}, Text)
		}
	case "left", "right", "repeat":
		if n == 2 && isTextish(args[0]) && isInt4(args[1]) {
			return ok([]arrow.DataType{Text, Int4}, Text)
		}
	case "lpad", "rpad":
		if (n == 2 || n == 3) && isTextish(args[0]) && isInt4(args[1]) && (n == 2 || isTextish(args[2])) {
			return ok([]arrow.DataType{Text, Int4, Text}[:n], Text)
		}
	case "reverse", "initcap", "quote_ident":
		if n == 1 && allKinds(args, kText) {
			return ok(texts(1), Text)
		}
	case "quote_literal", "quote_nullable":
		if n == 1 && kindOf(args[0]) != kInvalid {
			return ok(texts(1), Text)
		}
	case "md5":
		if n == 1 && kindOf(args[0]) == kBytea {
			return ok([]arrow.DataType{Bytea}, Text)
		}
		if n == 1 && allKinds(args, kText) {
			return ok(texts(1), Text)
		}
	case "ascii":
		if n == 1 && allKinds(args, kText) {
			return ok(texts(1), Int4)
		}
	case "chr":
		if n == 1 && isInt4(args[0]) {
			return ok([]arrow.DataType{Int4}, Text)
		}
	case "starts_with", "^@":
		if n == 2 && allKinds(args, kText) {
			return ok(texts(2), Bool)
		}
		if fn == "^@" {
			return Resolved{}, true, operatorError(fn, args)
		}
	case "translate":
		if n == 3 && allKinds(args, kText) {
			return ok(texts(3), Text)
		}
	case "overlay":
		if (n == 3 || n == 4) && allKinds(args[:2], kText) && isInt4(args[2]) && (n == 3 || isInt4(args[3])) {
			return ok([]arrow.DataType{Text, Text, Int4, Int4}[:n], Text)
		}
	case "format":
		if n >= 1 && isTextish(args[0]) {
			return ok(outputArgs(args), Text)
		}
	case "to_hex":
		if n != 1 {
			break
		}
		switch kindOf(args[0]) {
		case kInt4:
			return ok([]arrow.DataType{Int4}, Text)
		case kInt8:
			return ok([]arrow.DataType{Int8}, Text)
		case kInt2, kNull:
			return Resolved{}, true, pgerr.New(pgerr.AmbiguousFunction, "function to_hex(%s) is not unique", PGTypeName(args[0])).
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
		}
	case "encode":
		if n == 2 && (kindOf(args[0]) == kBytea || kindOf(args[0]) == kNull) && isTextish(args[1]) {
			return ok([]arrow.DataType{Bytea, Text}, Text)
		}
	case "decode":
		if n == 2 && allKinds(args, kText) {
			return ok(texts(2), Bytea)
		}
	case "sha224", "sha256", "sha384", "sha512":
		if n == 1 && (kindOf(args[0]) == kBytea || kindOf(args[0]) == kNull) {
			return ok([]arrow.DataType{Bytea}, Bytea)
		}
	default:
		return Resolved{}, false, nil
	}
	return Resolved{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// outputArgs are the argument types of format and concat_ws, which print
// their values with the types' output functions: the first argument and
// values of most types are cast to text (the same text), booleans stay
// booleans (printed t and f, where a cast to text says true and false).
func outputArgs(args []arrow.DataType) []arrow.DataType {
	out := make([]arrow.DataType, len(args))
	for i, a := range args {
		out[i] = Text
		if i > 0 && kindOf(a) == kBool {
			out[i] = Bool
		}
	}
	return out
}

func kernelText(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	var k kernelFn
	switch fn {
	case "position":
		k = strposKernel()
	case "char_length":
		k = lengthKernel(Text)
	case "octet_length":
		k = strictInt4(func(r *rowArgs, i int) int32 { return int32(len(r.s(0, i))) })
	case "bit_length":
		k = strictInt4(func(r *rowArgs, i int) int32 { return int32(8 * len(r.s(0, i))) })
	case "concat_ws":
		k = concatWSKernel
	case "split_part":
		k = strictText(splitPart)
	case "left":
		k = strictText(leftChars)
	case "right":
		k = strictText(rightChars)
	case "repeat":
		k = strictText(repeatText)
	case "lpad":
		k = strictText(padText(true, len(ts)))
	case "rpad":
		k = strictText(padText(false, len(ts)))
	case "reverse":
		k = strictText(reverseText)
	case "initcap":
		k = strictText(initcap)
	case "quote_ident":
		k = strictText(func(r *rowArgs, i int, dst []byte) ([]byte, error) { return appendQuotedIdent(dst, r.s(0, i)), nil })
	case "quote_literal":
		k = strictText(func(r *rowArgs, i int, dst []byte) ([]byte, error) { return appendQuotedLiteral(dst, r.s(0, i)), nil })
	case "quote_nullable":
		k = quoteNullableKernel
	case "md5":
		k = strictText(md5Hex)
	case "ascii":
		k = strictInt4(asciiOf)
	case "chr":
		k = strictText(chrOf)
	case "starts_with", "^@":
		k = startsWithKernel
	case "translate":
		k = strictText(translateText)
	case "overlay":
		k = strictText(overlayText(len(ts)))
	case "format":
		k = formatKernel
	case "to_hex":
		k = toHexKernel(ts[0])
	case "encode":
		k = strictText(encodeBytes)
	case "decode":
		k = strictBytea(decodeText)
	case "sha224", "sha256", "sha384", "sha512":
		k = strictBytea(shaOf(fn))
	default:
		return nil, false, nil
	}
	return k, true, nil
}
