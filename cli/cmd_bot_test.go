package cli

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/internal/testkit"
)

// secretToken stands for the bot's token in tests: it must never be printed.
const secretToken = "test-token-never-printed"

// TestBotAndWorkerRefuseWithoutSettings: the Discord subcommands say which
// setting is missing and exit 2 before touching the network.
func TestBotAndWorkerRefuseWithoutSettings(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"bot without token", map[string]string{"DISCORD_TOKEN": ""}, []string{"bot"}, "DISCORD_TOKEN is not set"},
		{"http without key", map[string]string{"DISCORD_TOKEN": secretToken, "DISCORD_PUBLIC_KEY": ""}, []string{"bot", "--http", "127.0.0.1:0"}, "DISCORD_PUBLIC_KEY"},
		{"http with a bad key", map[string]string{"DISCORD_TOKEN": secretToken, "DISCORD_PUBLIC_KEY": "abc"}, []string{"bot", "--http", "127.0.0.1:0"}, "64 hex digits"},
		{"bot with no workers and no Redis", map[string]string{"DISCORD_TOKEN": secretToken, "REDIS_URL": ""}, []string{"bot", "--workers", "0"}, "nothing would ever take them"},
		{"bot with arguments", map[string]string{"DISCORD_TOKEN": secretToken}, []string{"bot", "extra"}, "unexpected arguments"},
		{"worker without Redis", map[string]string{"DISCORD_TOKEN": secretToken, "REDIS_URL": ""}, []string{"worker"}, "REDIS_URL is not set"},
		{"worker without token", map[string]string{"DISCORD_TOKEN": "", "REDIS_URL": "redis://127.0.0.1:1"}, []string{"worker"}, "DISCORD_TOKEN is not set"},
		{"worker with no workers", map[string]string{"DISCORD_TOKEN": secretToken, "REDIS_URL": "redis://127.0.0.1:1"}, []string{"worker", "--workers", "0"}, "--workers 0 would think about no bot turn"},
		{"worker with a bad count", map[string]string{"DISCORD_TOKEN": secretToken, "REDIS_URL": "redis://127.0.0.1:1"}, []string{"worker", "--workers", "-1"}, "whole number of workers"},
		{"worker with a bad name", map[string]string{"DISCORD_TOKEN": secretToken, "REDIS_URL": "redis://127.0.0.1:1"}, []string{"worker", "--name", "a b"}, "--name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, _, errOut := runArgs(t, tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
			if strings.Contains(errOut, secretToken) {
				t.Errorf("the token was printed: %q", errOut)
			}
		})
	}
}

func TestPublicKey(t *testing.T) {
	good := strings.Repeat("ab", 32)
	if key, err := publicKey(good); err != nil || len(key) != 32 {
		t.Errorf("publicKey(%q) = %x, %v", good, key, err)
	}
	for _, bad := range []string{"", "zz", strings.Repeat("ab", 31), strings.Repeat("ab", 33)} {
		if _, err := publicKey(bad); err == nil {
			t.Errorf("publicKey(%q) accepted", bad)
		}
	}
}

func TestWorkerNames(t *testing.T) {
	if err := checkWorkerName("worker-" + hostname()); err != nil {
		t.Errorf("the default name: %v", err)
	}
	if err := checkWorkerName("bot-" + hostname() + "-shard12"); err != nil {
		t.Errorf("the bot's name: %v", err)
	}
	for _, bad := range []string{"", "a/b", "名前", strings.Repeat("w", 57)} {
		if checkWorkerName(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestBotStopsCleanly: `arbiter bot --http` logs its build and its
// checks, serves /healthz, answers a signed PING, and when
// its context ends (SIGINT or SIGTERM, in main) it stops and exits 0,
// never printing the token.
func TestBotStopsCleanly(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"DISCORD_TOKEN": secretToken, "DISCORD_PUBLIC_KEY": hex.EncodeToString(pub), "REDIS_URL": "", "DATA_DIR": t.TempDir(),
		"SHARD_ID": "1", "SHARD_COUNT": "2", // shard 0 would register the commands with Discord, out of reach here
		"LOG_LEVEL": "info", "METRICS_ADDR": "127.0.0.1:0",
	} {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stderr testkit.Buffer
	exit, stopped := make(chan int, 1), make(chan struct{})
	go func() {
		defer close(stopped)
		exit <- Main(ctx, []string{"bot", "--http", "127.0.0.1:0", "--workers", "1"}, io.Discard, &stderr)
	}()
	t.Cleanup(func() { // before the data folder is removed
		cancel()
		<-stopped
	})

	serving := regexp.MustCompile(`serving Discord's interactions" addr=(\S+)`)
	var addr string
	for end := time.Now().Add(hangBound); addr == ""; time.Sleep(10 * time.Millisecond) {
		if m := serving.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		select {
		case code := <-exit:
			t.Fatalf("exit %d before serving: %s", code, stderr.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("not serving after %v: %s", hangBound, stderr.String())
		}
	}
	body := []byte(`{"id":"1","type":1,"token":"t","application_id":"2"}`)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, err := http.NewRequest(http.MethodPost, "http://"+addr, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), body...))))
	req.Header.Set("X-Signature-Timestamp", ts)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	pong, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(pong) != `{"type":1}` {
		t.Errorf("PING answered %d %s, want 200 PONG", resp.StatusCode, pong)
	}

	// It logged its build and the checks of `arbiter doctor`, and serves
	// its health, ready.
	for _, want := range []string{`msg="starting arbiter bot" build.version=`, `msg="check: DATA_DIR"`, `level=ERROR msg="check: SHARD_COUNT"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the log lacks %s: %s", want, stderr.String())
		}
	}
	m := regexp.MustCompile(`serving metrics and health" addr=(\S+)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no metrics address logged: %s", stderr.String())
	}
	resp, err = http.Get("http://" + m[1] + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	health, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(health), "the HTTP interactions endpoint is ready") {
		t.Errorf("/healthz: %d %s", resp.StatusCode, health)
	}

	cancel()
	select {
	case code := <-exit:
		if code != 0 || !strings.Contains(stderr.String(), "stopped") {
			t.Errorf("exit %d after the signal, want 0: %s", code, stderr.String())
		}
	case <-time.After(hangBound):
		t.Fatalf("the bot did not stop within %v of the signal", hangBound)
	}
	if strings.Contains(stderr.String(), secretToken) {
		t.Errorf("the token was logged: %s", stderr.String())
	}
}
