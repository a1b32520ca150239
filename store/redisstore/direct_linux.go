package redisstore

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// directConn is a connection to Redis that reads and writes its
// non-blocking socket with raw system calls, and waits in the network
// poller only when the socket is not ready, as net's connections do.
//
// It saves CPU on every round trip. An ordinary system call enters the
// scheduler's syscall state. Made while all of the process's processors
// are idle, as between the moves of a single game, that wakes the
// runtime's monitor thread; under load, a call that outlasts the
// monitor's tick (a loopback write, which runs the receiver's network
// stack too, can) has its processor handed to another thread. Both cost
// context switches. The calls here cannot block, the socket being
// non-blocking, and they keep the processor for the microseconds they
// take.
//
// directConn does not offer SyscallConn: go-redis then skips its peek
// for a closed connection before each command, as it does for TLS
// connections (the peek would enter the syscall state too). A command on
// a connection that Redis has closed fails with an error that go-redis
// retries on a new connection (TestRetriesOnAConnectionRedisClosed).
type directConn struct {
	net.Conn // addresses, deadlines and Close
	raw      syscall.RawConn
	network  string  // "tcp" or "unix", for errors
	rd, wr   rawCall // the read and the write in progress
}

// rawCall is a read or a write in progress on a directConn: what the
// poller's callback needs, kept in the connection so that a call
// allocates nothing. Its lock makes calls in one direction take turns.
type rawCall struct {
	mu    sync.Mutex
	p     []byte // the caller's buffer, during the call only
	n     int    // bytes done
	errno syscall.Errno
	step  func(fd uintptr) bool // readStep or writeStep, bound once
}

// direct returns c as a directConn when it is a TCP or Unix socket, and c
// itself otherwise.
func direct(c net.Conn) net.Conn {
	var network string
	switch c.(type) {
	case *net.TCPConn:
		network = "tcp"
	case *net.UnixConn:
		network = "unix"
	default:
		return c
	}
	raw, err := c.(syscall.Conn).SyscallConn()
	if err != nil {
		return c
	}
	d := &directConn{Conn: c, raw: raw, network: network}
	d.rd.step, d.wr.step = d.rd.readStep, d.wr.writeStep
	return d
}

// Read reads what the socket holds, up to len(p) bytes, waiting for some
// if it holds none. It returns io.EOF once the peer has closed.
func (c *directConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := c.rd.run(p, c.raw.Read)
	switch {
	case err != nil:
		return 0, c.callError("read", err)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of p, waiting for room in the socket's buffer as
// often as it must.
func (c *directConn) Write(p []byte) (int, error) {
	n, err := c.wr.run(p, c.raw.Write)
	if err != nil {
		return n, c.callError("write", err)
	}
	return n, nil
}

// run makes the call on p through poll (the RawConn's Read or Write,
// which waits for the socket between steps and honours its deadline) and
// returns the bytes done and the poller's error or the call's.
func (r *rawCall) run(p []byte, poll func(func(fd uintptr) bool) error) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p, r.n, r.errno = p, 0, 0
	err := poll(r.step)
	n, errno := r.n, r.errno
	r.p = nil
	if err == nil && errno != 0 {
		err = errno
	}
	return n, err
}

// readStep reads once into r.p; false asks the poller to wait.
func (r *rawCall) readStep(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.p[0])), uintptr(len(r.p)))
		switch e {
		case 0:
			r.n = int(n)
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		default:
			r.errno = e
		}
		return true
	}
}

// writeStep writes what is left of r.p; false asks the poller to wait for
// room.
func (r *rawCall) writeStep(fd uintptr) bool {
	for r.n < len(r.p) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&r.p[r.n])), uintptr(len(r.p)-r.n))
		switch e {
		case 0:
			r.n += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			r.errno = e
			return true
		}
	}
	return true
}

// callError describes a failed call as net's connections do, so that
// go-redis sees the network error it retries. The poller's errors (a
// deadline passed, the connection closed) come already described.
func (c *directConn) callError(op string, err error) error {
	errno, ok := err.(syscall.Errno)
	if !ok {
		return err
	}
	return &net.OpError{Op: op, Net: c.network, Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError(op, errno)}
}
