package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// dataFile is the embedded backend's data file in the data directory.
const dataFile = "arbiter-store.json"

// embedded is the in-process backend: a miniredis server reached over
// in-memory pipes (no port is opened), with real-time key expiry, whose
// data is written to a file atomically (temp file, fsync, rename) a few
// seconds after a change and on close, and read back at start.
type embedded struct {
	mr         *miniredis.Miniredis
	dir        string
	lock       *os.File
	snap       *redis.Client // the connection that dumps and restores, without the dirty hook
	every      time.Duration
	log        *slog.Logger
	dirty      atomic.Bool
	stop       chan struct{}
	done       chan struct{}
	closeOnce  sync.Once
	closeErr   error
	loadedKeys int
}

// openEmbedded starts the embedded backend on dir, loading its data file.
func openEmbedded(ctx context.Context, dir string, every time.Duration, log *slog.Logger) (*embedded, error) {
	if every <= 0 {
		every = 2 * time.Second
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded store: create the data directory: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, fmt.Errorf("embedded store: %w", err)
	}
	e := &embedded{
		mr:    miniredis.NewMiniRedis(),
		dir:   dir,
		lock:  lock,
		every: every,
		log:   log,
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	// Keys expire by the wall clock (the clock lock's PX relies on it),
	// not only when FastForward is called.
	e.mr.ClockTTL(true)
	// Start the server without a listener: no port is opened.
	c, err := e.mr.Dial()
	if err != nil {
		_ = unlockDir(lock)
		return nil, fmt.Errorf("embedded store: start: %w", err)
	}
	_ = c.Close()
	o := e.clientOptions()
	tune(o)
	e.snap = redis.NewClient(o)
	if err := e.load(ctx); err != nil {
		e.shutdown()
		return nil, fmt.Errorf("embedded store: %w", err)
	}
	e.removeTemps()
	go e.run()
	return e, nil
}

// clientOptions returns go-redis options that reach the server in process.
func (e *embedded) clientOptions() *redis.Options {
	return &redis.Options{
		Addr: "embedded",
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			srv := e.mr.Server()
			if srv == nil {
				return nil, errors.New("the embedded store is closed")
			}
			client, server := net.Pipe()
			srv.ServeConn(newAsyncConn(server))
			return client, nil
		},
	}
}

func (e *embedded) markDirty() { e.dirty.Store(true) }

// load restores the data file, if there is one.
func (e *embedded) load(ctx context.Context) error {
	path := filepath.Join(e.dir, dataFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	snap, err := parseSnapshot(data)
	if err != nil {
		return fmt.Errorf("the data file %s does not read (%v); move it away to start empty, losing what it holds", path, err)
	}
	n, err := restoreSnapshot(ctx, e.snap, snap, time.Now())
	if err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	e.loadedKeys = n
	return nil
}

// run writes the data file every e.every while something changed.
func (e *embedded) run() {
	defer close(e.done)
	t := time.NewTicker(e.every)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
			if !e.dirty.Swap(false) {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			if err := e.save(ctx); err != nil {
				e.dirty.Store(true) // try again at the next tick
				e.log.Error("store: writing the embedded data file failed; will retry", "err", err)
			}
			cancel()
		}
	}
}

// save writes the data file atomically. run calls it, then close once run
// has returned: two saves never overlap.
func (e *embedded) save(ctx context.Context) error {
	snap, err := takeSnapshot(ctx, e.snap, time.Now())
	if err != nil {
		return err
	}
	data, err := json.Marshal(snap)
	if err != nil {
		return fmt.Errorf("encode the embedded data: %w", err)
	}
	return writeFileAtomic(e.dir, dataFile, data)
}

// writeFileAtomic replaces dir/name with data so that a crash leaves the
// old file or the new one, never a mix: temp file, fsync, rename, fsync of
// the directory.
func writeFileAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, name+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // not every platform syncs directories; the rename is done either way
		_ = d.Close()
	}
	return nil
}

// removeTemps deletes temp files left by a crash in the middle of a write.
func (e *embedded) removeTemps() {
	matches, _ := filepath.Glob(filepath.Join(e.dir, dataFile+".*.tmp"))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}

// close stops the writer, writes the data file one last time and stops
// the server.
func (e *embedded) close(ctx context.Context) error {
	// The last write must happen even when ctx is the one a shutdown
	// signal just cancelled.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	e.closeOnce.Do(func() {
		close(e.stop)
		<-e.done
		if err := e.save(ctx); err != nil {
			e.closeErr = fmt.Errorf("embedded store: final write of the data file: %w", err)
		}
		e.shutdown()
	})
	return e.closeErr
}

// shutdown stops the server and frees the data directory.
func (e *embedded) shutdown() {
	_ = e.snap.Close()
	e.mr.Close()
	_ = unlockDir(e.lock)
}
