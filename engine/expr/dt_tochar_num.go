package expr

import (
	"math"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// to_char of numbers: the template patterns 9 0 . D , G S MI PL SG PR FM
// TH, quoted text and literal characters, as PostgreSQL's NUM_processor
// prints them (one leading position for the sign unless a sign pattern
// places it, '#' in every digit position when the integer part does not
// fit).

type numTok struct {
	kind byte // '9' '0' '.' ',' 'S' 'M' (MI) 'P' (PL) 'G' (SG) 'R' (PR) 'T' (TH) 't' (th) 'l' literal
	text string
}

type numFormat struct {
	toks         []numTok
	intDigits    int
	fracDigits   int
	zeroStart    int // first int position printing zeros (intDigits = none)
	lastFracZero int // fraction positions up to this one are '0' (kept under FM)
	point        bool
	fm           bool
	sign         byte // 0 = default leading slot; else the sign token kind
	signAtEnd    bool // an S after the digits
	vDigits      int  // digits after V: the value is multiplied by 10^vDigits
	v            bool
}

func parseNumFormat(f string) (numFormat, error) {
	nf := numFormat{zeroStart: -1}
	for p := 0; p < len(f); {
		rest := f[p:]
		up := strings.ToUpper(rest)
		switch {
		case f[p] == '9' || f[p] == '0':
			if nf.v {
				nf.vDigits++
			}
			if nf.point {
				if f[p] == '0' {
					nf.lastFracZero = nf.fracDigits + 1
				}
				nf.fracDigits++
			} else {
				if f[p] == '0' && nf.zeroStart < 0 {
					nf.zeroStart = nf.intDigits
				}
				nf.intDigits++
			}
			nf.toks = append(nf.toks, numTok{kind: f[p]})
			p++
		case f[p] == '.' || up[0] == 'D':
			if nf.point {
				return nf, pgerr.New(pgerr.SyntaxError, "multiple decimal points")
			}
			nf.point = true
			nf.toks = append(nf.toks, numTok{kind: '.'})
			p++
		case f[p] == ',' || up[0] == 'G':
			nf.toks = append(nf.toks, numTok{kind: ','})
			p++
		case strings.HasPrefix(up, "FM"):
			nf.fm = true
			p += 2
		case strings.HasPrefix(up, "MI"), strings.HasPrefix(up, "PL"), strings.HasPrefix(up, "SG"), strings.HasPrefix(up, "PR"):
			k := map[string]byte{"MI": 'M', "PL": 'P', "SG": 'G', "PR": 'R'}[up[:2]]
			if k != 'P' {
				nf.sign = k
			}
			nf.toks = append(nf.toks, numTok{kind: k})
			p += 2
		case up[0] == 'S':
			nf.sign = 'S'
			nf.signAtEnd = nf.intDigits+nf.fracDigits > 0
			nf.toks = append(nf.toks, numTok{kind: 'S'})
			p++
		case strings.HasPrefix(rest, "TH") || strings.HasPrefix(rest, "th"):
			nf.toks = append(nf.toks, numTok{kind: rest[0]})
			p += 2
		case up[0] == 'V' && !nf.point:
			nf.v = true
			p++
		case strings.HasPrefix(up, "EEEE"), up[0] == 'V', strings.HasPrefix(up, "RN"), up[0] == 'L':
			return nf, pgerr.Unsupported("to_char number pattern %q", rest[:1])
		case f[p] == '"':
			q := p + 1
			var lit []byte
			for q < len(f) && f[q] != '"' {
				if f[q] == '\\' && q+1 < len(f) {
					q++
				}
				lit = append(lit, f[q])
				q++
			}
			nf.toks = append(nf.toks, numTok{kind: 'l', text: string(lit)})
			p = q + 1
		default:
			nf.toks = append(nf.toks, numTok{kind: 'l', text: f[p : p+1]})
			p++
		}
	}
	if nf.zeroStart < 0 {
		nf.zeroStart = nf.intDigits
	}
	return nf, nil
}

// numRoundDigits rounds the unsigned decimal text "123.456" to frac fraction
// digits, half away from zero, and returns the integer digits (no leading
// zeros; "" for zero) and exactly frac fraction digits.
func numRoundDigits(s string, frac int) (string, string) {
	ip, fp, _ := strings.Cut(s, ".")
	up := false
	if len(fp) > frac {
		up = fp[frac] >= '5'
		fp = fp[:frac]
	}
	for len(fp) < frac {
		fp += "0"
	}
	digits := []byte(ip + fp)
	if up {
		k := len(digits) - 1
		for ; k >= 0; k-- {
			if digits[k] == '9' {
				digits[k] = '0'
				continue
			}
			digits[k]++
			break
		}
		if k < 0 {
			digits = append([]byte{'1'}, digits...)
		}
	}
	is := strings.TrimLeft(string(digits[:len(digits)-frac]), "0")
	return is, string(digits[len(digits)-frac:])
}

// appendNumChar formats a number given as sign and unsigned digits text.
// Fraction positions from maxFrac on print nothing (a float's digits
// beyond its precision).
func appendNumChar(dst []byte, nf numFormat, neg bool, abs string, maxFrac int) []byte {
	if nf.vDigits > 0 {
		abs = shiftPoint(abs, nf.vDigits)
	}
	intStr, fracStr := numRoundDigits(abs, nf.fracDigits)
	if intStr == "" && strings.Trim(fracStr, "0") == "" {
		neg = false
	}
	overflow := len(intStr) > nf.intDigits
	if intStr == "" && !nf.point && nf.intDigits > 0 && nf.zeroStart >= nf.intDigits {
		intStr = "0"
	}
	// Under FM, fraction positions of 9 drop trailing zeros.
	fracKeep := nf.fracDigits
	if nf.fm {
		for fracKeep > nf.lastFracZero && fracStr[fracKeep-1] == '0' {
			fracKeep--
		}
	}
	signCh := func(pos, negc byte) byte {
		if neg {
			return negc
		}
		return pos
	}
	started := false // a digit (or the point) has been written
	wroteSign := false
	leading := func() {
		if started {
			return
		}
		started = true
		switch nf.sign {
		case 0:
			if neg {
				dst = append(dst, '-')
			} else if !nf.fm {
				dst = append(dst, ' ')
			}
		case 'R':
			if neg {
				dst = append(dst, '<')
			} else if !nf.fm {
				dst = append(dst, ' ')
			}
		case 'S':
			if !nf.signAtEnd {
				dst = append(dst, signCh('+', '-'))
				wroteSign = true
			}
		}
	}
	intPos, fracPos := 0, 0
	for _, t := range nf.toks {
		switch t.kind {
		case '9', '0':
			if fracPos > 0 || (nf.point && intPos >= nf.intDigits) {
				// A fraction position.
				k := fracPos
				fracPos++
				if overflow {
					dst = append(dst, '#')
					continue
				}
				if k < fracKeep && k < maxFrac {
					dst = append(dst, fracStr[k])
				}
				continue
			}
			k := intPos
			intPos++
			if overflow {
				if k == 0 {
					leading()
				}
				dst = append(dst, '#')
				continue
			}
			d := k - (nf.intDigits - len(intStr))
			switch {
			case d >= 0:
				leading()
				dst = append(dst, intStr[d])
			case k >= nf.zeroStart:
				leading()
				dst = append(dst, '0')
			case !nf.fm:
				dst = append(dst, ' ')
			}
		case '.':
			leading()
			dst = append(dst, '.')
			intPos = nf.intDigits
		case ',':
			if started {
				dst = append(dst, ',')
			} else if !nf.fm {
				dst = append(dst, ' ')
			}
		case 'S':
			if nf.signAtEnd && !wroteSign {
				dst = append(dst, signCh('+', '-'))
			}
		case 'M':
			if neg {
				dst = append(dst, '-')
			} else if !nf.fm {
				dst = append(dst, ' ')
			}
		case 'P':
			if !neg {
				dst = append(dst, '+')
			} else if !nf.fm {
				dst = append(dst, ' ')
			}
		case 'G':
			dst = append(dst, signCh('+', '-'))
		case 'R':
			if neg {
				dst = append(dst, '>')
			} else if !nf.fm {
				dst = append(dst, ' ')
			}
		case 'T', 't':
			if !overflow && nf.fracDigits == 0 && intStr != "" {
				n, _ := strconv.ParseInt(intStr[max(0, len(intStr)-2):], 10, 64)
				dst = append(dst, dtOrdinal(n, t.kind == 'T')...)
			}
		case 'l':
			dst = append(dst, t.text...)
		}
	}
	return dst
}

// toCharNumberKernel is to_char(int | numeric | float, text).
func toCharNumberKernel() kernelFn {
	return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
		r := readNum(args[0])
		f := dtText(args[1])
		return func(dst []byte, i int) ([]byte, error) {
			nf, err := parseNumFormat(f(i))
			if err != nil {
				return nil, err
			}
			var neg bool
			var abs string
			switch {
			case r.k.isInt():
				v := r.int(i)
				neg = v < 0
				abs = strconv.FormatUint(dtAbsU64(v), 10)
			case r.k.isFloat():
				v := r.float(i)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return appendNumChar(dst, nf, false, strings.Repeat("9", nf.intDigits+1), nf.fracDigits), nil
				}
				neg = v < 0 || (v == 0 && math.Signbit(v))
				a := math.Abs(v)
				digits := 15
				if r.k == kFloat4 {
					digits = 6
				}
				il := len(strconv.FormatFloat(a, 'f', 0, 64))
				if il == 1 && a < 1 {
					il = 0
				}
				frac := min(nf.fracDigits, max(0, digits-il))
				return appendNumChar(dst, nf, neg, strconv.FormatFloat(a, 'f', frac, 64), frac), nil
			default:
				u, s := r.dec.get(i)
				txt := string(appendDecimal(nil, u, s))
				neg = strings.HasPrefix(txt, "-")
				abs = strings.TrimPrefix(txt, "-")
			}
			return appendNumChar(dst, nf, neg, abs, nf.fracDigits), nil
		}
	})
}

func dtAbsU64(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// shiftPoint multiplies the unsigned decimal text by 10^n.
func shiftPoint(s string, n int) string {
	ip, fp, _ := strings.Cut(s, ".")
	for len(fp) < n {
		fp += "0"
	}
	return ip + fp[:n] + "." + fp[n:]
}
