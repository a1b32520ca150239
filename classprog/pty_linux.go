//go:build linux

package classprog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"arbiter/sandbox"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// proc is a program run under a pseudo-terminal with echo off, as a
// person's terminal would run it (so C's stdio flushes at each line).
type proc struct {
	cmd    *exec.Cmd
	box    *sandbox.Box // the program's box, nil when unconfined
	master *os.File
	tty    *os.File    // the terminal's other end, kept to see its unread input
	term   os.FileInfo // tty's identity, to tell a process reading it (nil if unknown)
	events chan event
	done   chan struct{} // closed once the program has exited
	err    error         // its exit, once done

	mu         sync.Mutex
	partial    []byte // the unfinished last line
	prompted   bool   // the unfinished line was reported as a prompt
	reported   string // the unfinished line as last reported as a prompt, until the line ends or input is written
	printed    int    // bytes printed since the count was reset
	flooded    bool   // printed passed FloodLimit
	lastRead   time.Time
	lastWrite  time.Time
	readAt     int64 // the session's bytes read (rchar) when the last input was written
	gen        int   // lines of input written
	unreported int   // reads taken whose lines are not reported yet
	transcript *transcript
	limit      sandbox.Reason // the limit of its box it hit, once known

	// afterRead, when set (by tests), runs after each read of output from
	// the terminal, before the output is taken, with mu held.
	afterRead func()
}

// start runs command under /bin/sh -c on a new pseudo-terminal, in sb's
// box (sb nil: unconfined).
func start(command string, tr *transcript, sb *sandbox.Sandbox) (*proc, error) {
	p, err := launch(command, tr, sb)
	if err != nil {
		return nil, err
	}
	p.run()
	return p, nil
}

