package engine

import (
	"arbiter/sandbox"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"arbiter/rules"
)

// The host's patience with an outside program.
const (
	// DefaultGrace is the time a program may take beyond its move time,
	// for pipes and process scheduling, before it loses on time.
	DefaultGrace = 100 * time.Millisecond
	// StartupTime is how long a program may take to answer "isready".
	StartupTime = 10 * time.Second
	// QuitTime is how long a program may take to exit after "quit" before
	// it is killed.
	QuitTime = time.Second
	// maxLine bounds one line of a program's output.
	maxLine = 4096
)

// ExecPlayer is an outside program playing over the engine protocol (see
// docs/reference/engine-protocol.md). It starts the program for a game at its first
// move, tells it the moves played since, and stops it when the game ends.
// Whatever the program does, Choose returns within the move time plus the
// grace: a program that crashes, hangs, overruns, prints garbage or plays
// an illegal move forfeits with a *ForfeitError naming the reason.
type ExecPlayer struct {
	command ProgramCommand
	stderr  io.Writer
	grace   time.Duration
	reg     *rules.Registry
	box     *sandbox.Sandbox // nil: unconfined
	sess    *session
}

// NewExecPlayer returns a player that runs command through the system's
// shell (/bin/sh -c on Unix, cmd.exe /c on Windows). stderr, when not nil,
// receives the program's standard error; grace is the time allowed beyond
// each move time (DefaultGrace when 0); reg gives the class move time of a
// game asked with no move time (nil: 5 s).
func NewExecPlayer(reg *rules.Registry, command string, stderr io.Writer, grace time.Duration) *ExecPlayer {
	return NewProgramPlayer(reg, ProgramCommand{Line: command}, stderr, grace)
}

// NewProgramPlayer is NewExecPlayer for a command given as a ProgramCommand,
// e.g. a program and its arguments to run without a shell.
//
// The program runs unconfined, as its owner's own program would (the
// bridge on a student's machine), unless InBox gives it a sandbox;
// NewPlayer's exec: players always have one.
func NewProgramPlayer(reg *rules.Registry, command ProgramCommand, stderr io.Writer, grace time.Duration) *ExecPlayer {
	if grace <= 0 {
		grace = DefaultGrace
	}
	return &ExecPlayer{command: command, stderr: stderr, grace: grace, reg: reg}
}

// InBox makes the program run in sb's box (sb nil: unconfined) and returns p.
func (p *ExecPlayer) InBox(sb *sandbox.Sandbox) *ExecPlayer {
	p.box = sb
	return p
}

// String returns "exec:COMMAND".
func (p *ExecPlayer) String() string { return "exec:" + p.command.String() }

// session is one run of the program for one game.
type session struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  io.ReadCloser // closed by stop if the program's exit does not end it
	lines   chan string   // the program's output lines; closed at its end
	quit    chan struct{} // closed to stop the reader
	done    chan struct{} // closed once the program has exited
	waitErr error         // the program's exit, once done
	tail    *tailWriter   // the end of its standard error
	box     *sandbox.Box  // the program's box, nil when unconfined
	limit   sandbox.Reason

	game     string
	options  string
	side     rules.Player
	known    []rules.Move // the moves the program knows, from the start
	moveTime time.Duration
}

