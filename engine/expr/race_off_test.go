//go:build !race

package expr

// raceEnabled: see race_on_test.go.
const raceEnabled = false
