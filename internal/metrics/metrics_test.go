package metrics

import (
	"bytes"
	"math"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// parse reads a scrape with the Prometheus client library's text parser,
// failing the test on anything it rejects.
func parse(t *testing.T, r *Registry) map[string]*dto.MetricFamily {
	t.Helper()
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("the scrape does not parse: %v\n%s", err, buf.String())
	}
	return fams
}

func labelsOf(m *dto.Metric) string {
	var parts []string
	for _, l := range m.GetLabel() {
		parts = append(parts, l.GetName()+"="+l.GetValue())
	}
	return strings.Join(parts, ",")
}

func TestWriteTextParses(t *testing.T) {
	r := NewRegistry()
	stmts := r.Counter("test_statements_total", "Statements.\nSecond line with a \\ backslash.", "kind", "outcome")
	stmts.With("select", "ok").Add(3)
	stmts.With("insert", "error").Inc()
	stmts.With(`we"ird`+"\n"+`\`, "ok").Inc()
	g := r.Gauge("test_sessions", "Sessions.")
	g.With().Set(5)
	g.With().Add(-2)
	h := r.Histogram("test_latency_seconds", "Latency.", []float64{0.1, 1}, "kind")
	for _, v := range []float64{0.05, 0.1, 0.5, 2, 3} {
		h.With("select").Observe(v)
	}
	r.GaugeFunc("test_memory_bytes", "Memory.", []string{"class"}, func(emit func(float64, ...string)) {
		emit(100, "heap")
		emit(math.Inf(1), "odd")
	})
	fams := parse(t, r)

	for _, tc := range []struct {
		family, labels string
		want           float64
	}{
		{"test_statements_total", "kind=select,outcome=ok", 3},
		{"test_statements_total", "kind=insert,outcome=error", 1},
		{"test_statements_total", "kind=we\"ird\n\\,outcome=ok", 1},
		{"test_sessions", "", 3},
		{"test_memory_bytes", "class=heap", 100},
		{"test_memory_bytes", "class=odd", math.Inf(1)},
	} {
		f := fams[tc.family]
		if f == nil {
			t.Fatalf("family %s missing", tc.family)
		}
		found := false
		for _, m := range f.GetMetric() {
			if labelsOf(m) != tc.labels {
				continue
			}
			found = true
			var got float64
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				got = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				got = m.GetGauge().GetValue()
			}
			if got != tc.want {
				t.Errorf("%s{%s} = %v, want %v", tc.family, tc.labels, got, tc.want)
			}
		}
		if !found {
			t.Errorf("%s{%s} missing", tc.family, tc.labels)
		}
	}
	if got := fams["test_statements_total"].GetHelp(); got != "Statements.\nSecond line with a \\ backslash." {
		t.Errorf("help = %q", got)
	}

	hist := fams["test_latency_seconds"]
	if hist.GetType() != dto.MetricType_HISTOGRAM || len(hist.GetMetric()) != 1 {
		t.Fatalf("histogram: %v", hist)
	}
	hm := hist.GetMetric()[0].GetHistogram()
	if hm.GetSampleCount() != 5 || hm.GetSampleSum() != 5.65 {
		t.Errorf("histogram count %d sum %v, want 5 and 5.65", hm.GetSampleCount(), hm.GetSampleSum())
	}
	wantCum := map[float64]uint64{0.1: 2, 1: 3} // a bound counts the values equal to it
	for _, b := range hm.GetBucket() {
		if w, ok := wantCum[b.GetUpperBound()]; ok && b.GetCumulativeCount() != w {
			t.Errorf("bucket le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), w)
		}
	}
}

// TestNilSafe: code without a registry counts into nothing.
func TestNilSafe(t *testing.T) {
	var r *Registry
	c := r.Counter("x_total", "x", "a")
	c.With("b").Inc()
	r.Gauge("y", "y").With().Set(1)
	r.Histogram("z", "z", LatencyBuckets).With().Observe(1)
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil || buf.Len() != 0 {
		t.Fatalf("nil registry wrote %q, %v", buf.String(), err)
	}
}

func TestRegisterRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		reg  func(r *Registry)
	}{
		{"bad metric name", func(r *Registry) { r.Counter("1x", "") }},
		{"reserved label", func(r *Registry) { r.Counter("x_total", "", "le") }},
		{"duplicate", func(r *Registry) { r.Counter("x_total", ""); r.Gauge("x_total", "") }},
		{"unsorted buckets", func(r *Registry) { r.Histogram("h", "", []float64{2, 1}) }},
		{"label count", func(r *Registry) { r.Counter("x_total", "", "a").With("1", "2") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			tc.reg(NewRegistry())
		})
	}
}

func TestRuntimeFamilies(t *testing.T) {
	r := NewRegistry()
	RegisterRuntime(r)
	fams := parse(t, r)
	mem := fams["icegate_memory_bytes"]
	if mem == nil {
		t.Fatal("icegate_memory_bytes missing")
	}
	for _, m := range mem.GetMetric() {
		if labelsOf(m) == "class=total" && m.GetGauge().GetValue() > 0 {
			return
		}
	}
	t.Fatalf("no positive total memory: %v", mem)
}
