package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a real Redis Cluster on loopback: three masters and three
// replicas, each a redis-server process started with --cluster-enabled
// yes, joined by redis-cli --cluster create. It stands in for a
// production Redis Cluster; the failover it shows is Redis's own.
//
// Ports are at most 55535, since each node's cluster bus listens on its
// port + 10000.
type Cluster struct {
	dir   string
	opts  ClusterOptions
	nodes []*clusterNode
}

// ClusterOptions choose how the cluster runs.
type ClusterOptions struct {
	// AppendOnly gives every node an append-only file with an fsync every
	// second (appendfsync everysec), as a production node would have.
	AppendOnly bool
	// NodeTimeout is cluster-node-timeout: how long a master may not
	// answer before its replica takes over. Default 1s.
	NodeTimeout time.Duration
}

type clusterNode struct {
	port int
	dir  string
	cmd  *exec.Cmd
	exit chan error
}

// clusterNodes is the cluster's size: 3 masters, each with 1 replica.
const clusterNodes = 6

// ClusterInstalled reports whether redis-server and redis-cli (Debian's
// redis-server and redis-tools) are on the PATH.
func ClusterInstalled() bool {
	_, err1 := exec.LookPath("redis-server")
	_, err2 := exec.LookPath("redis-cli")
	return err1 == nil && err2 == nil
}

// StartCluster starts a cluster for t and stops it when t ends, logging
// its nodes' logs first when t failed. It skips t when redis-server or
// redis-cli is not installed (fails it under CI) and fails t when the
// cluster does not form.
func StartCluster(t testing.TB, opts ClusterOptions) *Cluster {
	t.Helper()
	SkipWithoutCluster(t)
	c, err := NewCluster(opts)
	if err != nil {
		t.Fatalf("redistest: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("redistest: the cluster's logs:\n%s", c.Logs())
		}
		c.Close()
	})
	return c
}

// SkipWithoutCluster skips t when a cluster cannot be started here (no
// redis-server or redis-cli), and fails it under CI, which must test
// against a real cluster (.ci/run installs both).
func SkipWithoutCluster(t testing.TB) {
	t.Helper()
	if ClusterInstalled() {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("redis-server or redis-cli is not installed, and CI must test against a real Redis Cluster (.ci/run installs them)")
	}
	t.Skip("redis-server or redis-cli is not installed (apt-get install redis-server redis-tools): skipping the Redis Cluster test")
}

// NewCluster starts a cluster that lives until Close, for a package's
// tests to share (start it once from TestMain or a sync.Once).
func NewCluster(opts ClusterOptions) (*Cluster, error) {
	if opts.NodeTimeout <= 0 {
		opts.NodeTimeout = time.Second
	}
	dir, err := os.MkdirTemp("", "rediscluster")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, opts: opts}
	ports, err := clusterPorts(clusterNodes)
	if err != nil {
		c.Close()
		return nil, err
	}
	for _, port := range ports {
		n := &clusterNode{port: port, dir: filepath.Join(dir, strconv.Itoa(port))}
		if err := os.Mkdir(n.dir, 0o700); err != nil {
			c.Close()
			return nil, err
		}
		c.nodes = append(c.nodes, n)
		if err := c.startNode(n); err != nil {
			c.Close()
			return nil, err
		}
	}
	args := []string{"--cluster", "create"}
	for _, n := range c.nodes {
		args = append(args, n.addr())
	}
	args = append(args, "--cluster-replicas", "1", "--cluster-yes")
	out, err := exec.Command("redis-cli", args...).CombinedOutput()
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("redis-cli --cluster create: %v\n%s", err, out)
	}
	if err := c.WaitHealthy(hang); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// clusterPorts picks n loopback ports at most 55535 whose bus ports
// (+10000) were free a moment ago.
func clusterPorts(n int) ([]int, error) {
	var ports []int
	used := map[int]bool{}
	for tries := 0; len(ports) < n && tries < 1000; tries++ {
		p := 20000 + rand.IntN(35535)
		if used[p] || used[p+10000] || used[p-10000] || !portFree(p) || !portFree(p+10000) {
			continue
		}
		used[p] = true
		ports = append(ports, p)
	}
	if len(ports) < n {
		return nil, errors.New("no free loopback ports for a cluster")
	}
	return ports, nil
}

