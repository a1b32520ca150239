//go:build unix

package redistest

import (
	"os/exec"
	"syscall"
)

// pause freezes the process (SIGSTOP).
func pause(cmd *exec.Cmd) { _ = cmd.Process.Signal(syscall.SIGSTOP) }

// resume lets a paused process run again (SIGCONT).
func resume(cmd *exec.Cmd) { _ = cmd.Process.Signal(syscall.SIGCONT) }
