//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The identity a program has in its box (nobody), so that it is no one
// the system's files trust.
const boxUID = 65534

// New returns a sandbox with policy p, after looking at what this machine
// offers: bwrap, prlimit, user namespaces and writable cgroups.
func New(p Policy) *Sandbox {
	if p.Mode == "" {
		p.Mode = On
	}
	p.Limits = p.Limits.WithDefaults()
	s := &Sandbox{policy: p}
	if path, err := exec.LookPath("bwrap"); err == nil {
		s.bwrap = path
	} else {
		s.why = errors.New("bubblewrap (bwrap) is not installed")
		return s
	}
	if path, err := exec.LookPath("prlimit"); err != nil || !underRuntimes(path) {
		s.why = errors.New("prlimit (util-linux) is not installed under /usr")
		return s
	}
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && strings.TrimSpace(string(b)) == "0" {
		s.why = errors.New("user namespaces are turned off (sysctl user.max_user_namespaces is 0)")
		return s
	}
	if os.Geteuid() != 0 {
		if b, err := os.ReadFile("/proc/sys/kernel/unprivileged_userns_clone"); err == nil && strings.TrimSpace(string(b)) == "0" {
			s.why = errors.New("user namespaces are closed to users other than root (sysctl kernel.unprivileged_userns_clone is 0)")
			return s
		}
	}
	return s
}

// Probe starts an empty box and reports whether it ran: the proof that
// this machine's kernel lets bwrap make its namespaces.
func (s *Sandbox) Probe(ctx context.Context) error {
	if s == nil {
		s = New(Policy{})
	}
	if s.policy.Mode == Off {
		return nil
	}
	if err := s.Check(); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "true")
	b, err := s.Box(cmd, Spec{})
	if err != nil {
		return err
	}
	var out strings.Builder
	b.Cmd.Stdout, b.Cmd.Stderr = &out, &out
	err = b.Cmd.Run()
	b.Close()
	if err != nil {
		return fmt.Errorf("%w: an empty box failed (%v): %s", ErrUnavailable, err, strings.TrimSpace(out.String()))
	}
	return nil
}

// BoundsProcesses reports whether the process limit holds here: a pids
// cgroup, or rlimits for a user other than root (the kernel exempts root
// from its process count).
func (s *Sandbox) BoundsProcesses() bool {
	return cgroupParent("pids") != "" || os.Geteuid() != 0
}

// enforcement says how the limits are enforced here.
func (s *Sandbox) enforcement() string {
	var cg []string
	for _, c := range controllers {
		if cgroupParent(c) != "" {
			cg = append(cg, c)
		}
	}
	if len(cg) == 0 {
		return "rlimits only (no writable cgroup: memory is each process's data segment)"
	}
	return "cgroup v1 " + strings.Join(cg, ", ") + " and rlimits"
}

// runtimes are the host's folders of programs and libraries a box shows
// read-only; a program's own folder is never one of them.
var runtimes = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

