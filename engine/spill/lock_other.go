//go:build !unix

package spill

import "os"

// tryLock cannot tell a live process's directory from a dead one's on
// this platform: it reports every directory as held, so startup removes
// nothing but this process's own directory is still removed on Close.
func tryLock(*os.File) (bool, error) { return false, nil }

// lockOwn locks this process's own directory: nothing to take here.
func lockOwn(*os.File) (bool, error) { return true, nil }
