// Package redistest runs a real redis-server for tests: on a unix socket
// or a free loopback port, in a temp directory, stopped when the test ends.
// A test that needs one is skipped, with a message saying why, only when
// redis-server is not installed, and never under CI (CI set), where it fails.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hang bounds the waits for a redis-server or a cluster to come up: far
// beyond what the slowest machine takes, it is reached only by a hang.
const hang = 2 * time.Minute

// Options choose how the server runs.
type Options struct {
	// AppendOnly turns on the append-only file with an fsync at every
	// write (appendfsync always): every acknowledged write survives a kill.
	AppendOnly bool
	// TCP listens on a free 127.0.0.1 port instead of a unix socket.
	TCP bool
}

// Server is one redis-server process.
type Server struct {
	t    testing.TB
	opts Options
	dir  string
	sock string
	port int
	cmd  *exec.Cmd
	exit chan error
}

// Installed reports whether redis-server is on the PATH.
func Installed() bool {
	_, err := exec.LookPath("redis-server")
	return err == nil
}

// Start starts a redis-server for t and stops it when t ends. It skips t
// when redis-server is not installed and fails t when it will not start.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	if !Installed() {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server is not installed, and CI must test against real Redis (.ci/run installs it)")
		}
		t.Skip("redis-server is not installed (apt-get install redis-server): skipping the test against real Redis")
	}
	// A short directory: a unix socket path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "redistest")
	if err != nil {
		t.Fatalf("redistest: %v", err)
	}
	s := &Server{t: t, opts: opts, dir: dir}
	if opts.TCP {
		s.port = freePort(t)
	} else {
		s.sock = filepath.Join(dir, "redis.sock")
	}
	t.Cleanup(func() {
		s.Kill()
		_ = os.RemoveAll(dir)
	})
	s.start()
	return s
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("redistest: find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// URL returns the server's address for store.Config.RedisURL.
func (s *Server) URL() string {
	if s.opts.TCP {
		return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port)
	}
	return "unix://" + s.sock
}

func (s *Server) network() (string, string) {
	if s.opts.TCP {
		return "tcp", "127.0.0.1:" + strconv.Itoa(s.port)
	}
	return "unix", s.sock
}

// start runs redis-server and waits until it answers PING.
func (s *Server) start() {
	s.t.Helper()
	args := []string{
		"--bind", "127.0.0.1",
		"--port", strconv.Itoa(s.port), // 0, no TCP, with a unix socket
		"--dir", s.dir,
		"--save", "",
		"--logfile", filepath.Join(s.dir, "redis.log"),
		"--daemonize", "no",
	}
	if !s.opts.TCP {
		args = append(args, "--unixsocket", s.sock, "--unixsocketperm", "700")
	}
	if s.opts.AppendOnly {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	cmd := exec.Command("redis-server", args...)
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("redistest: start redis-server: %v", err)
	}
	s.cmd = cmd
	s.exit = make(chan error, 1)
	go func() { s.exit <- cmd.Wait() }()

	deadline := time.Now().Add(hang)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.exit:
			s.cmd = nil
			s.t.Fatalf("redistest: redis-server exited at start (%v); its log:\n%s", err, s.logText())
		default:
		}
		if s.ping() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("redistest: redis-server did not answer PING within 10s; its log:\n%s", s.logText())
}

// ping reports whether the server answers PING (and has loaded its data).
func (s *Server) ping() bool {
	network, addr := s.network()
	c, err := net.DialTimeout(network, addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}

func (s *Server) logText() string {
	data, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
	return string(data)
}

// Kill stops the server with SIGKILL, as a crash would, and waits for it.
func (s *Server) Kill() { s.signal(syscall.SIGKILL) }

// Stop stops the server with SIGTERM and waits for it.
func (s *Server) Stop() { s.signal(syscall.SIGTERM) }

func (s *Server) signal(sig syscall.Signal) {
	stopProcess(s.cmd, s.exit, sig)
	s.cmd = nil
}

// stopProcess sends sig to a redis-server started with cmd (a paused one
// is resumed, since it must run to die of SIGTERM) and waits for it on
// exit, killing it after 10 s. A nil cmd is not running.
func stopProcess(cmd *exec.Cmd, exit <-chan error, sig syscall.Signal) {
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(sig)
	resume(cmd)
	select {
	case <-exit:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-exit
	}
}

// Pause freezes the server (SIGSTOP): it keeps its connections but
// answers nothing, like a Redis that is overloaded or swapping.
func (s *Server) Pause() {
	if s.cmd != nil {
		pause(s.cmd)
	}
}

// Resume lets a paused server run again (SIGCONT).
func (s *Server) Resume() {
	if s.cmd != nil {
		resume(s.cmd)
	}
}

// Restart starts the stopped server again on the same address and data
// directory.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	if s.sock != "" {
		_ = os.Remove(s.sock)
	}
	s.start()
}
