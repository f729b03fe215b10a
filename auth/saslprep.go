package auth

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// saslPrep prepares a password as PostgreSQL's pg_saslprep does (RFC 4013):
// ASCII passwords and passwords that are not valid UTF-8 are used as they
// are; others have non-ASCII spaces mapped to space, "mapped to nothing"
// characters removed and are NFKC-normalised. A password that contains a
// prohibited character after that is used as it is, PostgreSQL's fallback.
func saslPrep(password string) string {
	ascii := true
	for i := 0; i < len(password); i++ {
		if password[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii || !utf8.ValidString(password) {
		return password
	}
	mapped := make([]rune, 0, len(password))
	for _, r := range password {
		switch {
		case mappedToNothing(r):
			continue
		case r != ' ' && unicode.Is(unicode.Zs, r):
			mapped = append(mapped, ' ')
		default:
			mapped = append(mapped, r)
		}
	}
	prepared := norm.NFKC.String(string(mapped))
	for _, r := range prepared {
		if prohibited(r) {
			return password
		}
	}
	return prepared
}

// mappedToNothing is RFC 3454 table B.1.
func mappedToNothing(r rune) bool {
	switch r {
	case 0x00AD, 0x034F, 0x1806, 0x180B, 0x180C, 0x180D, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF:
		return true
	}
	return r >= 0xFE00 && r <= 0xFE0F
}

// prohibited approximates RFC 4013 section 2.3: control characters, private
// use, non-characters, surrogates and unassigned code points.
func prohibited(r rune) bool {
	switch {
	case unicode.IsControl(r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
		return true
	case r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
		return true
	case r >= 0x2FF0 && r <= 0x2FFB, r >= 0x200E && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x206A && r <= 0x206F:
		return true
	}
	return !unicode.Is(unicode.L, r) && !unicode.Is(unicode.M, r) && !unicode.Is(unicode.N, r) &&
		!unicode.Is(unicode.P, r) && !unicode.Is(unicode.S, r) && !unicode.Is(unicode.Z, r)
}
