//go:build unix

package main

import (
	"log/slog"
	"syscall"
)

// raiseFileLimit raises the soft limit on open files to the hard limit:
// each client connection holds a descriptor, and a server that runs out
// refuses everyone. Go's os package does the same at start on most Unix
// systems; doing it here makes it certain and logs the result.
func raiseFileLimit(logger *slog.Logger) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		logger.Debug("open file limit unknown", "err", err)
		return
	}
	if lim.Cur < lim.Max {
		raised := lim
		raised.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err != nil {
			logger.Debug("open file limit not raised", "soft", lim.Cur, "hard", lim.Max, "err", err)
			return
		}
		lim = raised
	}
	logger.Debug("open file limit", "soft", lim.Cur, "hard", lim.Max)
}
