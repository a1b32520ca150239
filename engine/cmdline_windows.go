//go:build windows

package engine

import (
	"os/exec"
	"syscall"
)

// setCommandLine hands line to CreateProcess as it is, when not empty.
func setCommandLine(cmd *exec.Cmd, line string) {
	if line == "" {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CmdLine = line
}
