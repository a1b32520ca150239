package main

import (
	"strings"
	"testing"
)

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
		{"http without key", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_PUBLIC_KEY": ""}, []string{"bot", "--http", "127.0.0.1:0"}, "DISCORD_PUBLIC_KEY"},
		{"http with a bad key", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_PUBLIC_KEY": "abc"}, []string{"bot", "--http", "127.0.0.1:0"}, "64 hex digits"},
		{"bot with arguments", map[string]string{"DISCORD_TOKEN": "x"}, []string{"bot", "extra"}, "unexpected arguments"},
		{"worker without Redis", map[string]string{"DISCORD_TOKEN": "x", "REDIS_URL": ""}, []string{"worker"}, "REDIS_URL is not set"},
		{"worker without token", map[string]string{"DISCORD_TOKEN": "", "REDIS_URL": "redis://127.0.0.1:1"}, []string{"worker"}, "DISCORD_TOKEN is not set"},
		{"worker with a bad name", map[string]string{"DISCORD_TOKEN": "x", "REDIS_URL": "redis://127.0.0.1:1"}, []string{"worker", "--name", "a b"}, "--name"},
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
			if strings.Contains(errOut, "x\n") {
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
