package pgtext

import (
	"strings"
	"testing"
	"time"
)

func TestAppendDate(t *testing.T) {
	for _, c := range dateCases {
		if got := string(AppendDate([]byte("x"), c.days)); got != "x"+c.want {
			t.Errorf("AppendDate(%d) = %q, want %q", c.days, got[1:], c.want)
		}
	}
}

func TestAppendTime(t *testing.T) {
	for _, c := range timeCases {
		if got := string(AppendTime(nil, c.us)); got != c.want {
			t.Errorf("AppendTime(%d) = %q, want %q", c.us, got, c.want)
		}
	}
}

// TestAppendTimeTZ uses what PostgreSQL 15 printed for
// SELECT t::text, extract(epoch from t::time), extract(timezone from t).
func TestAppendTimeTZ(t *testing.T) {
	for _, c := range []struct {
		us   int64
		off  int
		want string
	}{
		{43200000000, 19800, "12:00:00+05:30"},
		{0, 0, "00:00:00+00"},
		{86399999999, -50400, "23:59:59.999999-14"},
		{3723500000, -10800, "01:02:03.5-03"},
		{43200000000, 19815, "12:00:00+05:30:15"},
		{86400000000, -3600, "24:00:00-01"},
	} {
		if got := string(AppendTimeTZ(nil, c.us, c.off)); got != c.want {
			t.Errorf("AppendTimeTZ(%d, %d) = %q, want %q", c.us, c.off, got, c.want)
		}
	}
}

func TestAppendTimestamp(t *testing.T) {
	for _, c := range timestampCases {
		if got := string(AppendTimestamp(nil, c.us, ISO)); got != c.want {
			t.Errorf("AppendTimestamp(%d, ISO) = %q, want %q", c.us, got, c.want)
		}
		if got := string(AppendTimestamp(nil, c.us, XSD)); got != c.js {
			t.Errorf("AppendTimestamp(%d, XSD) = %q, want %q", c.us, got, c.js)
		}
	}
}

// TestAppendTimestamptz resolves each zone with ParseTimeZone, as the
// TimeZone setting does, and prints in it, through ZoneCache and OffsetAt.
func TestAppendTimestamptz(t *testing.T) {
	caches := map[string]*ZoneCache{}
	for _, c := range timestamptzCases {
		loc, err := ParseTimeZone(c.zone)
		if err != nil {
			t.Errorf("ParseTimeZone(%q): %v", c.zone, err)
			continue
		}
		z := caches[c.zone]
		if z == nil {
			z = &ZoneCache{Loc: loc}
			caches[c.zone] = z
		}
		off := OffsetAt(c.us, loc)
		if cached := z.Offset(c.us); cached != off {
			t.Errorf("%s at %d: cached offset %d, looked up %d", c.zone, c.us, cached, off)
		}
		if got := string(AppendTimestamptz(nil, c.us, off, ISO)); got != c.want {
			t.Errorf("%s: AppendTimestamptz(%d, ISO) = %q, want %q", c.zone, c.us, got, c.want)
		}
		if got := string(AppendTimestamptz(nil, c.us, off, XSD)); got != c.js {
			t.Errorf("%s: AppendTimestamptz(%d, XSD) = %q, want %q", c.zone, c.us, got, c.js)
		}
	}
}

func TestAppendInterval(t *testing.T) {
	for _, c := range intervalCases {
		if got := string(AppendInterval(nil, c.iv)); got != c.want {
			t.Errorf("AppendInterval(%+v) = %q, want %q", c.iv, got, c.want)
		}
	}
}

// TestParseTimeZoneErrors: values PostgreSQL 15 refuses for SET TIME ZONE
// ("+0530" is 530 hours east there).
func TestParseTimeZoneErrors(t *testing.T) {
	for _, v := range []string{"", "Mars/Olympus", "+0530", "200", "<+05", "UTC+", "+123:00", "+05:60", "a b"} {
		if loc, err := ParseTimeZone(v); err == nil {
			t.Errorf("ParseTimeZone(%q) = %v, want an error", v, loc)
		}
	}
	// Spellings icegate accepted before PostgreSQL's stricter reading and
	// keeps: they all reset the zone to UTC.
	for _, v := range []string{"UTC", "gmt", "Z", "LOCAL", "default", " UTC "} {
		if loc, err := ParseTimeZone(v); err != nil || loc != time.UTC {
			t.Errorf("ParseTimeZone(%q) = %v, %v, want UTC", v, loc, err)
		}
	}
}

