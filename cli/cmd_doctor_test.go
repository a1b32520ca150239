package cli

import (
	"context"
	"encoding/base64"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/open"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// doctorEnv clears the settings doctor reads and sets env.
func doctorEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, k := range []string{"DISCORD_TOKEN", "DISCORD_APP_ID", "DISCORD_PUBLIC_KEY", "REDIS_URL", "REDIS_CLUSTER", "API_ADDR",
		"METRICS_ADDR", "LOG_LEVEL", "SHARD_COUNT", "SHARD_ID", "STORE_BACKUP_EVERY", "GAMES_DIR", "ARBITER_COMMAND"} {
		t.Setenv(k, "")
	}
	t.Setenv("DATA_DIR", t.TempDir())
	for k, v := range env {
		t.Setenv(k, v)
	}
}

// fakeToken is a token of the bot id's shape (not a real one).
func fakeToken(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(id)) + ".GxYzAb.c2VjcmV0LXBhcnQtbm90LXJlYWwtYXQtYWxs"
}

// TestDoctorHealthy: a sound configuration passes, each setting said ok
// (or noted), exit 0.
func TestDoctorHealthy(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{TCP: true, AppendOnly: true})
	for name, env := range map[string]map[string]string{
		"embedded": {"DISCORD_TOKEN": fakeToken("123456789012345678"), "DISCORD_APP_ID": "123456789012345678",
			"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32), "API_ADDR": "127.0.0.1:0", "METRICS_ADDR": "127.0.0.1:0"},
		"redis":   {"REDIS_URL": srv.URL()},
		"console": {},
	} {
		doctorEnv(t, env)
		code, out, _ := runArgs(t, "doctor")
		if code != 0 || !strings.Contains(out, "ready to start") || strings.Contains(out, "PROBLEM") || !strings.Contains(out, "store layout") {
			t.Errorf("%s: exit %d\n%s", name, code, out)
		}
		if strings.Contains(out, "c2VjcmV0") {
			t.Errorf("%s: doctor printed the token:\n%s", name, out)
		}
	}
}

