package sandbox

import (
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Mode says whether programs run in a box.
type Mode string

const (
	// On runs every program in a box and refuses to start one where no
	// box can be made.
	On Mode = "on"
	// Off runs programs unconfined, with a warning at every start.
	Off Mode = "off"
)

// ParseMode reads "on" or "off" ("" is On).
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "on":
		return On, nil
	case "off":
		return Off, nil
	}
	return "", fmt.Errorf("sandbox %q: write on or off", s)
}

// Limits bound what one program (with everything it starts) may use in
// one game. A zero field takes its default (DefaultLimits).
type Limits struct {
	// Memory is the memory its processes may use together (with a
	// cgroup; without one, the data segment of each process).
	Memory int64
	// Processes is the most processes and threads it may run at once.
	Processes int
	// FileSize is the largest file it may write.
	FileSize int64
	// CPUTime is the processor time its processes may use: each alone
	// (an rlimit), and all of them together in a game (Box.OverCPU, asked
	// by the host after each move).
	CPUTime time.Duration
	// OpenFiles is the most files each of its processes may hold open.
	OpenFiles int
	// Scratch is the size of its private writable folder (/tmp, HOME).
	Scratch int64
}

// The default limits.
const (
	DefaultMemory    = 1 << 30
	DefaultProcesses = 64
	DefaultFileSize  = 64 << 20
	DefaultCPUTime   = 10 * time.Minute
	DefaultOpenFiles = 256
	DefaultScratch   = 128 << 20
)

// DefaultLimits returns the limits a program gets unless told otherwise.
func DefaultLimits() Limits {
	return Limits{Memory: DefaultMemory, Processes: DefaultProcesses, FileSize: DefaultFileSize,
		CPUTime: DefaultCPUTime, OpenFiles: DefaultOpenFiles, Scratch: DefaultScratch}
}

// WithDefaults returns l with each zero field set to its default.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.Memory <= 0 {
		l.Memory = d.Memory
	}
	if l.Processes <= 0 {
		l.Processes = d.Processes
	}
	if l.FileSize <= 0 {
		l.FileSize = d.FileSize
	}
	if l.CPUTime <= 0 {
		l.CPUTime = d.CPUTime
	}
	if l.OpenFiles <= 0 {
		l.OpenFiles = d.OpenFiles
	}
	if l.Scratch <= 0 {
		l.Scratch = d.Scratch
	}
	return l
}

// String writes l as ParseLimits reads it.
func (l Limits) String() string {
	return fmt.Sprintf("memory=%s,processes=%d,filesize=%s,cputime=%v,openfiles=%d,scratch=%s",
		Size(l.Memory), l.Processes, Size(l.FileSize), l.CPUTime, l.OpenFiles, Size(l.Scratch))
}

// Set reads "NAME=VALUE[,NAME=VALUE...]" into l, NAME one of memory,
// processes, filesize, cputime, openfiles, scratch; sizes as 512MiB, 2GiB
// or bytes, times as 90s or 10m.
func (l *Limits) Set(text string) error {
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, value, ok := strings.Cut(item, "=")
		if !ok {
			return fmt.Errorf("limit %q: write NAME=VALUE, NAME one of memory, processes, filesize, cputime, openfiles, scratch", item)
		}
		var err error
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "memory":
			l.Memory, err = ParseSize(value)
		case "processes":
			l.Processes, err = positive(value)
		case "filesize":
			l.FileSize, err = ParseSize(value)
		case "cputime":
			l.CPUTime, err = time.ParseDuration(strings.TrimSpace(value))
			if err == nil && l.CPUTime < time.Second {
				err = errors.New("at least 1s")
			}
		case "openfiles":
			l.OpenFiles, err = positive(value)
		case "scratch":
			l.Scratch, err = ParseSize(value)
		default:
			return fmt.Errorf("limit %q: unknown; the limits are memory, processes, filesize, cputime, openfiles, scratch", name)
		}
		if err != nil {
			return fmt.Errorf("limit %s: %q: %w", name, value, err)
		}
	}
	return nil
}

func positive(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 0, errors.New("a whole number from 1")
	}
	return n, nil
}

