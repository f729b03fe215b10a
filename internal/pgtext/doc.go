// Package pgtext is PostgreSQL's text form of dates, times, timestamps,
// intervals and arrays, and the parser of the TimeZone setting: the one
// implementation the engine's ::text casts and the wire protocol's text
// result format share, so that a value prints the same bytes whichever
// path it takes.
//
// The printers are append-style (AppendX(dst, ...) []byte) and allocate
// nothing beyond growing dst (an ArrayWriter reuses its index from one
// array to the next). They implement the styles icegate supports:
// DateStyle ISO (and XSD, the form inside json) and IntervalStyle postgres.
//
// Dates are days since 1970-01-01, times microseconds since midnight,
// timestamps microseconds since 1970-01-01 00:00 (UTC for timestamptz);
// math.MaxInt32 / math.MinInt32 (dates) and math.MaxInt64 / math.MinInt64
// (timestamps) stand for infinity and -infinity.
//
// The package is a leaf: it imports nothing of icegate, so every layer may
// use it.
package pgtext