// TestDoctorFindsEachProblem: each broken configuration is a PROBLEM line
// naming it and what to do, and exit 1.
func TestDoctorFindsEachProblem(t *testing.T) {
	bare := redistest.Start(t, redistest.Options{TCP: true}) // appendonly no, save ""
	newer := redistest.Start(t, redistest.Options{TCP: true, AppendOnly: true})
	opts, _ := redis.ParseURL(newer.URL())
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if err := rdb.Set(context.Background(), "arbiter:layout", store.Layout+1, 0).Err(); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	aFile := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(aFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	locked := t.TempDir()
	st, err := open.Store(context.Background(), store.Config{DataDir: locked, Registry: games.Registry(), Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	newerDB := t.TempDir()
	b, err := boltstore.Open(context.Background(), store.Config{DataDir: newerDB, Registry: games.Registry(), Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Close(context.Background())
	db, err := bolt.Open(filepath.Join(newerDB, boltstore.DatabaseFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("format"), []byte("9")) }); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()

	badGames := t.TempDir()
	if err := os.WriteFile(filepath.Join(badGames, "broken.yaml"), []byte("name: [unclosed\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"a malformed setting", map[string]string{"LOG_LEVEL": "loud"}, nil, "PROBLEM settings: LOG_LEVEL"},
		{"a token of the wrong shape", map[string]string{"DISCORD_TOKEN": "not-a-token"}, nil, "PROBLEM DISCORD_TOKEN: does not look like a bot token"},
		{"an app id that is no id", map[string]string{"DISCORD_APP_ID": "my-bot"}, nil, "PROBLEM DISCORD_APP_ID: is not an id"},
		{"the token of another application", map[string]string{"DISCORD_TOKEN": fakeToken("123456789012345678"), "DISCORD_APP_ID": "876543210987654321"}, nil,
			"PROBLEM DISCORD_APP_ID: 876543210987654321 is not the token's application (123456789012345678)"},
		{"a public key that is not hex", map[string]string{"DISCORD_PUBLIC_KEY": "xyz"}, nil, "PROBLEM DISCORD_PUBLIC_KEY:"},
		{"--http without a public key", nil, []string{"--http", "127.0.0.1:0"}, "PROBLEM DISCORD_PUBLIC_KEY: not set, and --http needs it"},
		{"Redis not answering", map[string]string{"REDIS_URL": "redis://127.0.0.1:1/0"}, nil, "PROBLEM REDIS_URL: no answer from"},
		{"Redis without persistence", map[string]string{"REDIS_URL": bare.URL()}, nil, "PROBLEM Redis persistence: none"},
		{"Redis data of a newer layout", map[string]string{"REDIS_URL": newer.URL()}, nil, "PROBLEM Redis data: the data has layout 3"},
		{"DATA_DIR a file", map[string]string{"DATA_DIR": aFile}, nil, "PROBLEM DATA_DIR: " + aFile + " is not a directory"},
		{"DATA_DIR under a file", map[string]string{"DATA_DIR": filepath.Join(aFile, "data")}, nil, "not a directory"},
		{"DATA_DIR in use", map[string]string{"DATA_DIR": locked}, nil, "(pid "},
		{"a database of a newer layout", map[string]string{"DATA_DIR": newerDB}, nil, "PROBLEM embedded database: the data has layout 9"},
		{"an address in use", map[string]string{"METRICS_ADDR": busy.Addr().String()}, nil, "PROBLEM METRICS_ADDR: " + busy.Addr().String() + " cannot be listened on"},
		{"a game file that does not read", map[string]string{"GAMES_DIR": badGames}, nil, "PROBLEM GAMES_DIR: " + filepath.Join(badGames, "broken.yaml") + ":2:1: not valid YAML"},
		{"shards on the embedded store", map[string]string{"SHARD_COUNT": "2"}, nil, "PROBLEM SHARD_COUNT"},
		{"a REDIS_URL that does not read", map[string]string{"REDIS_URL": "redis://localhost:notaport"}, nil, "to do: correct REDIS_URL, e.g."},
	} {
		doctorEnv(t, c.env)
		code, out, _ := runArgs(t, append([]string{"doctor"}, c.args...)...)
		if code != 1 || !strings.Contains(out, c.want) || !strings.Contains(out, "to do: ") || !strings.Contains(out, " before starting Arbiter") {
			t.Errorf("%s: exit %d, want 1 and %q in\n%s", c.name, code, c.want, out)
		}
	}
}

// TestOlderBuildRefusesNewerData: started on data a newer build wrote (a
// later layout), arbiter refuses to start, saying which layouts and what
// to do, and leaves the data as it was.
func TestOlderBuildRefusesNewerData(t *testing.T) {
	bin := buildArbiter(t)
	dir := t.TempDir()
	b, err := boltstore.Open(context.Background(), store.Config{DataDir: dir, Registry: games.Registry(), Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Close(context.Background())
	path := filepath.Join(dir, boltstore.DatabaseFile)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("format"), []byte("3")) }); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	before, _ := os.ReadFile(path)
	cmd := exec.Command(bin, "console")
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=", "DATA_DIR="+dir)
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader("/help\n")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "has layout 3 and this build reads layout 2 and earlier") ||
		!strings.Contains(string(out), "docs/how-to/upgrade.md") {
		t.Fatalf("arbiter console on newer data: %v\n%s", err, out)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the refused database changed")
	}
}

// FuzzDiscordChecks: whatever the token, the application id and the public
// key hold, the checks never panic and never repeat a token (anything with
// a dot, as every token has), wherever it was put.
func FuzzDiscordChecks(f *testing.F) {
	f.Add(fakeToken("123456789012345678"), "123456789012345678", strings.Repeat("ab", 32))
	f.Add("Bot a.b.c", "x", "zz")
	f.Add("MTIz.b.c", "", "")
	f.Fuzz(func(t *testing.T, token, appID, key string) {
		for _, c := range discordChecks(config{DiscordToken: token, DiscordAppID: appID, DiscordPublicKey: key}, "") {
			for _, secret := range []string{token, appID, key} {
				if len(secret) >= 8 && strings.Contains(secret, ".") && (strings.Contains(c.found, secret) || strings.Contains(c.fix, secret)) {
					t.Fatalf("a check repeats %q: %s", secret, c)
				}
			}
		}
	})
}

// TestDoctorWarnsOfEveryInterface: API_ADDR, METRICS_ADDR and --http
// listening on every interface (no host, 0.0.0.0, [::]) are each a note
// saying what to do; on 127.0.0.1 they are ok.
func TestDoctorWarnsOfEveryInterface(t *testing.T) {
	doctorEnv(t, map[string]string{"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32), "API_ADDR": ":0", "METRICS_ADDR": "0.0.0.0:0"})
	_, out, _ := runArgs(t, "doctor", "--http", "[::]:0")
	for _, name := range []string{"API_ADDR", "METRICS_ADDR", "--http"} {
		if !strings.Contains(out, "note    "+name+": ") || !strings.Contains(out, "listens on every network interface") {
			t.Errorf("%s on every interface: no note in\n%s", name, out)
		}
	}
	doctorEnv(t, map[string]string{"API_ADDR": "127.0.0.1:0"})
	if _, out, _ := runArgs(t, "doctor"); strings.Contains(out, "every network interface") {
		t.Errorf("API_ADDR on 127.0.0.1 noted:\n%s", out)
	}
}

// TestDoctorSpeaksFirst: with Redis away, the first line doctor writes is
// its own check, not the Redis client's log line; one problem is "1
// problem", to "fix it".
func TestDoctorSpeaksFirst(t *testing.T) {
	bin := buildArbiter(t)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := closed.Addr().String()
	closed.Close()
	cmd := exec.Command(bin, "doctor")
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=redis://"+addr, "DATA_DIR="+t.TempDir(), "API_ADDR=", "METRICS_ADDR=", "GAMES_DIR=")
	out, _ := cmd.CombinedOutput()
	first, _, _ := strings.Cut(string(out), "\n")
	if !strings.HasPrefix(first, "ok ") && !strings.HasPrefix(first, "note ") && !strings.HasPrefix(first, "PROBLEM ") {
		t.Errorf("doctor's first line is not a check: %q\n%s", first, out)
	}
	if !strings.Contains(string(out), "to do: start Redis") || !strings.Contains(string(out), "\n1 problem: fix it before starting Arbiter\n") {
		t.Errorf("doctor with Redis away:\n%s", out)
	}
}

// TestDoctorInImage: with the environment the container image sets (its
// ENV lines, data directory aside), doctor checks for `arbiter bot`, which
// the image runs: no token is a problem, not "the console runs".
func TestDoctorInImage(t *testing.T) {
	raw, err := os.ReadFile("../deploy/Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^ENV (\w+)=(\S*)$`).FindAllStringSubmatch(string(raw), -1) {
		if m[1] != "DATA_DIR" {
			env[m[1]] = m[2]
		}
	}
	doctorEnv(t, env)
	code, out, _ := runArgs(t, "doctor")
	if code != 1 || strings.Contains(out, "ready to start") || strings.Contains(out, "runs the console") ||
		!regexp.MustCompile("PROBLEM DISCORD_TOKEN: not set, and this installation runs `arbiter bot`").MatchString(out) {
		t.Errorf("doctor in the image without a token: exit %d\n%s", code, out)
	}
	env["DISCORD_TOKEN"] = fakeToken("123456789012345678")
	doctorEnv(t, env)
	if code, out, _ := runArgs(t, "doctor"); code != 0 || !strings.Contains(out, "ready to start") {
		t.Errorf("doctor in the image with a token: exit %d\n%s", code, out)
	}
}
