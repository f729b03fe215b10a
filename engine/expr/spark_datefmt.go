package expr

import (
	"strconv"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// Spark's datetime patterns for formatting (date_format), as its
// "Datetime Patterns" page documents them: a run of one letter is one
// field, its length choosing the form; text in single quotes is literal
// ('' is a quote); [ and ] (optional sections) print their contents; any
// other character that is not a letter prints itself. Letters Spark does
// not format with (the week-based Y w u W e c, and those it never had) are
// 22007, as Spark refuses them.

type sparkPatItem struct {
	letter byte   // 0: literal text
	count  int    // run length
	text   string // literal text
}

var (
	sparkMonthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	sparkDayNames = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// parseSparkPattern splits a pattern into fields and literal text.
func parseSparkPattern(p string) ([]sparkPatItem, error) {
	items := []sparkPatItem{}
	lit := func(s string) {
		if n := len(items); n > 0 && items[n-1].letter == 0 {
			items[n-1].text += s
			return
		}
		items = append(items, sparkPatItem{text: s})
	}
	for i := 0; i < len(p); {
		ch := p[i]
		switch {
		case ch == '\'':
			if i+1 < len(p) && p[i+1] == '\'' {
				lit("'")
				i += 2
				continue
			}
			j := i + 1
			var s []byte
			for ; j < len(p); j++ {
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						s = append(s, '\'')
						j++
						continue
					}
					break
				}
				s = append(s, p[j])
			}
			if j >= len(p) {
				return nil, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid datetime pattern \"%s\": unterminated quoted text", p)
			}
			lit(string(s))
			i = j + 1
		case ch == '[' || ch == ']':
			i++
		case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(p) && p[j] == ch {
				j++
			}
			n := j - i
			if err := checkSparkLetter(p, ch, n); err != nil {
				return nil, err
			}
			items = append(items, sparkPatItem{letter: ch, count: n})
			i = j
		default:
			lit(string(ch))
			i++
		}
	}
	return items, nil
}

// checkSparkLetter refuses the letters and lengths Spark refuses.
func checkSparkLetter(p string, ch byte, n int) error {
	bad := func(why string) error {
		return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid datetime pattern \"%s\": %s", p, why)
	}
	switch ch {
	case 'Y', 'w', 'u', 'W', 'e', 'c':
		return bad("week-based pattern letter '" + string(ch) + "' is not supported (Spark refuses it since 3.0)")
	case 'G', 'y', 'D', 'M', 'L', 'd', 'Q', 'q', 'E', 'F', 'a', 'h', 'K', 'k', 'H', 'm', 's', 'S', 'V', 'z', 'O', 'X', 'x', 'Z':
	default:
		return bad("illegal pattern character '" + string(ch) + "'")
	}
	max := map[byte]int{'G': 5, 'F': 1, 'D': 3, 'M': 4, 'L': 4, 'd': 2, 'Q': 4, 'q': 4, 'E': 4, 'a': 1, 'h': 2, 'K': 2,
		'k': 2, 'H': 2, 'm': 2, 's': 2, 'S': 9, 'V': 2, 'z': 4, 'O': 4, 'X': 5, 'x': 5, 'Z': 5}[ch]
	if max != 0 && n > max || ch == 'V' && n != 2 || ch == 'O' && n != 1 && n != 4 {
		return bad("too many pattern letters: " + string(ch))
	}
	return nil
}