func underRuntimes(path string) bool {
	for _, r := range runtimes {
		if path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}

// etcFiles are the files of /etc the runtimes read (the loader's cache,
// Debian's alternatives, Java's and Python's settings, the time zone);
// nothing else of /etc (no shadow, no host names) is shown.
var etcFiles = []string{"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/localtime", "/etc/nsswitch.conf", "/etc/java*", "/etc/python3*", "/etc/ssl/certs/java"}

// confinement is what a box holds on the host.
type confinement struct {
	dir     string            // a host folder of files shown in the box (passwd, group)
	cgroups map[string]string // controller: the box's cgroup folder
}

// Box prepares cmd, set up as the program would run unconfined (Path,
// Args, Dir), to run in a box instead. With the mode Off it leaves cmd as
// it is and logs a warning; where no box can be made it fails with an
// error naming the fix.
func (s *Sandbox) Box(cmd *exec.Cmd, spec Spec) (*Box, error) {
	if s == nil {
		s = New(Policy{})
	}
	if s.policy.Mode == Off {
		return s.unconfined(cmd), nil
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	l := s.policy.Limits
	cwd := cmd.Dir
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	cwd, _ = filepath.Abs(cwd)
	dir, err := os.MkdirTemp("", "arbiter-box-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	c := &confinement{dir: dir, cgroups: map[string]string{}}
	b := &Box{Cmd: cmd, limits: l, confine: c}
	fail := func(err error) (*Box, error) {
		b.release()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	passwd := filepath.Join(dir, "passwd")
	group := filepath.Join(dir, "group")
	if err := os.WriteFile(passwd, []byte("player:x:65534:65534:player:/tmp:/bin/sh\n"), 0o644); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(group, []byte("player:x:65534:\n"), 0o644); err != nil {
		return fail(err)
	}
	if err := c.makeCgroups(l); err != nil {
		return fail(err)
	}

	args := []string{"--unshare-all", "--die-with-parent", "--uid", strconv.Itoa(boxUID), "--gid", strconv.Itoa(boxUID)}
	if !spec.Terminal {
		args = append(args, "--new-session")
	}
	for _, r := range runtimes[:len(runtimes)-1] {
		fi, err := os.Lstat(r)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(r)
			if err == nil {
				args = append(args, "--symlink", target, r)
			}
		case fi.IsDir():
			args = append(args, "--ro-bind", r, r)
		}
	}
	for _, pattern := range etcFiles {
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			args = append(args, "--ro-bind", m, m)
		}
	}
	args = append(args, "--ro-bind", passwd, "/etc/passwd", "--ro-bind", group, "/etc/group",
		"--proc", "/proc", "--dev", "/dev",
		"--size", strconv.FormatInt(l.Scratch, 10), "--tmpfs", "/tmp")
	own := programFolder(cwd, spec.Words)
	hidden := func(p string) bool {
		for _, h := range s.policy.Hide {
			if h = absClean(h); h != "" && (p == h || strings.HasPrefix(p, h+"/")) {
				return true
			}
		}
		return false
	}
	if own != "" && !hidden(own) {
		if !within(cwd, own) {
			args = append(args, "--dir", cwd)
		}
		args = append(args, "--ro-bind", own, own)
		for _, h := range s.policy.Hide {
			h = absClean(h)
			if h == "" || !strings.HasPrefix(h, own+"/") {
				continue
			}
			fi, err := os.Stat(h)
			switch {
			case err != nil:
			case fi.IsDir():
				args = append(args, "--size", "4096", "--tmpfs", h)
			default:
				args = append(args, "--ro-bind", "/dev/null", h)
			}
		}
	} else {
		args = append(args, "--dir", cwd)
	}
	args = append(args, "--remount-ro", "/dev", "--remount-ro", "/", "--chdir", cwd, "--clearenv")
	for _, kv := range s.environment() {
		name, value, _ := strings.Cut(kv, "=")
		args = append(args, "--setenv", name, value)
	}
	cpu := int64(l.CPUTime / time.Second)
	args = append(args, "--", "prlimit", "--core=0",
		fmt.Sprintf("--nofile=%d", l.OpenFiles), fmt.Sprintf("--fsize=%d", l.FileSize),
		fmt.Sprintf("--cpu=%d:%d", cpu, cpu+1), fmt.Sprintf("--nproc=%d", l.Processes))
	if c.cgroups["memory"] == "" {
		args = append(args, fmt.Sprintf("--data=%d", l.Memory))
	}
	args = append(args, "--")
	args = append(args, cmd.Args...)

	argv := append([]string{s.bwrap}, args...)
	if len(c.cgroups) > 0 {
		// A shell joins the box's cgroups and becomes bwrap, so that the
		// box is inside them from its first instruction.
		join := []string{"/bin/sh", "-c", `while [ "$1" != -- ]; do echo $$ > "$1" || exit 126; shift; done; shift; exec "$@"`, "sh"}
		for _, ctl := range controllers {
			if d := c.cgroups[ctl]; d != "" {
				join = append(join, filepath.Join(d, "cgroup.procs"))
			}
		}
		argv = append(append(join, "--"), argv...)
	}
	cmd.Path, cmd.Args = argv[0], argv
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Err = nil // a program name the host could not resolve may exist in the box
	return b, nil
}

// environment returns the variables a boxed program gets.
func (s *Sandbox) environment() []string {
	lang := os.Getenv("LANG")
	if lang == "" {
		lang = "C.UTF-8"
	}
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=" + lang, "HOME=/tmp"}
	if tz := os.Getenv("TZ"); tz != "" {
		env = append(env, "TZ="+tz)
	}
	for _, kv := range s.policy.Env {
		if name, _, ok := strings.Cut(kv, "="); ok && name != "" {
			env = append(env, kv)
		}
	}
	return env
}

// programFolder returns the folder the program lives in: the first word
// that names an existing file (its folder) or folder, outside the
// system's runtimes; "" when there is none. A folder that is the root, the
// home folder or holds it gives only the named file.
func programFolder(cwd string, words []string) string {
	home, _ := os.UserHomeDir()
	home = absClean(home)
	for _, w := range words {
		w = strings.Trim(w, `"'`)
		if w == "" || strings.HasPrefix(w, "-") {
			continue
		}
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		p = absClean(p)
		fi, err := os.Stat(p)
		if err != nil || underRuntimes(p) {
			continue
		}
		folder := p
		if !fi.IsDir() {
			folder = filepath.Dir(p)
		}
		if folder == "/" || home != "" && within(folder, home) {
			if fi.IsDir() {
				continue
			}
			return p
		}
		return folder
	}
	return ""
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+"/")
}

func absClean(p string) string {
	if p == "" {
		return ""
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		return r
	}
	return a
}

// controllers are the cgroup version 1 controllers a box uses.
var controllers = []string{"memory", "pids", "cpuacct"}

// cgroupParent returns the writable folder of this process's own cgroup
// of a version 1 controller, "" when there is none.
func cgroupParent(controller string) string {
	own := ""
	if f, err := os.Open("/proc/self/cgroup"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			parts := strings.SplitN(sc.Text(), ":", 3)
			if len(parts) == 3 && hasItem(parts[1], controller) {
				own = parts[2]
			}
		}
		f.Close()
	}
	if own == "" {
		return ""
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, x := range fields {
			if x == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || len(fields) < sep+4 || fields[sep+1] != "cgroup" || !hasItem(fields[sep+3], controller) {
			continue
		}
		root, mount := fields[3], fields[4]
		rel, ok := strings.CutPrefix(own, root)
		if !ok {
			continue
		}
		dir := filepath.Join(mount, rel)
		if unix.Access(dir, unix.W_OK) == nil {
			return dir
		}
	}
	return ""
}

func hasItem(list, item string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == item {
			return true
		}
	}
	return false
}

