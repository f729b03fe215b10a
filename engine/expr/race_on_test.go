//go:build race

package expr

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// tests may not count on a pooled item coming back.
const raceEnabled = true