// launch starts the program of start; run then reads and watches it.
func launch(command string, tr *transcript, sb *sandbox.Sandbox) (*proc, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open a pseudo-terminal: %w", err)
	}
	if t, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS); err == nil {
		t.Lflag &^= unix.ECHO | unix.ECHONL
		_ = unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, t)
	}
	_ = pty.Setsize(master, &pty.Winsize{Rows: 60, Cols: 200})
	if master, err = pollable(master); err != nil {
		tty.Close()
		return nil, err
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	var box *sandbox.Box
	if sb != nil {
		if box, err = sb.Box(cmd, sandbox.Spec{Words: strings.Fields(command), Terminal: true}); err != nil {
			master.Close()
			tty.Close()
			return nil, err
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		master.Close()
		tty.Close()
		if box != nil {
			box.Close()
		}
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	term, _ := tty.Stat()
	return &proc{cmd: cmd, box: box, master: master, tty: tty, term: term, events: make(chan event, 8192), done: make(chan struct{}), transcript: tr, lastRead: time.Now()}, nil
}

// pollable returns master, the terminal's end that pty.Open leaves in
// blocking mode, as a file in non-blocking mode on Go's poller: a read
// then takes the output it gets under the proc's lock without holding the
// lock while it waits (see read).
func pollable(master *os.File) (*os.File, error) {
	fd, err := unix.FcntlInt(master.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	master.Close()
	if err != nil {
		return nil, fmt.Errorf("pseudo-terminal: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("pseudo-terminal: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

// run reads and watches the program until it exits.
func (p *proc) run() {
	master := p.master
	cmd := p.cmd
	go p.read()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
		// The host holds the terminal open, so its reader sees no end:
		// let it take what the program printed last, then report the end.
		for i := 0; i < 100; i++ {
			if n := printedNotRead(master); n <= 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		for i := 0; i < 100 && p.quietFor() < 20*time.Millisecond; i++ {
			time.Sleep(10 * time.Millisecond) // an escaped child may print on
		}
		p.emit(event{kind: evExit})
	}()
	go p.watch()
}

// read turns the program's output into events until the terminal closes.
// Each read from the terminal is taken under mu, so that watch, under mu,
// finds any output either still on the terminal or taken, and (through
// unreported) reported too before it says the program waits.
func (p *proc) read() {
	rc, err := p.master.SyscallConn()
	if err != nil {
		p.emit(event{kind: evExit})
		return
	}
	buf := make([]byte, 4096)
	for {
		var got taken
		var readErr error
		err := rc.Read(func(fd uintptr) bool {
			p.mu.Lock()
			defer p.mu.Unlock()
			n, err := unix.Read(int(fd), buf)
			for err == unix.EINTR {
				n, err = unix.Read(int(fd), buf)
			}
			switch {
			case err == unix.EAGAIN:
				return false // nothing yet: wait for output
			case err != nil:
				readErr = err
			case n == 0:
				readErr = io.EOF
			default:
				if p.afterRead != nil {
					p.afterRead()
				}
				if got = p.take(buf[:n]); got.any() {
					p.unreported++ // until report has passed it on
				}
			}
			return true
		})
		p.report(got)
		if err != nil || readErr != nil {
			p.emit(event{kind: evExit})
			return
		}
	}
}

// taken is what one read of output gives to report: its finished lines,
// whether the read held a NUL byte, and whether it passed FloodLimit. One
// with anything to report counts in unreported until it is reported.
type taken struct {
	lines   []string
	garbage bool
	flood   bool
}

// any reports whether t has anything to report.
func (t taken) any() bool { return t.flood || len(t.lines) > 0 }

// take splits output into lines, with mu held. Past FloodLimit bytes since
// the count was reset, it only counts them and reports the flood once.
func (p *proc) take(b []byte) taken {
	p.printed += len(b)
	p.lastRead = time.Now()
	p.prompted = false
	if p.printed > FloodLimit {
		t := taken{flood: !p.flooded}
		p.flooded = true
		return t
	}
	var lines []string
	garbage := bytes.IndexByte(b, 0) >= 0
	for len(b) > 0 {
		k := bytes.IndexByte(b, '\n')
		chunk := b
		if k >= 0 {
			chunk = b[:k]
		}
		chunk = bytes.ReplaceAll(chunk, []byte{'\r'}, nil)
		if room := maxLine - len(p.partial); room > 0 {
			p.partial = append(p.partial, chunk[:min(room, len(chunk))]...)
		}
		if k < 0 {
			break
		}
		if line := string(p.partial); line != p.reported {
			lines = append(lines, line)
		} // else: its whole text was reported as a prompt already
		p.partial, p.reported = p.partial[:0], ""
		b = b[k+1:]
	}
	return taken{lines: lines, garbage: garbage}
}

// report passes on what take took, without mu held.
func (p *proc) report(t taken) {
	if !t.any() {
		return
	}
	if t.flood {
		p.emit(event{kind: evFlood})
	}
	for _, l := range t.lines {
		p.transcript.add("> ", l)
		if !utf8.ValidString(l) || t.garbage {
			p.emit(event{kind: evGarbage, text: l})
			continue
		}
		p.emit(event{kind: evLine, text: l})
	}
	p.mu.Lock()
	p.unreported--
	p.mu.Unlock()
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
	seen := 0 // ticks in a row the program was seen waiting
	for {
		select {
		case <-p.done:
			return
		case <-tick.C:
		}
		// An unfinished line after a quiet spell is a prompt.
		p.mu.Lock()
		quiet := time.Since(p.lastRead) > 40*time.Millisecond
		still := quiet && time.Since(p.lastWrite) > 40*time.Millisecond
		// All output taken and reported: none left on the terminal (read
		// takes what it reads under mu) and none taken but not yet passed on.
		allOut := p.unreported == 0 && printedNotRead(p.master) == 0
		gen, readAt := p.gen, p.readAt
		var prompt string
		if quiet && !p.prompted && strings.TrimSpace(string(p.partial)) != "" {
			prompt, p.prompted = string(p.partial), true
			p.reported = prompt
		}
		p.mu.Unlock()
		if prompt != "" {
			p.transcript.add("> ", prompt)
			p.emit(event{kind: evPrompt, text: prompt, gen: gen})
		}
		// Waiting: quiet since its last output and its last input, that
		// input read (the terminal's queue empty and the session's read
		// count past it: a pseudo-terminal hands input on asynchronously),
		// its output all taken, and blocked reading the terminal with no
		// thread running at two ticks in a row with nothing written between.
		var look sessionLook
		if still && allOut && p.unread() == 0 {
			look = lookAtSession(p.cmd.Process.Pid, p.term)
		}
		if look.waiting() && (gen == 0 || look.read > readAt) && p.generation() == gen {
			seen++
		} else {
			seen = 0
		}
		blocked := seen >= 2
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
	readAt := lookAtSession(p.cmd.Process.Pid, p.term).read
	p.mu.Lock()
	p.readAt = readAt
	p.partial, p.reported = p.partial[:0], ""
	p.gen++
	p.lastWrite = time.Now()
	p.mu.Unlock()
	_, err := p.master.Write([]byte(text + "\n"))
	return err
}

// unread returns the bytes of input the program has not read yet (-1 if
// unknown).
func (p *proc) unread() int {
	return queued(p.tty)
}

// queued returns the bytes waiting to be read at f, a terminal (-1 if
// unknown), without putting f in blocking mode as Fd would.
func queued(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	n := -1
	_ = rc.Control(func(fd uintptr) {
		if v, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil {
			n = v
		}
	})
	return n
}

// printedNotRead returns the bytes of output waiting to be read at master
// (-1 if unknown). A pseudo-terminal hands the program's output on to the
// master's side asynchronously, so bytes the program has written can be
// missing from TIOCINQ for a while (milliseconds on a loaded
// machine); a poll of the master makes the kernel deliver them first
// (n_tty_poll calls tty_buffer_flush_work), so that none are missed.
func printedNotRead(master *os.File) int {
	rc, err := master.SyscallConn()
	if err != nil {
		return -1
	}
	_ = rc.Control(func(fd uintptr) {
		_, _ = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
	})
	return queued(master)
}

// quietFor returns the time since the program last printed.
func (p *proc) quietFor() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Since(p.lastRead)
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
	p.printed, p.flooded = 0, false
	return n
}

// stop kills the program and everything it started (in its session, or
// its box), and frees its box.
func (p *proc) stop() {
	if p.box != nil {
		p.mu.Lock()
		if p.limit == "" {
			p.limit = p.box.Reason(nil)
		}
		p.mu.Unlock()
		p.box.Kill()
	} else {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
	}
	if p.box != nil {
		p.box.Close()
	}
	p.master.Close()
	p.tty.Close()
}

// limitHit returns the limit of its box the program hit, "" if none (or
// not known yet).
func (p *proc) limitHit() sandbox.Reason {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.limit == "" && p.box != nil {
		select {
		case <-p.done:
			p.limit = p.box.Reason(p.err)
		default:
			p.limit = p.box.Reason(nil)
		}
	}
	return p.limit
}

// overCPU returns the processor-time limit's reason when the program has
// used more than its box allows in a game, else "".
func (p *proc) overCPU() sandbox.Reason {
	if p.box == nil {
		return ""
	}
	return p.box.OverCPU()
}

// cpu returns the processor time the program has used (-1 when unknown).
func (p *proc) cpu() time.Duration {
	if p.box == nil {
		return -1
	}
	return p.box.CPU()
}

// exitText says how the program ended.
func (p *proc) exitText() string {
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
		return "closed its terminal"
	}
	if r := p.limitHit(); r != "" {
		return string(r)
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

// readingStdin starts /proc/PID/task/TID/syscall while a thread is in
// read(2) on fd 0: the system call's number on this architecture, then the
// first argument.
var readingStdin = strconv.Itoa(unix.SYS_READ) + " 0x0 "

// sessionLook is what /proc shows of a program's session at one look.
type sessionLook struct {
	reading bool  // a thread is blocked in read(2) on fd 0, the terminal
	running bool  // a thread is running or ready to run
	read    int64 // the bytes the session's processes have read so far
}

// waiting reports whether the session waits for input: a thread reads the
// terminal and none runs. A thread that runs may be handing on output
// that has not reached the terminal yet, as a relay to another process
// does, so the program is not waiting while one does.
func (s sessionLook) waiting() bool { return s.reading && !s.running }

// lookAtSession looks at the processes of the session led by sid (Linux:
// a thread's /proc/PID/task/TID/syscall starts with read's syscall number
// and fd 0 while it waits in read(2) on its standard input, and its stat
// holds its state); term is the terminal, which a reader's fd 0 must be:
// a process reading a pipe from another of the session waits for that
// process, not for input.
func lookAtSession(sid int, term os.FileInfo) sessionLook {
	var s sessionLook
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command in parentheses: state ppid pgrp session.
		f := statFields(stat)
		if len(f) < 4 || f[3] != strconv.Itoa(sid) {
			continue
		}
		if io, err := os.ReadFile(d + "/io"); err == nil {
			for _, line := range strings.Split(string(io), "\n") {
				if v, ok := strings.CutPrefix(line, "rchar: "); ok {
					n, _ := strconv.ParseInt(v, 10, 64)
					s.read += n
				}
			}
		}
		// Any thread of it (a Go program reads on some thread of its own).
		tasks, _ := filepath.Glob(d + "/task/[0-9]*")
		for _, task := range tasks {
			if st, err := os.ReadFile(task + "/stat"); err == nil {
				if f := statFields(st); len(f) > 0 && f[0] == "R" {
					s.running = true
				}
			}
			if sc, err := os.ReadFile(task + "/syscall"); err == nil && strings.HasPrefix(string(sc), readingStdin) && readsTerminal(d, term) {
				s.reading = true
			}
		}
	}
	return s
}

// statFields returns the fields of a /proc stat file after the command
// in parentheses (which may hold spaces), from the state on.
func statFields(stat []byte) []string {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(stat[i+1:]))
}

// readsTerminal reports whether fd 0 of the process at /proc dir is term
// (when either is unknown, it is taken to be).
func readsTerminal(dir string, term os.FileInfo) bool {
	if term == nil {
		return true
	}
	in, err := os.Stat(dir + "/fd/0")
	return err != nil || os.SameFile(in, term)
}
