package redisstore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// directPair returns a directConn dialled over network to a listener, and
// the listener's end of it.
func directPair(t *testing.T, network string) (*directConn, net.Conn) {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "s")
	}
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		accepted <- c
	}()
	dial := directDialer(func(ctx context.Context, network, addr string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	})
	c, err := dial(context.Background(), network, l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer := <-accepted
	if peer == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); peer.Close() })
	d, ok := c.(*directConn)
	if !ok {
		t.Fatalf("the dialer made a %T, want a *directConn", c)
	}
	return d, peer
}

// TestDirectConnCarriesWhatIsWritten: bytes written either way arrive
// whole and in order, through many more than a socket buffer holds, so
// that the writes wait for room and the reads for data.
func TestDirectConnCarriesWhatIsWritten(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			c, peer := directPair(t, network)
			data := make([]byte, 8<<20)
			for i := range data {
				data[i] = byte(rand.Uint32())
			}
			// The peer echoes everything back.
			go func() { _, _ = io.Copy(peer, peer) }()
			written := make(chan error, 1)
			go func() {
				n, err := c.Write(data)
				if err == nil && n != len(data) {
					err = io.ErrShortWrite
				}
				written <- err
			}()
			got := make([]byte, len(data))
			if _, err := io.ReadFull(c, got); err != nil {
				t.Fatalf("read back: %v", err)
			}
			if err := <-written; err != nil {
				t.Fatalf("write: %v", err)
			}
			if !bytes.Equal(got, data) {
				t.Fatal("the bytes read back differ from those written")
			}
			if n, err := c.Read(nil); n != 0 || err != nil {
				t.Errorf("Read(nil) = %d, %v; want 0, nil", n, err)
			}
		})
	}
}

// TestDirectConnHonoursDeadlines: a read with nothing to read and a write
// with no room left fail as timeouts once their deadlines pass, as go-redis
// expects of a connection.
func TestDirectConnHonoursDeadlines(t *testing.T) {
	c, _ := directPair(t, "tcp")
	if err := c.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := c.Read(make([]byte, 10))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past its deadline: %v, want a timeout", err)
	}
	// The peer never reads: the write fills both buffers, then waits. A
	// deadline that passes before the write begins (a busy machine) times
	// it out with nothing written, as it should; the wait is then doubled,
	// up to a bound only a hang reaches, until the write begins in time.
	var n int
	for wait := 50 * time.Millisecond; n == 0 && wait <= 20*time.Second; wait *= 2 {
		if err := c.SetWriteDeadline(time.Now().Add(wait)); err != nil {
			t.Fatal(err)
		}
		n, err = c.Write(make([]byte, 64<<20))
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("write past its deadline: %d bytes, %v, want a timeout", n, err)
		}
	}
	if n == 0 || n == 64<<20 {
		t.Errorf("the write that timed out reports %d bytes written, want what the buffers took", n)
	}
}

// TestDirectConnSeesThePeerGo: once the peer has closed, a read returns
// io.EOF, and writes fail with the network error go-redis retries (and the
// process, which the kernel signals SIGPIPE, goes on).
func TestDirectConnSeesThePeerGo(t *testing.T) {
	c, peer := directPair(t, "tcp")
	peer.Close()
	if _, err := c.Read(make([]byte, 10)); err != io.EOF {
		t.Fatalf("read after the peer closed: %v, want io.EOF", err)
	}
	var err error
	for range 100 {
		if _, err = c.Write([]byte("PING\r\n")); err != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "write" || !(errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)) {
		t.Fatalf("write after the peer closed: %v, want a *net.OpError with EPIPE or ECONNRESET", err)
	}
}

// TestDirectConnLeavesOutTheSocket: a directConn does not offer its socket
// (so go-redis skips the peek that would enter the syscall state), and a
// connection that is not a plain socket is left as it is.
func TestDirectConnLeavesOutTheSocket(t *testing.T) {
	c, _ := directPair(t, "tcp")
	if _, ok := any(c).(syscall.Conn); ok {
		t.Error("a directConn offers SyscallConn: go-redis would peek before every command")
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if got := direct(a); got != a {
		t.Errorf("direct(net.Pipe end) = %T, want it unchanged", got)
	}
}

// TestDirectConnAllocatesNothing: a round trip's write and read allocate
// nothing, as net's own do: they are on every command's path.
func TestDirectConnAllocatesNothing(t *testing.T) {
	c, peer := directPair(t, "tcp")
	go func() { _, _ = io.Copy(peer, peer) }()
	out, in := []byte("*1\r\n$4\r\nPING\r\n"), make([]byte, 64)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := c.Write(out); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadAtLeast(c, in, len(out)); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a write and a read allocate %.1f times, want 0", allocs)
	}
}
