package engine

import (
	"os/exec"
	"runtime"
	"strings"
)

// ProgramCommand is how a program is started: Argv run directly (no shell
// on any system) when it is not empty, else Line through the system's
// shell.
type ProgramCommand struct {
	// Argv is the program and its arguments, each one word, run without a
	// shell.
	Argv []string
	// Line is a command line for the system's shell: /bin/sh -c on Unix,
	// cmd.exe /d /s /c on Windows.
	Line string
}

// String returns the command as a person would type it.
func (c ProgramCommand) String() string {
	if len(c.Argv) == 0 {
		return c.Line
	}
	words := make([]string, len(c.Argv))
	for i, a := range c.Argv {
		words[i] = a
		if a == "" || strings.ContainsAny(a, " \t\"'\\$`;&|<>()*?[]{}~#") {
			words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(words, " ")
}

// processArgs returns the arguments that start c on the system goos
// (runtime.GOOS's values) and, on Windows, the exact command line to hand
// to CreateProcess ("" when Go's own quoting of the arguments is right).
// cmd.exe's /s takes everything between the first and the last quote
// verbatim, so Line reaches it as written.
func (c ProgramCommand) processArgs(goos string) (argv []string, cmdLine string) {
	if len(c.Argv) > 0 {
		return c.Argv, ""
	}
	if goos == "windows" {
		return []string{"cmd.exe", "/d", "/s", "/c", c.Line}, `cmd.exe /d /s /c "` + c.Line + `"`
	}
	return []string{"/bin/sh", "-c", c.Line}, ""
}

// command returns the process that starts c on this system.
func (c ProgramCommand) command() *exec.Cmd {
	argv, line := c.processArgs(runtime.GOOS)
	cmd := exec.Command(argv[0], argv[1:]...)
	setCommandLine(cmd, line)
	return cmd
}

// words returns the command's words, for the sandbox to find the
// program's own folder: Argv, or Line split at blanks.
func (c ProgramCommand) words() []string {
	if len(c.Argv) > 0 {
		return c.Argv
	}
	return strings.Fields(c.Line)
}
