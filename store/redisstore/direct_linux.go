package redisstore

import (
	"io"
	"net"
	"os"
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
	network  string // "tcp" or "unix", for errors
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
	return &directConn{Conn: c, raw: raw, network: network}
}

// Read reads what the socket holds, up to len(p) bytes, waiting for some
// if it holds none. It returns io.EOF once the peer has closed.
func (c *directConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.raw.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false
			}
			n, errno = int(r), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, c.opError("read", errno)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of p, waiting for room in the socket's buffer as
// often as it must.
func (c *directConn) Write(p []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := c.raw.Write(func(fd uintptr) bool {
		for n < len(p) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
			switch e {
			case 0:
				n += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, err
	case errno != 0:
		return n, c.opError("write", errno)
	}
	return n, nil
}

// opError describes a failed call as net's connections do, so that
// go-redis sees the network error it retries.
func (c *directConn) opError(op string, errno syscall.Errno) error {
	return &net.OpError{Op: op, Net: c.network, Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError(op, errno)}
}
