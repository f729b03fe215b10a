//go:build unix

package main

import (
	"bytes"
	"log/slog"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestRaiseFileLimit lowers the soft limit on open files, then checks
// raiseFileLimit brings it back to the hard limit and logs it.
func TestRaiseFileLimit(t *testing.T) {
	var orig syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &orig); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &orig) })
	if orig.Max < 512 {
		t.Skipf("hard limit %d leaves no room to lower the soft limit", orig.Max)
	}
	low := syscall.Rlimit{Cur: 256, Max: orig.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	raiseFileLimit(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug})))
	var now syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now); err != nil {
		t.Fatal(err)
	}
	if now.Cur != orig.Max {
		t.Errorf("soft limit %d after raiseFileLimit, want the hard limit %d", now.Cur, orig.Max)
	}
	if want := "soft=" + strconv.FormatUint(uint64(orig.Max), 10); !strings.Contains(out.String(), want) {
		t.Errorf("log %q does not say %s", out.String(), want)
	}
}
