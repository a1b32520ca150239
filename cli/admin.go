package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arbiter/internal/atomicfile"
	"arbiter/store"
	"arbiter/store/boltstore"
)

// adminSocket is the unix socket in the data directory through which a
// process running the embedded store serves `arbiter store backup`. Only
// the data directory's owner can reach it: the socket is 0600, whatever
// the umask, and made only in a directory others cannot enter (0700; a
// looser one is tightened first, or no socket is made).
const adminSocket = "arbiter-admin.sock"

// tightenDataDir makes dir its owner's alone when others may enter it,
// and says so in the log; an error when it cannot.
func tightenDataDir(dir string, log *slog.Logger) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	perm := fi.Mode().Perm()
	if perm&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(dir, perm&0o700); err != nil {
		return fmt.Errorf("DATA_DIR %s has mode %#o, open to other users, and cannot be made 0700: %w", dir, perm, err)
	}
	log.Info("DATA_DIR was open to other users: made its owner's alone", "dir", dir, "was", fmt.Sprintf("%#o", perm), "now", fmt.Sprintf("%#o", perm&0o700))
	return nil
}

// serveAdmin serves GET /backup, a consistent copy of the embedded store
// st, and POST /forget (user=ID: forgetPerson, answered with forgotten in
// JSON), on the admin socket in dataDir until ctx ends or the function it
// returns is called (which waits until it stopped; call it before closing
// st); nothing for another store.
func serveAdmin(ctx context.Context, st store.Store, dataDir string, log *slog.Logger) (stop func()) {
	b, ok := st.(*boltstore.Bolt)
	if !ok {
		return func() {}
	}
	path := filepath.Join(dataDir, adminSocket)
	if err := tightenDataDir(dataDir, log); err != nil {
		log.Warn("no admin socket: `arbiter store backup` cannot reach this process", "path", path, "err", err)
		return func() {}
	}
	_ = os.Remove(path) // a socket left by a process that died: this one holds the lock now
	ln, err := net.Listen("unix", path)
	if err == nil {
		if err = os.Chmod(path, 0o600); err != nil {
			_ = ln.Close()
		}
	}
	if err != nil {
		log.Warn("no admin socket: `arbiter store backup` cannot reach this process", "path", path, "err", err)
		return func() {}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		err := b.WriteBackup(r.Context(), w, func(n int64) { w.Header().Set("Content-Length", strconv.FormatInt(n, 10)) })
		if err != nil {
			log.Error("backup through the admin socket failed", "err", err)
			return
		}
		log.Info("backup sent through the admin socket")
	})
	mux.HandleFunc("POST /forget", func(w http.ResponseWriter, r *http.Request) {
		rep, archives, err := forgetPerson(r.Context(), st, dataDir, r.FormValue("user"))
		switch {
		case errors.Is(err, store.ErrInvalid):
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		case err != nil:
			log.Error("forget through the admin socket failed", "err", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(forgotten{Rewritten: rep.Rewritten, Deleted: rep.Deleted, Archives: archives})
	})
	ctx, cancel := context.WithCancel(ctx)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("admin socket stopped", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
		_ = os.Remove(path)
	}()
	return func() { cancel(); <-done }
}

// backupThroughSocket asks the process running the embedded store in
// dataDir for a backup and writes it to path, whole or not at all.
func backupThroughSocket(ctx context.Context, dataDir, path string) (int64, error) {
	sock := filepath.Join(dataDir, adminSocket)
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		},
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://arbiter/backup", nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("reach the running process through %s: %w", sock, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("the running process answered %s", resp.Status)
	}
	var n int64
	err = atomicfile.Replace(path, func(w io.Writer) error {
		n, err = io.Copy(w, resp.Body) // a copy cut short fails here (Content-Length)
		return err
	})
	return n, err
}

// forgotten is the admin socket's answer to POST /forget.
type forgotten struct {
	Rewritten int `json:"rewritten"`
	Deleted   int `json:"deleted"`
	Archives  int `json:"archives"`
}

// forgetThroughSocket asks the process running the embedded store in
// dataDir to forget the person with user id user.
func forgetThroughSocket(ctx context.Context, dataDir, user string) (store.ForgetReport, int, error) {
	sock := filepath.Join(dataDir, adminSocket)
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		},
	}}
	form := url.Values{"user": {user}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://arbiter/forget", strings.NewReader(form.Encode()))
	if err != nil {
		return store.ForgetReport{}, 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		return store.ForgetReport{}, 0, fmt.Errorf("reach the running process through %s: %w", sock, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusBadRequest:
		return store.ForgetReport{}, 0, fmt.Errorf("%w: %s", store.ErrInvalid, strings.TrimSpace(string(body)))
	default:
		return store.ForgetReport{}, 0, fmt.Errorf("the running process answered %s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	var f forgotten
	if err := json.Unmarshal(body, &f); err != nil {
		return store.ForgetReport{}, 0, fmt.Errorf("the running process's answer does not read: %w", err)
	}
	return store.ForgetReport{Rewritten: f.Rewritten, Deleted: f.Deleted}, f.Archives, nil
}
