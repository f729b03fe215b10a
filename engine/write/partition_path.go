package write

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
)

// partitionPath returns the directory of a partition tuple under the data
// directory ("ts_day=2024-01-01/bucket=3"), each name and value escaped as
// the spec's partitionToPath does (form URL encoding of the human string).
func partitionPath(spec *catalog.PartitionSpec, transforms []*PartitionTransform, tuple []any) string {
	var b strings.Builder
	for i, f := range spec.Fields {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(formEscape(f.Name))
		b.WriteByte('=')
		b.WriteString(formEscape(humanString(transforms[i], tuple[i])))
	}
	return b.String()
}

// humanString renders a partition value as the spec's partition paths do.
func humanString(t *PartitionTransform, v any) string {
	if v == nil {
		return "null"
	}
	switch t.Transform.Name {
	case "year":
		return fmt.Sprintf("%04d", 1970+int(v.(int32)))
	case "month":
		m := int(v.(int32))
		y := floorDiv(int64(m), 12)
		return fmt.Sprintf("%04d-%02d", 1970+y, int64(m)-y*12+1)
	case "day":
		return time.Unix(int64(v.(int32))*86400, 0).UTC().Format("2006-01-02")
	case "hour":
		h := int64(v.(int32))
		return time.Unix(h*3600, 0).UTC().Format("2006-01-02-15")
	case "bucket":
		return strconv.Itoa(int(v.(int32)))
	}
	return valueString(t.Result, v)
}

// valueString renders a source-typed value (identity and truncate).
func valueString(p *catalog.PrimitiveType, v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int32:
		if p.ID == catalog.TDate {
			return time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02")
		}
		return strconv.FormatInt(int64(x), 10)
	case int64:
		switch p.ID {
		case catalog.TTime:
			return isoTime(time.Unix(0, x*1000).UTC(), "15:04:05")
		case catalog.TTimestamp:
			return isoTime(time.UnixMicro(x).UTC(), "2006-01-02T15:04:05")
		case catalog.TTimestamptz:
			return isoTime(time.UnixMicro(x).UTC(), "2006-01-02T15:04:05") + "+00:00"
		case catalog.TTimestampNs:
			return isoTime(time.Unix(0, x).UTC(), "2006-01-02T15:04:05")
		case catalog.TTimestamptzNs:
			return isoTime(time.Unix(0, x).UTC(), "2006-01-02T15:04:05") + "+00:00"
		}
		return strconv.FormatInt(x, 10)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case catalog.Decimal:
		return decimalString(x)
	case string:
		return x
	case [16]byte:
		return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	}
	return fmt.Sprint(v)
}

// isoTime formats t with layout, adding the fraction of a second only when
// it is not zero (ISO local time as Java prints it).
func isoTime(t time.Time, layout string) string {
	s := t.Format(layout)
	if ns := t.Nanosecond(); ns != 0 {
		frac := fmt.Sprintf("%09d", ns)
		switch {
		case ns%1_000_000 == 0:
			frac = frac[:3]
		case ns%1000 == 0:
			frac = frac[:6]
		}
		s += "." + frac
	}
	return s
}

// decimalString prints a decimal in plain notation with its scale.
func decimalString(d catalog.Decimal) string {
	u := new(big.Int).Set(d.Unscaled)
	neg := u.Sign() < 0
	s := u.Abs(u).String()
	if d.Scale > 0 {
		if len(s) <= d.Scale {
			s = strings.Repeat("0", d.Scale-len(s)+1) + s
		}
		s = s[:len(s)-d.Scale] + "." + s[len(s)-d.Scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// formEscape escapes s as application/x-www-form-urlencoded (what Java's
// URLEncoder produces): letters, digits and ".-*_" stay, a space becomes
// '+', every other byte of the UTF-8 encoding becomes %XX.
func formEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
