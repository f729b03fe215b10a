// Package metrics keeps the server's counters, gauges and histograms and
// writes them in the Prometheus text exposition format (version 0.0.4).
//
// A Registry belongs to one server: cmd/icegate makes it and hands it to
// the packages that count (wire, translate), and the HTTP endpoint reads
// it. Nothing here is global. Every method is safe on a nil receiver and
// then does nothing, so code paths without a registry (tests, embedded
// servers) need no checks.
//
// The package is our own rather than prometheus/client_golang: the server
// needs a few families of three kinds, client_golang would bring a large
// dependency tree and a process-wide default registry the design avoids,
// and the text format is small and fully specified.
package metrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Registry is a set of metric families, written in registration order.
type Registry struct {
	mu       sync.Mutex
	families []*family
	names    map[string]bool
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry { return &Registry{names: map[string]bool{}} }

type kind int

const (
	kindCounter kind = iota
	kindGauge
	kindHistogram
)

func (k kind) String() string {
	switch k {
	case kindCounter:
		return "counter"
	case kindGauge:
		return "gauge"
	}
	return "histogram"
}

// family is one metric name with its children, one per label values.
type family struct {
	name, help string
	kind       kind
	labels     []string
	buckets    []float64 // histograms: upper bounds, ascending, without +Inf

	mu       sync.RWMutex
	children map[string]*child // by label values joined with \xff
	// fn, when set, computes the family's children at each scrape.
	fn func(emit func(value float64, labelValues ...string))
}

// child is one time series (or one histogram's series).
type child struct {
	labelValues []string
	bits        atomic.Uint64   // counter/gauge value, float64 bits
	counts      []atomic.Uint64 // histogram: per bucket (not cumulative), +Inf last
	sum         atomic.Uint64   // histogram: float64 bits
}

func (r *Registry) register(f *family) *family {
	if r == nil {
		return nil
	}
	if !validName(f.name) {
		panic(fmt.Sprintf("metrics: invalid metric name %q", f.name))
	}
	for _, l := range f.labels {
		if !validLabel(l) {
			panic(fmt.Sprintf("metrics: invalid label name %q of %s", l, f.name))
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.names[f.name] {
		panic("metrics: duplicate metric " + f.name)
	}
	r.names[f.name] = true
	f.children = map[string]*child{}
	r.families = append(r.families, f)
	return f
}

// Counter registers a counter family with the given label names.
func (r *Registry) Counter(name, help string, labels ...string) *CounterVec {
	return &CounterVec{r.register(&family{name: name, help: help, kind: kindCounter, labels: labels})}
}

// Gauge registers a gauge family with the given label names.
func (r *Registry) Gauge(name, help string, labels ...string) *GaugeVec {
	return &GaugeVec{r.register(&family{name: name, help: help, kind: kindGauge, labels: labels})}
}

// Histogram registers a histogram family with upper bucket bounds
// (ascending; +Inf is added) and label names.
func (r *Registry) Histogram(name, help string, buckets []float64, labels ...string) *HistogramVec {
	if !slices.IsSorted(buckets) {
		panic("metrics: histogram buckets of " + name + " are not ascending")
	}
	return &HistogramVec{r.register(&family{name: name, help: help, kind: kindHistogram, labels: labels, buckets: buckets})}
}

// GaugeFunc registers a gauge family computed at each scrape: fn emits
// one value per label values.
func (r *Registry) GaugeFunc(name, help string, labels []string, fn func(emit func(value float64, labelValues ...string))) {
	r.register(&family{name: name, help: help, kind: kindGauge, labels: labels, fn: fn})
}

// CounterFunc registers a counter family computed at each scrape from
// totals kept elsewhere.
func (r *Registry) CounterFunc(name, help string, labels []string, fn func(emit func(value float64, labelValues ...string))) {
	r.register(&family{name: name, help: help, kind: kindCounter, labels: labels, fn: fn})
}

// with returns the child of these label values, creating it.
func (f *family) with(values []string) *child {
	if f == nil {
		return nil
	}
	if len(values) != len(f.labels) {
		panic(fmt.Sprintf("metrics: %s takes %d label values, got %d", f.name, len(f.labels), len(values)))
	}
	key := strings.Join(values, "\xff")
	f.mu.RLock()
	c := f.children[key]
	f.mu.RUnlock()
	if c != nil {
		return c
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if c = f.children[key]; c == nil {
		c = &child{labelValues: slices.Clone(values)}
		if f.kind == kindHistogram {
			c.counts = make([]atomic.Uint64, len(f.buckets)+1)
		}
		f.children[key] = c
	}
	return c
}

func addFloat(u *atomic.Uint64, d float64) {
	for {
		old := u.Load()
		if u.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

// CounterVec is a counter family.
type CounterVec struct{ f *family }

// With returns the counter of these label values.
func (v *CounterVec) With(labelValues ...string) *Counter {
	if v == nil || v.f == nil {
		return nil
	}
	return &Counter{v.f.with(labelValues)}
}

// Counter is one counter.
type Counter struct{ c *child }

// Add adds d (>= 0) to the counter.
func (c *Counter) Add(d float64) {
	if c == nil || c.c == nil || d <= 0 {
		return
	}
	addFloat(&c.c.bits, d)
}

// Inc adds one.
func (c *Counter) Inc() { c.Add(1) }

// GaugeVec is a gauge family.
type GaugeVec struct{ f *family }

// With returns the gauge of these label values.
func (v *GaugeVec) With(labelValues ...string) *Gauge {
	if v == nil || v.f == nil {
		return nil
	}
	return &Gauge{v.f.with(labelValues)}
}

// Gauge is one gauge.
type Gauge struct{ c *child }

// Add adds d (may be negative).
func (g *Gauge) Add(d float64) {
	if g == nil || g.c == nil {
		return
	}
	addFloat(&g.c.bits, d)
}

// Set sets the gauge to v.
func (g *Gauge) Set(v float64) {
	if g == nil || g.c == nil {
		return
	}
	g.c.bits.Store(math.Float64bits(v))
}

// HistogramVec is a histogram family.
type HistogramVec struct{ f *family }

// With returns the histogram of these label values.
func (v *HistogramVec) With(labelValues ...string) *Histogram {
	if v == nil || v.f == nil {
		return nil
	}
	return &Histogram{v.f.buckets, v.f.with(labelValues)}
}

// Histogram is one histogram.
type Histogram struct {
	buckets []float64
	c       *child
}

// Observe counts one value.
func (h *Histogram) Observe(v float64) {
	if h == nil || h.c == nil {
		return
	}
	i, _ := slices.BinarySearch(h.buckets, v) // the first bound >= v
	h.c.counts[i].Add(1)
	addFloat(&h.c.sum, v)
}

// LatencyBuckets are the bounds, in seconds, of statement latency
// histograms: 1 ms to about 2 minutes.
var LatencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}

// WriteText writes every family in the text exposition format.
func (r *Registry) WriteText(w io.Writer) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	families := slices.Clone(r.families)
	r.mu.Unlock()
	bw := bufio.NewWriter(w)
	for _, f := range families {
		f.write(bw)
	}
	return bw.Flush()
}

func (f *family) write(w *bufio.Writer) {
	var children []*child
	if f.fn != nil {
		f.fn(func(v float64, values ...string) {
			if len(values) != len(f.labels) {
				panic(fmt.Sprintf("metrics: %s takes %d label values, got %d", f.name, len(f.labels), len(values)))
			}
			c := &child{labelValues: slices.Clone(values)}
			c.bits.Store(math.Float64bits(v))
			children = append(children, c)
		})
	} else {
		f.mu.RLock()
		for _, c := range f.children {
			children = append(children, c)
		}
		f.mu.RUnlock()
	}
	slices.SortFunc(children, func(a, b *child) int { return slices.Compare(a.labelValues, b.labelValues) })
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", f.name, escapeHelp(f.help), f.name, f.kind)
	for _, c := range children {
		if f.kind != kindHistogram {
			writeSample(w, f.name, f.labels, c.labelValues, "", "", math.Float64frombits(c.bits.Load()))
			continue
		}
		var cum uint64
		for i := range c.counts {
			cum += c.counts[i].Load()
			le := "+Inf"
			if i < len(f.buckets) {
				le = formatFloat(f.buckets[i])
			}
			writeSample(w, f.name+"_bucket", f.labels, c.labelValues, "le", le, float64(cum))
		}
		writeSample(w, f.name+"_sum", f.labels, c.labelValues, "", "", math.Float64frombits(c.sum.Load()))
		writeSample(w, f.name+"_count", f.labels, c.labelValues, "", "", float64(cum))
	}
}

func writeSample(w *bufio.Writer, name string, labels, values []string, extraLabel, extraValue string, v float64) {
	w.WriteString(name)
	if len(labels) > 0 || extraLabel != "" {
		w.WriteByte('{')
		for i, l := range labels {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(l)
			w.WriteString(`="`)
			w.WriteString(escapeLabel(values[i]))
			w.WriteByte('"')
		}
		if extraLabel != "" {
			if len(labels) > 0 {
				w.WriteByte(',')
			}
			w.WriteString(extraLabel)
			w.WriteString(`="`)
			w.WriteString(extraValue)
			w.WriteByte('"')
		}
		w.WriteByte('}')
	}
	w.WriteByte(' ')
	w.WriteString(formatFloat(v))
	w.WriteByte('\n')
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }

// validName reports whether s is a metric name: [a-zA-Z_:][a-zA-Z0-9_:]*.
func validName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// validLabel reports whether s is a label name that is not reserved.
func validLabel(s string) bool {
	return validName(s) && !strings.Contains(s, ":") && !strings.HasPrefix(s, "__") && s != "le"
}