// appendSparkDatetime prints t by the pattern's items.
func appendSparkDatetime(dst []byte, t sparkTime, items []sparkPatItem, loc *time.Location) []byte {
	f := breakDown(t.local)
	pad := func(v int64, n int) {
		if v < 0 {
			dst = append(dst, '-')
			v = -v
		}
		dst = appendPad(dst, v, n)
	}
	for _, it := range items {
		n := it.count
		switch it.letter {
		case 0:
			dst = append(dst, it.text...)
		case 'G':
			if f.y <= 0 {
				dst = append(dst, map[bool]string{true: "Before Christ", false: "BC"}[n == 4]...)
			} else {
				dst = append(dst, map[bool]string{true: "Anno Domini", false: "AD"}[n == 4]...)
			}
		case 'y':
			y := f.y
			if y <= 0 {
				y = 1 - y // year of era
			}
			if n == 2 {
				pad(y%100, 2)
			} else {
				pad(y, n)
			}
		case 'D':
			pad(int64(sparkDateFields["dayofyear"](f)), n)
		case 'M', 'L':
			switch n {
			case 1, 2:
				pad(int64(f.mon), n)
			case 3:
				dst = append(dst, sparkMonthNames[f.mon-1][:3]...)
			default:
				dst = append(dst, sparkMonthNames[f.mon-1]...)
			}
		case 'd':
			pad(int64(f.d), n)
		case 'Q', 'q':
			q := int64((f.mon-1)/3 + 1)
			switch n {
			case 1, 2:
				pad(q, n)
			case 3:
				dst = append(dst, 'Q')
				dst = strconv.AppendInt(dst, q, 10)
			default:
				dst = append(dst, [...]string{"1st", "2nd", "3rd", "4th"}[q-1]...)
				dst = append(dst, " quarter"...)
			}
		case 'E':
			day := sparkDayNames[sparkDateFields["dayofweek"](f)-1]
			if n < 4 {
				day = day[:3]
			}
			dst = append(dst, day...)
		case 'F': // aligned day of week in month
			pad(int64((f.d-1)%7+1), n)
		case 'a':
			if f.h < 12 {
				dst = append(dst, "AM"...)
			} else {
				dst = append(dst, "PM"...)
			}
		case 'h':
			h := f.h % 12
			if h == 0 {
				h = 12
			}
			pad(int64(h), n)
		case 'K':
			pad(int64(f.h%12), n)
		case 'k':
			h := f.h
			if h == 0 {
				h = 24
			}
			pad(int64(h), n)
		case 'H':
			pad(int64(f.h), n)
		case 'm':
			pad(int64(f.mi), n)
		case 's':
			pad(f.us/usPerSec, n)
		case 'S':
			frac := appendPad(nil, (f.us%usPerSec)*1000, 9) // nanoseconds
			dst = append(dst, frac[:n]...)
		case 'V':
			dst = append(dst, sparkZoneID(loc)...)
		case 'z':
			name, _ := time.Unix(floorDiv(t.local-int64(t.offset)*usPerSec, usPerSec), 0).In(zoneOrUTC(loc)).Zone()
			if n == 4 && loc != nil && loc.String() != "UTC" {
				name = sparkZoneID(loc)
			} else if n == 4 {
				name = "Coordinated Universal Time"
			}
			dst = append(dst, name...)
		case 'O':
			dst = append(dst, "GMT"...)
			if t.offset != 0 {
				dst = appendSparkOffset(dst, t.offset, true, n == 1, n == 1)
			}
		case 'X', 'x':
			if it.letter == 'X' && t.offset == 0 {
				dst = append(dst, 'Z')
				break
			}
			dst = appendSparkOffset(dst, t.offset, n >= 3, n == 1, false)
		case 'Z':
			switch {
			case n == 4:
				dst = append(dst, "GMT"...)
				if t.offset != 0 {
					dst = appendSparkOffset(dst, t.offset, true, false, false)
				}
			case n == 5 && t.offset == 0:
				dst = append(dst, 'Z')
			default:
				dst = appendSparkOffset(dst, t.offset, n == 5, false, false)
			}
		}
	}
	return dst
}

// appendSparkOffset prints a zone offset: +HH, +HHMM or +HH:MM (and
// seconds when there are any); short drops zero minutes; unpadded prints
// the hour without a leading zero (GMT+8).
func appendSparkOffset(dst []byte, off int, colon, short, unpadded bool) []byte {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m, s := off/3600, off/60%60, off%60
	dst = append(dst, sign)
	if unpadded {
		dst = strconv.AppendInt(dst, int64(h), 10)
	} else {
		dst = appendPad(dst, int64(h), 2)
	}
	if short && m == 0 && s == 0 {
		return dst
	}
	if colon {
		dst = append(dst, ':')
	}
	dst = appendPad(dst, int64(m), 2)
	if s != 0 {
		if colon {
			dst = append(dst, ':')
		}
		dst = appendPad(dst, int64(s), 2)
	}
	return dst
}

func zoneOrUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// sparkZoneID is the session zone's id (UTC when unset).
func sparkZoneID(loc *time.Location) string {
	if loc == nil || loc.String() == "" || loc.String() == "Local" {
		return "UTC"
	}
	return loc.String()
}
