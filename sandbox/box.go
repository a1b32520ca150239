package sandbox

import (
	"os/exec"
	"time"
)

// Spec says what a box must show besides the system's runtimes.
type Spec struct {
	// Words are the command's words (the shell line split at blanks, or its
	// arguments); the first that names an existing file or folder outside
	// the system's runtimes gives the program's own folder, shown read-only.
	Words []string
	// Terminal keeps the program in the caller's session, for a program
	// run under a pseudo-terminal that must keep it as its controlling
	// terminal.
	Terminal bool
}

// Box is one program's run in a box: its Cmd, to be given standard input
// and output (and, for a process group or a session, SysProcAttr) and then
// started with Start; Close after it ends.
type Box struct {
	// Cmd starts the box (or, unconfined, the program itself).
	Cmd *exec.Cmd

	limits  Limits
	confine *confinement // nil when unconfined
}

// Start starts the box.
func (b *Box) Start() error { return b.Cmd.Start() }

// Limits returns the limits the box runs under.
func (b *Box) Limits() Limits { return b.limits }

// CPU returns the processor time the program and everything it started
// have used so far (-1 when unknown).
func (b *Box) CPU() time.Duration {
	if b.Cmd.Process == nil {
		return 0
	}
	return b.cpu()
}

// OverCPU returns the processor-time limit's reason when the program and
// everything it started have used more than Limits().CPUTime together
// since the box started (a game, since a box holds one), and "" while they
// have not or the box is unconfined. The rlimit holds each process to the
// limit alone; the host asks OverCPU after each move, so that a program
// that spreads its work over many processes is held to it too.
func (b *Box) OverCPU() Reason {
	if b.confine == nil || b.limits.CPUTime <= 0 || b.CPU() < b.limits.CPUTime {
		return ""
	}
	return cpuReason(b.limits)
}

// Reason returns the limit the program hit, if any, given how its first
// process ended (exit is Cmd.Wait's error; nil while it runs).
func (b *Box) Reason(exit error) Reason {
	if b.confine == nil {
		return ""
	}
	return b.reason(exit)
}

// Kill kills the box and everything in it (unconfined: the process group
// or session the caller started it in).
func (b *Box) Kill() {
	if b.Cmd.Process == nil {
		return
	}
	b.kill()
}

// Close kills what is left of the box and frees what it held (its cgroup,
// its files). Call it after Cmd.Wait returned.
func (b *Box) Close() {
	b.Kill()
	b.release()
}
