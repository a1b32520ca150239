//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time this process has used so far, user and
// system together, from getrusage; ok is false when the system will not say.
func processCPU() (cpu time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