func portFree(p int) bool {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

func (n *clusterNode) addr() string { return "127.0.0.1:" + strconv.Itoa(n.port) }

// startNode runs one node's redis-server and waits until it answers.
func (c *Cluster) startNode(n *clusterNode) error {
	args := []string{
		"--bind", "127.0.0.1",
		"--port", strconv.Itoa(n.port),
		"--dir", n.dir,
		"--cluster-enabled", "yes",
		"--cluster-config-file", "nodes.conf",
		"--cluster-node-timeout", strconv.FormatInt(c.opts.NodeTimeout.Milliseconds(), 10),
		// A master down stops only its own slots, not the whole cluster.
		"--cluster-require-full-coverage", "no",
		"--save", "",
		"--logfile", "redis.log",
		"--daemonize", "no",
	}
	if c.opts.AppendOnly {
		args = append(args, "--appendonly", "yes", "--appendfsync", "everysec")
	} else {
		args = append(args, "--appendonly", "no")
	}
	cmd := exec.Command("redis-server", args...)
	cmd.Dir = n.dir
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %w", err)
	}
	n.cmd = cmd
	n.exit = make(chan error, 1)
	go func() { n.exit <- cmd.Wait() }()
	client := redis.NewClient(&redis.Options{Addr: n.addr(), DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer client.Close()
	for deadline := time.Now().Add(hang); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-n.exit:
			n.cmd = nil
			return fmt.Errorf("redis-server on port %d exited at start (%v); its log:\n%s", n.port, err, n.log())
		default:
		}
		if client.Ping(context.Background()).Err() == nil {
			return nil
		}
	}
	return fmt.Errorf("redis-server on port %d did not answer within 10s; its log:\n%s", n.port, n.log())
}

func (n *clusterNode) log() string {
	data, _ := os.ReadFile(filepath.Join(n.dir, "redis.log"))
	return string(data)
}

// URL returns the cluster's address for store.Config.RedisURL with
// Cluster set, in the form of go-redis's ParseClusterURL.
func (c *Cluster) URL() string {
	var b strings.Builder
	b.WriteString("redis://" + c.nodes[0].addr())
	for i, n := range c.nodes[1:] {
		if i == 0 {
			b.WriteString("?")
		} else {
			b.WriteString("&")
		}
		b.WriteString("addr=" + n.addr())
	}
	return b.String()
}

// Addrs returns the nodes' addresses, live or not.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, n := range c.nodes {
		out = append(out, n.addr())
	}
	return out
}

// WaitHealthy waits until every live node sees every slot served
// (cluster_state:ok) and every live replica is in sync with its master.
func (c *Cluster) WaitHealthy(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var last string
	for ctx.Err() == nil {
		last = c.health(ctx)
		if last == "" {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the cluster is not healthy after %v: %s", timeout, last)
}

// health returns what is not yet right, or "".
func (c *Cluster) health(ctx context.Context) string {
	for _, n := range c.nodes {
		if n.cmd == nil {
			continue
		}
		client := redis.NewClient(&redis.Options{Addr: n.addr(), DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
		info, err := client.ClusterInfo(ctx).Result()
		repl, rerr := client.Info(ctx, "replication").Result()
		_ = client.Close()
		if err != nil || rerr != nil {
			return fmt.Sprintf("node %s: %v %v", n.addr(), err, rerr)
		}
		if !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_slots_ok:16384") {
			return fmt.Sprintf("node %s: %s", n.addr(), firstLines(info, 4))
		}
		if strings.Contains(repl, "role:slave") && !strings.Contains(repl, "master_link_status:up") {
			return fmt.Sprintf("replica %s is not in sync", n.addr())
		}
	}
	return ""
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], " ")
}

// MasterOf returns the address of the master serving key's slot now.
func (c *Cluster) MasterOf(key string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, n := range c.nodes {
		if n.cmd == nil {
			continue
		}
		client := redis.NewClient(&redis.Options{Addr: n.addr(), MaxRetries: -1})
		slot, err := client.ClusterKeySlot(ctx, key).Result()
		var slots []redis.ClusterSlot
		if err == nil {
			slots, err = client.ClusterSlots(ctx).Result()
		}
		_ = client.Close()
		if err != nil {
			continue
		}
		for _, s := range slots {
			if int64(s.Start) <= slot && slot <= int64(s.End) && len(s.Nodes) > 0 {
				return s.Nodes[0].Addr, nil
			}
		}
	}
	return "", fmt.Errorf("no live node knows the master of %q", key)
}

// FlushAll empties every master (and so its replica).
func (c *Cluster) FlushAll(ctx context.Context) error {
	opts, err := redis.ParseClusterURL(c.URL())
	if err != nil {
		return err
	}
	client := redis.NewClusterClient(opts)
	defer client.Close()
	return client.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.FlushAll(ctx).Err()
	})
}

// Kill stops the node at addr with SIGKILL, as a crash would.
func (c *Cluster) Kill(addr string) error {
	for _, n := range c.nodes {
		if n.addr() == addr && n.cmd != nil {
			n.stop(syscall.SIGKILL)
			return nil
		}
	}
	return fmt.Errorf("no live node at %s", addr)
}

// Logs returns every node's log, for a failing test to show.
func (c *Cluster) Logs() string {
	var b bytes.Buffer
	for _, n := range c.nodes {
		fmt.Fprintf(&b, "--- %s\n%s", n.addr(), n.log())
	}
	return b.String()
}

func (n *clusterNode) stop(sig syscall.Signal) {
	stopProcess(n.cmd, n.exit, sig)
	n.cmd = nil
}

// Close stops every node and removes the cluster's files.
func (c *Cluster) Close() {
	for _, n := range c.nodes {
		n.stop(syscall.SIGKILL)
	}
	_ = os.RemoveAll(c.dir)
}
