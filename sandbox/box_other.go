//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"time"
)

// confinement is empty where no box can be made.
type confinement struct{}

// New returns a sandbox with policy p. Only Linux has boxes: elsewhere
// Check refuses programs unless p.Mode is Off.
func New(p Policy) *Sandbox {
	if p.Mode == "" {
		p.Mode = On
	}
	p.Limits = p.Limits.WithDefaults()
	return &Sandbox{policy: p, why: errors.New("boxes need Linux (bubblewrap and its namespaces), not " + runtime.GOOS)}
}

func (s *Sandbox) enforcement() string { return "nothing" }

// Probe reports whether a box can be made: here, never (nil only when the
// mode is Off).
func (s *Sandbox) Probe(ctx context.Context) error {
	if s == nil {
		s = New(Policy{})
	}
	return s.Check()
}

// BoundsProcesses reports whether the process limit holds here: never,
// without a box.
func (s *Sandbox) BoundsProcesses() bool { return false }

// Box prepares cmd (already set up as the program would run unconfined) to
// run in a box: here only unconfined, when the mode is Off.
func (s *Sandbox) Box(cmd *exec.Cmd, spec Spec) (*Box, error) {
	if s == nil {
		s = New(Policy{})
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s.unconfined(cmd), nil
}

func (b *Box) cpu() time.Duration       { return -1 }
func (b *Box) reason(exit error) Reason { return "" }
func (b *Box) kill()                    { _ = b.Cmd.Process.Kill() }
func (b *Box) release()                 {}
