//go:build !unix

package loadtest

import "time"

// processCPU reports that this system gives no process CPU time here.
func processCPU() (time.Duration, bool) { return 0, false }