// ParseSize reads a size: bytes, or a number with KiB, MiB, GiB (or K, M,
// G, KB, MB, GB, all powers of 1024).
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	num := strings.TrimRightFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 {
		return 0, errors.New("a size such as 512MiB or 2GiB")
	}
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30}
	sh, ok := shift[unit]
	if !ok || n > (1<<62)>>sh {
		return 0, errors.New("a size such as 512MiB or 2GiB")
	}
	return n << sh, nil
}

// Size writes n bytes as a person reads it: 1 GiB, 64 MiB, 1000 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Policy is how a Sandbox boxes its programs.
type Policy struct {
	// Mode is On (the default) or Off.
	Mode Mode
	// Limits bound each program (zero fields: defaults).
	Limits Limits
	// Env holds "NAME=VALUE" variables the program gets besides PATH,
	// LANG, TZ and HOME.
	Env []string
	// Hide lists host paths (the data folder, the .env file, the admin
	// socket) that stay invisible even inside a program's own folder.
	Hide []string
	// Log receives the warning logged at every unconfined start (Mode
	// Off); slog.Default() when nil.
	Log *slog.Logger
}

// Sandbox starts programs under one Policy. Its zero value is not usable:
// make one with New. A nil *Sandbox is a default one (On, default limits).
type Sandbox struct {
	policy Policy
	bwrap  string // the bwrap binary, "" when missing
	why    error  // why no box can be made here, nil when one can
}

// Policy returns the sandbox's policy, with its limits' defaults filled in.
func (s *Sandbox) Policy() Policy {
	if s == nil {
		return Policy{Mode: On, Limits: DefaultLimits()}
	}
	return s.policy
}

// With returns a sandbox like s with other limits and more variables: one
// player's own settings.
func (s *Sandbox) With(l Limits, env []string) *Sandbox {
	if s == nil {
		s = New(Policy{})
	}
	c := *s
	c.policy.Limits = l.WithDefaults()
	c.policy.Env = append(append([]string{}, s.policy.Env...), env...)
	return &c
}

// Check says whether programs may start: nil when they run in a box, or
// unconfined by choice (Off); otherwise an error naming the fix.
func (s *Sandbox) Check() error {
	if s == nil {
		s = New(Policy{})
	}
	if s.policy.Mode == Off || s.why == nil {
		return nil
	}
	return fmt.Errorf("%w: %v; install bubblewrap (Debian and Ubuntu: apt install bubblewrap) on a Linux machine with user namespaces, or run untrusted programs unconfined with --sandbox off (setting SANDBOX=off)", ErrUnavailable, s.why)
}

// ErrUnavailable is the error of Check and Box where no box can be made.
var ErrUnavailable = errors.New("this machine cannot run programs in a sandbox")

// Status says, in one line, which sandbox is in force and why.
func (s *Sandbox) Status() string {
	if s == nil {
		s = New(Policy{})
	}
	if s.policy.Mode == Off {
		return "off (--sandbox off): programs run unconfined, with the host's environment, files and network"
	}
	if s.why != nil {
		return "unavailable: " + s.why.Error()
	}
	return "bubblewrap (" + s.bwrap + ") with " + s.enforcement() + "; limits " + s.policy.Limits.String()
}

// Reason words a limit a program hit for a student: "used more than 1 GiB
// of memory". It is "" for a program that hit none.
type Reason string

// reasons for each limit.
func memoryReason(l Limits) Reason {
	return Reason("used more than " + Size(l.Memory) + " of memory")
}
func processReason(l Limits) Reason {
	return Reason(fmt.Sprintf("started more than %d processes", l.Processes))
}
func fileReason(l Limits) Reason { return Reason("wrote more than " + Size(l.FileSize)) }
func cpuReason(l Limits) Reason {
	return Reason(fmt.Sprintf("used more than %v of processor time", l.CPUTime))
}

// unconfined prepares cmd to run as it is, with a warning.
func (s *Sandbox) unconfined(cmd *exec.Cmd) *Box {
	log := s.policy.Log
	if log == nil {
		log = slog.Default()
	}
	log.Warn("sandbox off: running a program unconfined, with this process's environment, files and network", "command", strings.Join(cmd.Args, " "))
	return &Box{Cmd: cmd, limits: s.policy.Limits}
}
