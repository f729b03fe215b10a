package metrics

import (
	"runtime/metrics"
)

// runtimeSamples are the Go runtime's measures the server exposes, with
// the metric and label each becomes.
var runtimeSamples = []struct{ name, class string }{
	{"/memory/classes/total:bytes", "total"},
	{"/memory/classes/heap/objects:bytes", "heap_objects"},
	{"/memory/classes/heap/unused:bytes", "heap_unused"},
	{"/memory/classes/heap/free:bytes", "heap_free"},
	{"/memory/classes/heap/released:bytes", "heap_released"},
	{"/memory/classes/heap/stacks:bytes", "stacks"},
}

// RegisterRuntime adds the process's memory (the Go runtime's view, by
// class) and its goroutines to r, read at each scrape.
func RegisterRuntime(r *Registry) {
	r.GaugeFunc("icegate_memory_bytes", "Memory the Go runtime has mapped, by class (runtime/metrics /memory/classes); total is all of it.",
		[]string{"class"}, func(emit func(float64, ...string)) {
			samples := make([]metrics.Sample, len(runtimeSamples))
			for i, s := range runtimeSamples {
				samples[i].Name = s.name
			}
			metrics.Read(samples)
			for i, s := range samples {
				if s.Value.Kind() == metrics.KindUint64 {
					emit(float64(s.Value.Uint64()), runtimeSamples[i].class)
				}
			}
		})
	r.GaugeFunc("icegate_goroutines", "Goroutines now.", nil, func(emit func(float64, ...string)) {
		s := []metrics.Sample{{Name: "/sched/goroutines:goroutines"}}
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 {
			emit(float64(s[0].Value.Uint64()))
		}
	})
}