// makeCgroups makes the box's cgroups where this process may, with the
// limits set.
func (c *confinement) makeCgroups(l Limits) error {
	var id [6]byte
	_, _ = rand.Read(id[:])
	name := fmt.Sprintf("arbiter-box-%d-%s", os.Getpid(), hex.EncodeToString(id[:]))
	for _, ctl := range controllers {
		parent := cgroupParent(ctl)
		if parent == "" {
			continue
		}
		d := filepath.Join(parent, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			continue // not ours to divide: rlimits only
		}
		c.cgroups[ctl] = d
		var err error
		switch ctl {
		case "memory":
			err = write(d, "memory.limit_in_bytes", l.Memory)
			if err == nil {
				_ = write(d, "memory.memsw.limit_in_bytes", l.Memory) // no swap beyond it, where swap is counted
			}
		case "pids":
			err = write(d, "pids.max", int64(l.Processes))
		}
		if err != nil {
			return fmt.Errorf("set the %s limit: %w", ctl, err)
		}
	}
	return nil
}

func write(dir, file string, n int64) error {
	return os.WriteFile(filepath.Join(dir, file), []byte(strconv.FormatInt(n, 10)), 0o644)
}

// counter reads NAME's number from a cgroup file of "NAME N" lines.
func counter(dir, file, name string) int64 {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

func (b *Box) cpu() time.Duration {
	if d := b.confine.cgroupDir("cpuacct"); d != "" {
		if v, err := os.ReadFile(filepath.Join(d, "cpuacct.usage")); err == nil {
			n, _ := strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64)
			return time.Duration(n)
		}
	}
	return treeCPU(b.Cmd.Process.Pid)
}

func (c *confinement) cgroupDir(ctl string) string {
	if c == nil {
		return ""
	}
	return c.cgroups[ctl]
}

// treeCPU sums the processor time of pid and its descendants (and of
// their children they waited for), from /proc.
func treeCPU(pid int) time.Duration {
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(b[i+1:]))
		if len(fields) < 15 {
			continue
		}
		p, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		pp, _ := strconv.Atoi(fields[1])
		parent[p] = pp
		var t int64
		for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			n, _ := strconv.ParseInt(fields[k], 10, 64)
			t += n
		}
		ticks[p] = t
	}
	var sum int64
	for p, t := range ticks {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				sum += t
				break
			}
		}
	}
	return time.Duration(sum) * (time.Second / 100) // USER_HZ
}

func (b *Box) reason(exit error) Reason {
	l, c := b.limits, b.confine
	if d := c.cgroupDir("memory"); d != "" && (counter(d, "memory.oom_control", "oom_kill") > 0 || atLimit(d, l.Memory)) {
		return memoryReason(l)
	}
	if d := c.cgroupDir("pids"); d != "" && counter(d, "pids.events", "max") > 0 {
		return processReason(l)
	}
	var ee *exec.ExitError
	if !errors.As(exit, &ee) {
		return ""
	}
	// bwrap (and the shell) exit with 128 + the signal that ended the
	// program.
	code := ee.ExitCode()
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		code = 128 + int(ws.Signal())
	}
	switch code {
	case 128 + int(syscall.SIGXFSZ):
		return fileReason(l)
	case 128 + int(syscall.SIGXCPU):
		return cpuReason(l)
	case 128 + int(syscall.SIGKILL):
		if b.cpu() >= l.CPUTime {
			return cpuReason(l)
		}
	}
	return ""
}

// atLimit reports whether a memory cgroup has reached its limit and holds
// nearly all of it: a program stuck there reclaiming is over its memory
// even before the kernel kills it.
func atLimit(dir string, limit int64) bool {
	read := func(file string) int64 {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return 0
		}
		n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		return n
	}
	return read("memory.failcnt") > 0 && read("memory.usage_in_bytes") >= limit/10*9
}

func (b *Box) kill() {
	pid := b.Cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGKILL) // its process group or session, when it leads one
	_ = b.Cmd.Process.Kill()
	if b.confine != nil {
		if d := b.confine.cgroupDir("pids"); d != "" {
			killAll(d)
		}
	}
}

// killAll kills every process of a cgroup.
func killAll(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return
	}
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func (b *Box) release() {
	c := b.confine
	if c == nil {
		return
	}
	if c.dir != "" {
		_ = os.RemoveAll(c.dir)
	}
	for ctl, d := range c.cgroups {
		// A killed process leaves its cgroup a moment after it dies.
		for i := 0; i < 200; i++ {
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			if ctl == "pids" {
				killAll(d)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