// Choose tells the program the moves it has not seen, asks it to move and
// waits for its answer.
func (p *ExecPlayer) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	start := time.Now()
	var cpu0 time.Duration
	if p.sess != nil && p.sess.box != nil {
		cpu0 = p.sess.box.CPU()
	}
	if p.sess != nil && (!p.sess.follows(g) || g.ToMove() != p.sess.side) {
		p.stop() // another game: the program plays one game a run
	}
	moveTime := lim.MoveTime
	if moveTime <= 0 {
		moveTime = ClassMoveTime(p.reg, g.Name())
	}
	if p.sess == nil {
		if err := p.start(ctx, g, moveTime); err != nil {
			return p.fail(err)
		}
	}
	s := p.sess
	var out strings.Builder
	if moveTime != s.moveTime {
		fmt.Fprintf(&out, "time %d\n", protocolMS(moveTime))
		s.moveTime = moveTime
	}
	if unseen := g.History()[len(s.known):]; len(unseen) > 0 {
		// Each move is written in canonical text as of the position it
		// was played in: replay them on a copy taken back to before them.
		c := g.Clone()
		for range unseen {
			c.Undo()
		}
		for _, m := range unseen {
			fmt.Fprintf(&out, "played %s\n", c.FormatMove(m))
			c.Play(m)
			s.known = append(s.known, m)
		}
	}
	out.WriteString("go\n")
	if err := s.send(out.String()); err != nil {
		return p.fail(err)
	}
	due := time.Now().Add(moveTime + p.grace)
	deadline := time.NewTimer(time.Until(due))
	defer deadline.Stop()
	for {
		var line string
		var open bool
		select {
		case <-ctx.Done():
			p.stop()
			return rules.NoMove, Info{Move: rules.NoMove}, ctx.Err()
		case <-deadline.C:
			return p.fail(&ForfeitError{Reason: fmt.Sprintf("timed out: no move within %v (+%v grace)", moveTime, p.grace)})
		case line, open = <-s.lines:
		}
		if !open {
			return p.fail(s.exitReason("exited before moving", time.Until(due)))
		}
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch word {
		case "", "info":
			continue
		case "move":
			text := strings.TrimSpace(rest)
			m, err := g.ParseMove(text)
			if err != nil {
				return p.fail(&ForfeitError{Reason: fmt.Sprintf("played an illegal move %q: %v", text, err)})
			}
			s.known = append(s.known, m)
			info := Info{Move: m, Elapsed: time.Since(start)}
			if s.box != nil {
				info.CPU = max(0, s.box.CPU()-cpu0)
				if r := s.box.OverCPU(); r != "" {
					return p.fail(&ForfeitError{Reason: string(r)})
				}
			}
			return m, info, nil
		default:
			return p.fail(&ForfeitError{Reason: "printed garbage: " + quoteShort(line)})
		}
	}
}

// protocolMS writes a move time as the protocol's whole milliseconds, at
// least 1 (the protocol has no "time 0").
func protocolMS(d time.Duration) int64 { return max(1, d.Milliseconds()) }

// fail stops the program and returns err as Choose's answer; a program
// that hit a limit of its box loses for that.
func (p *ExecPlayer) fail(err error) (rules.Move, Info, error) {
	s := p.sess
	p.stop()
	var fe *ForfeitError
	if s != nil && s.limit != "" && errors.As(err, &fe) && !strings.HasPrefix(fe.Reason, string(s.limit)) {
		fe.Reason = string(s.limit) + " (" + fe.Reason + ")"
	}
	return rules.NoMove, Info{Move: rules.NoMove}, err
}

// End tells the program the result and stops it.
func (p *ExecPlayer) End(g rules.Game) {
	s := p.sess
	if s == nil {
		return
	}
	if s.follows(g) {
		out := g.Outcome()
		word := "draw"
		if w, ok := out.Result.Winner(); ok {
			word = "loss"
			if w == s.side {
				word = "win"
			}
		}
		if out.Result == rules.Ongoing {
			word = "abandoned"
		}
		_ = s.send(strings.TrimSpace("result "+word+" "+oneLine(out.Reason)) + "\nquit\n")
		_ = s.stdin.Close()
		select {
		case <-s.done:
		case <-time.After(QuitTime):
		}
	}
	p.stop()
}