// TestLoadZone uses what PostgreSQL 15 printed for
// ('2024-01-31 12:00+00'::timestamptz AT TIME ZONE zone)::text: the zone
// spellings AT TIME ZONE reads by name (signed numbers count west).
func TestLoadZone(t *testing.T) {
	const noon = 1706702400 * usPerSec
	for _, c := range []struct{ zone, want string }{
		{"+02", "2024-01-31 10:00:00"},
		{"-5", "2024-01-31 17:00:00"},
		{"+02:00", "2024-01-31 10:00:00"},
		{"UTC+3", "2024-01-31 09:00:00"},
		{"EST", "2024-01-31 07:00:00"},
		{"Zulu", "2024-01-31 12:00:00"},
		{"+05:30:15", "2024-01-31 06:29:45"},
		{"UTC", "2024-01-31 12:00:00"},
		{"<+05>-05", "2024-01-31 17:00:00"},
		{"America/New_York", "2024-01-31 07:00:00"},
	} {
		loc, err := LoadZone(c.zone)
		if err != nil {
			t.Errorf("LoadZone(%q): %v", c.zone, err)
			continue
		}
		local := noon + int64(OffsetAt(noon, loc))*usPerSec
		if got := string(AppendTimestamp(nil, local, ISO)); got != c.want {
			t.Errorf("AT TIME ZONE %q = %q, want %q", c.zone, got, c.want)
		}
	}
	for _, z := range []string{"5", "1.5", "+0530", "local", "", "Nowhere/City", "UTC+3x"} {
		if loc, err := LoadZone(z); err == nil {
			t.Errorf("LoadZone(%q) = %v, want an error", z, loc)
		}
	}
}

// TestArrays uses what PostgreSQL 15 printed for the arrays' ::text
// (ARRAY[...] and '[lo:hi]={...}'::text[]). A nil element is NULL.
func TestArrays(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		dims, lbounds []int32
		elems         []*string
		want          string
	}{
		{[]int32{14}, nil, []*string{s("a"), s(""), nil, s(`x"y`), s(`b\c`), s("NULL"), s("null"), s("NuLl"), s(" sp"), s("{}"), s(","), s("tab\tx"), s("é"), s("nul")},
			`{a,"",NULL,"x\"y","b\\c","NULL","null","NuLl"," sp","{}",",","tab	x",é,nul}`},
		{[]int32{2, 2}, nil, []*string{s("a"), s("b"), s("c"), nil}, "{{a,b},{c,NULL}}"},
		{[]int32{2, 2, 2}, []int32{1, 1, 1}, []*string{s("1"), s("2"), s("3"), s("4"), s("5"), s("6"), s("7"), s("8")}, "{{{1,2},{3,4}},{{5,6},{7,8}}}"},
		{[]int32{2}, []int32{0}, []*string{s("x"), s("y")}, "[0:1]={x,y}"},
		{[]int32{2, 2}, []int32{0, 2}, []*string{s("a"), s("b"), s("c"), s("d")}, "[0:1][2:3]={{a,b},{c,d}}"},
		{[]int32{2}, []int32{-2}, []*string{s(""), nil}, `[-2:-1]={"",NULL}`},
		{nil, nil, nil, "{}"},
		{[]int32{0}, []int32{1}, nil, "{}"},
		{[]int32{1}, nil, []*string{nil}, "{NULL}"},
		{[]int32{1}, nil, []*string{s("")}, `{""}`},
		{[]int32{1}, nil, []*string{s("2024-01-31 12:00:00+00")}, `{"2024-01-31 12:00:00+00"}`},
		{[]int32{2}, nil, []*string{s("1 day"), s("-1 mons +02:00:00")}, `{"1 day","-1 mons +02:00:00"}`},
		{[]int32{1}, nil, []*string{s("0044-03-15 BC")}, `{"0044-03-15 BC"}`},
	} {
		var w ArrayWriter
		dst := w.Begin([]byte("x"), c.dims, c.lbounds)
		for _, e := range c.elems {
			dst = w.Next(dst)
			if e == nil {
				dst = AppendArrayNull(dst)
			} else {
				dst = AppendArrayElement(dst, []byte(*e))
			}
		}
		dst = w.End(dst)
		if got := string(dst); got != "x"+c.want {
			t.Errorf("array %v = %q, want %q", c.dims, strings.TrimPrefix(got, "x"), c.want)
		}
	}
}

// TestAppendNoAlloc: the printers only grow dst.
func TestAppendNoAlloc(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Amsterdam")
	if err != nil {
		t.Fatal(err)
	}
	z := &ZoneCache{Loc: loc}
	buf := make([]byte, 0, 256)
	var w ArrayWriter
	dims := []int32{2, 2}
	n := testing.AllocsPerRun(100, func() {
		b := AppendDate(buf[:0], 19782)
		b = AppendTimestamp(b, 1709210096789000, ISO)
		b = AppendTimestamptz(b, 1709210096789000, z.Offset(1709210096789000), ISO)
		b = AppendInterval(b, Interval{14, -3, 14706500000})
		b = w.Begin(b, dims, nil)
		for k := 0; k < 4; k++ {
			b = w.Next(b)
			b = AppendArrayElement(b, []byte(`a"b`))
		}
		buf = w.End(b)
	})
	if n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}
