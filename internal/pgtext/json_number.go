package pgtext

import (
	"github.com/icegate/icegate/internal/pgerr"
)

// numeric's limits (PostgreSQL's numeric.c): at most 131072 digits
// before the decimal point, 16383 after it, and an exponent below
// (2^31-1)/2 in magnitude while reading.
const (
	numericMaxIntDigits = 131072
	numericMaxScale     = 16383
	numericMaxExponent  = 1<<30 - 1
)

// decimalParts splits decimal text [+-]int[.frac][(e|E)[+-]exp] into its
// sign, digit runs and exponent; ok is false when the exponent is outside
// numeric's reading range.
func decimalParts(txt []byte) (neg bool, intPart, fracPart []byte, exp int, ok bool) {
	if len(txt) > 0 && (txt[0] == '-' || txt[0] == '+') {
		neg = txt[0] == '-'
		txt = txt[1:]
	}
	k := 0
	for k < len(txt) && txt[k] >= '0' && txt[k] <= '9' {
		k++
	}
	intPart = txt[:k]
	if k < len(txt) && txt[k] == '.' {
		s := k + 1
		for k = s; k < len(txt) && txt[k] >= '0' && txt[k] <= '9'; k++ {
		}
		fracPart = txt[s:k]
	}
	if k < len(txt) && (txt[k] == 'e' || txt[k] == 'E') {
		e := txt[k+1:]
		eneg := false
		if len(e) > 0 && (e[0] == '+' || e[0] == '-') {
			eneg = e[0] == '-'
			e = e[1:]
		}
		for _, ch := range e {
			exp = exp*10 + int(ch-'0')
			if exp >= numericMaxExponent {
				return neg, intPart, fracPart, 0, false
			}
		}
		if eneg {
			exp = -exp
		}
	}
	return neg, intPart, fracPart, exp, true
}

// AppendNumericText appends decimal text (a JSON number, or a float's
// digits with an exponent) as numeric_in then numeric_out print it: no
// exponent, display scale max(0, fraction digits - exponent), no negative
// zero. The text must be within numeric's range (see checkNumericText).
func AppendNumericText(dst, txt []byte) []byte {
	neg, intPart, fracPart, exp, _ := decimalParts(txt)
	scale := max(0, len(fracPart)-exp)
	point := len(intPart) + exp // digits before the decimal point
	digit := func(p int) byte { // digit at position p of intPart+fracPart
		switch {
		case p < 0:
			return '0'
		case p < len(intPart):
			return intPart[p]
		case p-len(intPart) < len(fracPart):
			return fracPart[p-len(intPart)]
		}
		return '0'
	}
	if neg && !allZeroDigits(intPart, fracPart) {
		dst = append(dst, '-')
	}
	// The integer part, positions [0, point), without leading zeros
	// (positions past the digits are zeros: skip them while leading).
	first := 0
	for first < min(point, len(intPart)+len(fracPart)) && digit(first) == '0' {
		first++
	}
	if first >= min(point, len(intPart)+len(fracPart)) {
		dst = append(dst, '0')
	} else {
		for p := first; p < point; p++ {
			dst = append(dst, digit(p))
		}
	}
	if scale > 0 {
		dst = append(dst, '.')
		for p := point; p < point+scale; p++ {
			dst = append(dst, digit(p))
		}
	}
	return dst
}

func allZeroDigits(parts ...[]byte) bool {
	for _, part := range parts {
		for _, ch := range part {
			if ch != '0' {
				return false
			}
		}
	}
	return true
}

// checkNumericText reports 22003 for decimal text numeric cannot hold, as
// numeric_in does: an exponent out of range, more than 16383 digits after
// the point, or more than 131072 significant digits before it.
func checkNumericText(txt []byte) error {
	_, intPart, fracPart, exp, ok := decimalParts(txt)
	if ok && len(fracPart)-exp <= numericMaxScale {
		// Digits before the point once leading zeros are gone.
		lead := 0
		for lead < len(intPart) && intPart[lead] == '0' {
			lead++
		}
		if lead == len(intPart) {
			lead += countLeadingZeros(fracPart)
		}
		if lead == len(intPart)+len(fracPart) || len(intPart)+exp-lead <= numericMaxIntDigits {
			return nil
		}
	}
	return pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
}

func countLeadingZeros(b []byte) int {
	n := 0
	for n < len(b) && b[n] == '0' {
		n++
	}
	return n
}

// numberIsCanonical reports JSON number text that numeric prints as it is
// written: no exponent and not a negative zero.
func numberIsCanonical(txt []byte) bool {
	zero := true
	for _, ch := range txt {
		switch ch {
		case 'e', 'E':
			return false
		case '-', '.', '0':
		default:
			zero = false
		}
	}
	return !zero || txt[0] != '-'
}
