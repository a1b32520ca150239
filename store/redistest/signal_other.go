//go:build !unix

package redistest

import "os/exec"

// pause does nothing: there is no SIGSTOP here (redis-server runs on Unix).
func pause(cmd *exec.Cmd) {}

// resume does nothing: there is no SIGCONT here.
func resume(cmd *exec.Cmd) {}
