package translate

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
)

// typedParamsText gives the parameters wire decoded from binary their
// text form, for a statement that binds again with text values: what the
// type's input function reads back as the same value.
func typedParamsText(types []uint32, params []*string, typed []any) ([]*string, error) {
	out := append([]*string(nil), params...)
	for len(out) < len(typed) {
		out = append(out, nil)
	}
	for i, v := range typed {
		if v == nil {
			continue
		}
		var oid uint32
		if i < len(types) {
			oid = types[i]
		}
		s, err := typedParamText(oid, v)
		if err != nil {
			return nil, err
		}
		out[i] = &s
	}
	return out, nil
}

func typedParamText(oid uint32, v any) (string, error) {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x), nil
	case int16:
		return strconv.FormatInt(int64(x), 10), nil
	case int32:
		if oid == pgtypes.Date {
			return string(pgtext.AppendDate(nil, x)), nil
		}
		return strconv.FormatInt(int64(x), 10), nil
	case int64:
		switch oid {
		case pgtypes.Time:
			return string(pgtext.AppendTime(nil, x)), nil
		case pgtypes.Timestamp:
			return string(pgtext.AppendTimestamp(nil, x, pgtext.ISO)), nil
		case pgtypes.Timestamptz:
			return string(pgtext.AppendTimestamptz(nil, x, 0, pgtext.ISO)), nil
		}
		return strconv.FormatInt(x, 10), nil
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case string:
		return x, nil
	case []byte:
		if oid == pgtypes.UUID && len(x) == 16 {
			h := hex.EncodeToString(x)
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
		}
		return `\x` + hex.EncodeToString(x), nil
	case Numeric:
		return decimalText(catalog.Decimal{Unscaled: x.Unscaled, Scale: x.Scale}), nil
	case arrow.MonthDayNanoInterval:
		return string(pgtext.AppendInterval(nil, pgtext.Interval{Months: x.Months, Days: x.Days, Micros: x.Nanoseconds / 1000})), nil
	}
	return "", pgerr.New(pgerr.InternalError, "parameter value of Go type %s", fmt.Sprintf("%T", v))
}

// decimalText is a decimal's plain text form (digits, the scale's
// fractional digits).
func decimalText(d catalog.Decimal) string {
	if d.Unscaled == nil {
		return "0"
	}
	digits := new(big.Int).Abs(d.Unscaled).String()
	sign := ""
	if d.Unscaled.Sign() < 0 {
		sign = "-"
	}
	if d.Scale <= 0 {
		return sign + digits + strings.Repeat("0", -d.Scale)
	}
	if len(digits) <= d.Scale {
		digits = strings.Repeat("0", d.Scale-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-d.Scale] + "." + digits[len(digits)-d.Scale:]
}
