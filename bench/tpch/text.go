package tpch

import (
	"math/rand/v2"
	"strconv"
)

// appendSignedCents appends v/100 with two decimals, v may be negative.
func appendSignedCents(buf []byte, v int64) []byte {
	if v < 0 {
		buf = append(buf, '-')
		v = -v
	}
	return appendCents(buf, v)
}

// appendPadded appends prefix and v zero-padded to width digits.
func appendPadded(buf []byte, prefix string, v int64, width int) []byte {
	buf = append(buf, prefix...)
	var d [20]byte
	s := strconv.AppendInt(d[:0], v, 10)
	for i := len(s); i < width; i++ {
		buf = append(buf, '0')
	}
	return append(buf, s...)
}

// appendVString appends the specification's random v-string: min to max
// characters of vChars.
func appendVString(buf []byte, r *rand.Rand, minLen, maxLen int) []byte {
	n := minLen + r.IntN(maxLen-minLen+1)
	for range n {
		buf = append(buf, vChars[r.IntN(len(vChars))])
	}
	return buf
}

// appendText appends a comment of random words of length min..max.
func appendText(buf []byte, r *rand.Rand, minLen, maxLen int) []byte {
	return appendComment(buf, r, minLen+r.IntN(maxLen-minLen+1))
}

// appendPhone appends a phone number whose country code is nation+10.
func appendPhone(buf []byte, r *rand.Rand, nation int) []byte {
	buf = strconv.AppendInt(buf, int64(nation+10), 10)
	buf = append(buf, '-')
	buf = strconv.AppendInt(buf, int64(100+r.IntN(900)), 10)
	buf = append(buf, '-')
	buf = strconv.AppendInt(buf, int64(100+r.IntN(900)), 10)
	buf = append(buf, '-')
	return strconv.AppendInt(buf, int64(1000+r.IntN(9000)), 10)
}

// appendAcctbal appends a random account balance, -999.99 to 9999.99.
func appendAcctbal(buf []byte, r *rand.Rand) []byte {
	return appendSignedCents(buf, -99_999+r.Int64N(1_099_999))
}