// start runs the program and sets it up for g, in which it is to move.
func (p *ExecPlayer) start(ctx context.Context, g rules.Game, moveTime time.Duration) error {
	cmd := p.command.command()
	setProcessGroup(cmd)
	cmd.WaitDelay = QuitTime
	var box *sandbox.Box
	if p.box != nil {
		var err error
		if box, err = p.box.Box(cmd, sandbox.Spec{Words: p.command.words()}); err != nil {
			return &ForfeitError{Reason: fmt.Sprintf("could not start: %v", err)}
		}
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("start %q: %w", p.command, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("start %q: %w", p.command, err)
	}
	tail := &tailWriter{max: 2048}
	cmd.Stderr = tail
	if p.stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, p.stderr)
	}
	if err := cmd.Start(); err != nil {
		if box != nil {
			box.Close()
		}
		return &ForfeitError{Reason: fmt.Sprintf("could not start: %v", err)}
	}
	s := &session{
		cmd: cmd, stdin: stdin, stdout: stdout, tail: tail, box: box,
		lines: make(chan string, 16), quit: make(chan struct{}), done: make(chan struct{}),
		game: g.Name(), options: g.Options().String(), side: g.ToMove(), moveTime: moveTime,
	}
	p.sess = s
	go s.read(stdout)

	setup := fmt.Sprintf("game %s\noptions %s\nside %d\ntime %d\nisready\n",
		g.Name(), s.options, int(s.side)+1, protocolMS(moveTime))
	if err := s.send(setup); err != nil {
		return err
	}
	due := time.Now().Add(StartupTime)
	timer := time.NewTimer(StartupTime)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			return &ForfeitError{Reason: fmt.Sprintf("timed out: no \"ready\" within %v of starting", StartupTime)}
		case line, open := <-s.lines:
			if !open {
				return s.exitReason("exited before \"ready\"", time.Until(due))
			}
			word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
			switch word {
			case "", "info":
			case "ready":
				return nil
			default:
				return &ForfeitError{Reason: "printed garbage: " + quoteShort(line)}
			}
		}
	}
}

// read passes the program's output lines on until it ends, then waits for
// the program to exit.
func (s *session) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 256), maxLine)
	for sc.Scan() {
		select {
		case s.lines <- sc.Text():
		case <-s.quit:
			goto out
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		select {
		case s.lines <- fmt.Sprintf("(a line longer than %d bytes)", maxLine):
		case <-s.quit:
		}
	}
out:
	close(s.lines)
	// Drain what is left so that the program never blocks on a full pipe.
	_, _ = io.Copy(io.Discard, stdout)
	s.waitErr = s.cmd.Wait()
	close(s.done)
}

// send writes text to the program; a program that cannot be written to has
// ended.
func (s *session) send(text string) error {
	if _, err := io.WriteString(s.stdin, text); err != nil {
		return s.exitReason("stopped reading its input", QuitTime)
	}
	return nil
}

// exitReason waits for the program to end, at most wait (and QuitTime),
// and says how it ended.
func (s *session) exitReason(what string, wait time.Duration) error {
	timer := time.NewTimer(max(0, min(wait, QuitTime)))
	defer timer.Stop()
	select {
	case <-s.done:
	case <-timer.C:
		return &ForfeitError{Reason: what + " (closed its output)"}
	}
	reason := what
	if s.waitErr != nil {
		reason = "crashed (" + s.waitErr.Error() + ")"
	}
	if s.box != nil {
		if s.limit = s.box.Reason(s.waitErr); s.limit != "" {
			reason = string(s.limit)
		}
	}
	if t := s.tail.lastLine(); t != "" {
		reason += ": " + quoteShort(t)
	}
	return &ForfeitError{Reason: reason}
}

// follows reports whether g is the game this session plays, continued.
func (s *session) follows(g rules.Game) bool {
	if g.Name() != s.game || g.Options().String() != s.options {
		return false
	}
	h := g.History()
	if len(h) < len(s.known) {
		return false
	}
	for i, m := range s.known {
		if h[i] != m {
			return false
		}
	}
	return true
}

// stop ends the session's program, killing it and its children. A
// descendant that left the process group (setsid) survives the kill and may
// hold the program's output open; after QuitTime the host stops reading it,
// so that stop returns within about 2*QuitTime whatever the program did.
func (p *ExecPlayer) stop() {
	s := p.sess
	if s == nil {
		return
	}
	p.sess = nil
	close(s.quit)
	_ = s.stdin.Close()
	if s.box != nil && s.limit == "" {
		s.limit = s.box.Reason(nil) // a limit hit while it runs (memory, processes)
	}
	if s.box != nil {
		s.box.Kill()
	} else {
		killProcessGroup(s.cmd)
	}
	timer := time.NewTimer(QuitTime)
	defer timer.Stop()
	select {
	case <-s.done:
	case <-timer.C:
		_ = s.stdout.Close() // ends the reader; cmd.WaitDelay bounds the rest
		<-s.done
	}
	if s.box != nil {
		s.box.Close()
	}
}

// tailWriter keeps the last bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// lastLine returns the last non-empty line written.
func (t *tailWriter) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// quoteShort quotes s, cut to 60 bytes.
func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strconv.Quote(s)
}

// oneLine keeps text on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
