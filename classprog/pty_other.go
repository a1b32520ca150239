//go:build !linux

package classprog

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"arbiter/sandbox"
)

// proc stands for a program under a pseudo-terminal where Arbiter cannot
// run one: start always fails, so no proc exists here.
type proc struct {
	events     chan event
	transcript *transcript
}

// start fails: watching a program wait for its terminal needs Linux's
// /proc (see pty_linux.go).
func start(command string, tr *transcript, sb *sandbox.Sandbox) (*proc, error) {
	return nil, fmt.Errorf("start %q: %w", command, errUnsupported)
}

// errUnsupported says where class programs run and what to use instead.
var errUnsupported = errors.New(unsupported(runtime.GOOS))

func (p *proc) write(text string) error  { return errUnsupported }
func (p *proc) generation() int          { return 0 }
func (p *proc) resetCount() int          { return 0 }
func (p *proc) stop()                    {}
func (p *proc) exitText() string         { return "could not start" }
func (p *proc) limitHit() sandbox.Reason { return "" }
func (p *proc) cpu() time.Duration       { return -1 }
func (p *proc) overCPU() sandbox.Reason  { return "" }
