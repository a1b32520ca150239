package store

import (
	"errors"
	"net"
	"sync"
)

// errPipeClosed is what a write to a closed asyncConn returns.
var errPipeClosed = errors.New("embedded store connection closed")

// asyncConn is the server end of an in-memory pipe whose writes never
// block: they are queued and sent by a goroutine. net.Pipe has no buffer,
// and miniredis answers each command of a pipeline before it reads the
// next, so without this a pipeline larger than the server's read buffer
// deadlocks: the server waits for the client to read a reply while the
// client is still writing the pipeline.
type asyncConn struct {
	net.Conn
	mu     sync.Mutex
	cond   *sync.Cond
	queue  [][]byte
	closed bool
	err    error
}

// newAsyncConn wraps c and starts its sender.
func newAsyncConn(c net.Conn) *asyncConn {
	a := &asyncConn{Conn: c}
	a.cond = sync.NewCond(&a.mu)
	go a.send()
	return a
}

// Write queues p for sending and returns at once.
func (a *asyncConn) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return 0, a.err
	}
	if a.closed {
		return 0, errPipeClosed
	}
	a.queue = append(a.queue, append([]byte(nil), p...))
	a.cond.Signal()
	return len(p), nil
}

// send writes the queue to the pipe until the connection closes or a
// write fails.
func (a *asyncConn) send() {
	for {
		a.mu.Lock()
		for len(a.queue) == 0 && !a.closed {
			a.cond.Wait()
		}
		if len(a.queue) == 0 {
			a.mu.Unlock()
			return
		}
		b := a.queue[0]
		a.queue[0] = nil
		a.queue = a.queue[1:]
		a.mu.Unlock()
		if _, err := a.Conn.Write(b); err != nil {
			a.mu.Lock()
			a.err = err
			a.queue = nil
			a.mu.Unlock()
			return
		}
	}
}

// Close stops the sender and closes the pipe.
func (a *asyncConn) Close() error {
	a.mu.Lock()
	a.closed = true
	a.queue = nil
	a.cond.Signal()
	a.mu.Unlock()
	return a.Conn.Close()
}
