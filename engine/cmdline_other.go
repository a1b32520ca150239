//go:build !windows

package engine

import "os/exec"

// setCommandLine does nothing: only Windows takes a command line as one
// string.
func setCommandLine(cmd *exec.Cmd, line string) {}
