// Package buildinfo says which build of icegate is running: the release
// version and the commit it was built from. A release build sets both with
// the linker (make release):
//
//	go build -trimpath -ldflags "-X github.com/icegate/icegate/internal/buildinfo.version=v1.2.3 \
//	    -X github.com/icegate/icegate/internal/buildinfo.commit=0123abc" ./cmd/icegate
//
// Without them, the commit comes from the VCS stamp the go command embeds
// when it builds inside a git checkout, and the version is "dev".
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by the linker (-X); never assigned at run time.
var (
	version = "dev"
	commit  = ""
)

// Version is the release version, "dev" for a build that did not set one.
func Version() string { return version }

// Commit is the (possibly abbreviated) commit the binary was built from,
// with "-dirty" when the checkout had local changes; "" when unknown.
func Commit() string {
	if commit != "" {
		return commit
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && dirty {
		rev += "-dirty"
	}
	return rev
}

// String is the version and commit as one word list: "v1.2.3 0123abc",
// or just the version when the commit is unknown.
func String() string {
	if c := Commit(); c != "" && !strings.Contains(version, c) {
		return version + " " + c
	}
	return version
}

// GoVersion is the Go release that compiled the binary.
func GoVersion() string { return runtime.Version() }
