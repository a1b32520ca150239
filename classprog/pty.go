package classprog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The host's limits on a program's output.
const (
	// maxLine bounds a line; a longer one is cut.
	maxLine = 4096
	// FloodLimit is the most bytes a program may print while it is to move
	// (or during its setup) before it loses for flooding.
	FloodLimit = 256 << 10
)

// event is something the program did: printed a line, showed an unfinished
// line (a prompt), blocked reading its terminal, or ended.
type event struct {
	kind eventKind
	text string
	gen  int // the input generation when seen (prompts and blocks go stale with new input)
}

type eventKind int

const (
	evLine eventKind = iota
	evPrompt
	evBlocked
	evExit
	evGarbage
)

// proc is a program run under a pseudo-terminal with echo off, as a
// person's terminal would run it (so C's stdio flushes at each line).
type proc struct {
	cmd    *exec.Cmd
	master *os.File
	events chan event
	done   chan struct{} // closed once the program has exited
	err    error         // its exit, once done

	mu         sync.Mutex
	partial    []byte // the unfinished last line
	prompted   bool   // the unfinished line was reported as a prompt
	printed    int    // bytes printed since the count was reset
	lastRead   time.Time
	gen        int // lines of input written
	transcript *transcript
}

// start runs command under /bin/sh -c on a new pseudo-terminal.
func start(command string, tr *transcript) (*proc, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open a pseudo-terminal: %w", err)
	}
	defer tty.Close()
	if t, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS); err == nil {
		t.Lflag &^= unix.ECHO | unix.ECHONL
		_ = unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, t)
	}
	_ = pty.Setsize(master, &pty.Winsize{Rows: 60, Cols: 200})
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		master.Close()
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	p := &proc{cmd: cmd, master: master, events: make(chan event, 1024), done: make(chan struct{}), transcript: tr, lastRead: time.Now()}
	go p.read()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	go p.watch()
	return p, nil
}

// read turns the program's output into events until the terminal closes.
func (p *proc) read() {
	buf := make([]byte, 4096)
	for {
		n, err := p.master.Read(buf)
		if n > 0 {
			p.take(buf[:n])
		}
		if err != nil {
			p.emit(event{kind: evExit})
			return
		}
	}
}

// take splits output into lines and prompts.
func (p *proc) take(b []byte) {
	p.mu.Lock()
	p.printed += len(b)
	p.lastRead = time.Now()
	var lines []string
	garbage := bytes.IndexByte(b, 0) >= 0
	for _, c := range b {
		switch c {
		case '\r':
		case '\n':
			lines = append(lines, string(p.partial))
			p.partial = p.partial[:0]
		default:
			if len(p.partial) < maxLine {
				p.partial = append(p.partial, c)
			}
		}
	}
	p.prompted = false
	p.mu.Unlock()
	for _, l := range lines {
		p.transcript.add("> ", l)
		if !utf8.ValidString(l) || garbage {
			p.emit(event{kind: evGarbage, text: l})
			continue
		}
		p.emit(event{kind: evLine, text: l})
	}
}

// emit passes an event on, dropping it when nobody listens for a while
// (a flooding program must not block its reader).
func (p *proc) emit(e event) {
	select {
	case p.events <- e:
	case <-time.After(2 * time.Second):
	}
}

// watch reports, while the program runs, each time it has been quiet for a
// while and is blocked reading its terminal: it waits for input whether or
// not its prompt arrived.
func (p *proc) watch() {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	reported, reportedGen := false, -1
	for {
		select {
		case <-p.done:
			return
		case <-tick.C:
		}
		// An unfinished line after a quiet spell is a prompt.
		p.mu.Lock()
		quiet := time.Since(p.lastRead) > 40*time.Millisecond
		gen := p.gen
		var prompt string
		if quiet && !p.prompted && strings.TrimSpace(string(p.partial)) != "" {
			prompt, p.prompted = string(p.partial), true
		}
		p.mu.Unlock()
		if prompt != "" {
			p.transcript.add("> ", prompt)
			p.emit(event{kind: evPrompt, text: prompt, gen: gen})
		}
		blocked := quiet && readingTerminal(p.cmd.Process.Pid)
		if blocked && (!reported || reportedGen != gen) {
			select {
			case p.events <- event{kind: evBlocked, gen: gen}:
			default:
			}
			reportedGen = gen
		}
		reported = blocked
	}
}

// write sends a line of input, and forgets the unfinished prompt it answers.
func (p *proc) write(text string) error {
	p.transcript.add("< ", text)
	p.mu.Lock()
	p.partial = p.partial[:0]
	p.gen++
	p.mu.Unlock()
	_, err := p.master.Write([]byte(text + "\n"))
	return err
}

// generation returns the lines of input written so far.
func (p *proc) generation() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen
}

// resetCount starts counting printed bytes again and returns the count.
func (p *proc) resetCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.printed
	p.printed = 0
	return n
}

func (p *proc) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.printed
}

// stop kills the program and everything it started in its session.
func (p *proc) stop() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
	}
	p.master.Close()
}

// exitText says how the program ended.
func (p *proc) exitText() string {
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
		return "closed its terminal"
	}
	if p.err != nil {
		var ee *exec.ExitError
		if errors.As(p.err, &ee) && ee.ExitCode() == 0 {
			return "exited"
		}
		return "crashed (" + p.err.Error() + ")"
	}
	return "exited"
}

// readingTerminal reports whether a process of the session led by sid is
// blocked in read(2) on its standard input (Linux: /proc/PID/task/TID/syscall
// starts with the syscall number 0 and fd 0; amd64 numbering).
func readingTerminal(sid int) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command in parentheses: state ppid pgrp session.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 4 || f[3] != strconv.Itoa(sid) {
			continue
		}
		// Any thread of it (a Go program reads on some thread of its own).
		tasks, _ := filepath.Glob(d + "/task/[0-9]*")
		for _, task := range tasks {
			if sc, err := os.ReadFile(task + "/syscall"); err == nil && strings.HasPrefix(string(sc), "0 0x0 ") {
				return true
			}
		}
	}
	return false
}

// transcript keeps the dialogue, up to a bound (the start and the end).
type transcript struct {
	mu    sync.Mutex
	lines []string
	cut   int
}

const maxTranscript = 2000

func (t *transcript) add(dir, line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	t.lines = append(t.lines, dir+line)
	if len(t.lines) > maxTranscript {
		// Keep the first half and the latest lines.
		half := maxTranscript / 2
		t.lines = append(t.lines[:half], t.lines[half+1:]...)
		t.cut++
	}
}

func (t *transcript) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut > 0 {
		half := maxTranscript / 2
		out := append(append(append([]string{}, t.lines[:half]...), fmt.Sprintf("... (%d lines left out)", t.cut)), t.lines[half:]...)
		return strings.Join(out, "\n") + "\n"
	}
	if len(t.lines) == 0 {
		return ""
	}
	return strings.Join(t.lines, "\n") + "\n"
}

// last returns the last n lines the program printed, for reasons.
func (t *transcript) last(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for i := len(t.lines) - 1; i >= 0 && len(out) < n; i-- {
		if strings.HasPrefix(t.lines[i], "> ") && strings.TrimSpace(t.lines[i][2:]) != "" {
			out = append([]string{strings.TrimSpace(t.lines[i][2:])}, out...)
		}
	}
	return out
}
