package cli

import (
	"bufio"
	"io"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"arbiter/internal/httplimit"
)

// TestComposeNetworkClientAddresses runs the layout of deploy/compose.yaml
// for real with podman: the image on a network with the compose file's
// subnet, with the compose file's settings, its API port published on
// loopback as there. The reverse proxy of deploy/ runs on the machine and
// reaches Arbiter through the published port, so from the network's
// gateway; the test plays that proxy. Each client the proxy names in
// X-Forwarded-For has the cap of requests in flight per address to
// itself: a student holding all of theirs (live wall streams) does not
// lock out the next one, and what a client wrote into X-Forwarded-For
// before the proxy appended its address does not get it more. A client
// whose packets come from outside the trusted networks (an address of
// this machine's own, routed to the container as a machine of the local
// network would be) is no proxy: whatever X-Forwarded-For it sends, all
// its requests count against its own address.
func TestComposeNetworkClientAddresses(t *testing.T) {
	env, subnet := composeArbiter(t)
	proxies := trustedProxies(t, env)
	_, apiPort, err := net.SplitHostPort(env["API_ADDR"])
	if err != nil {
		t.Fatalf("the compose file's API_ADDR %q: %v", env["API_ADDR"], err)
	}
	outsider := outsideAddress(t)
	for _, p := range proxies {
		if p.Contains(outsider) {
			t.Fatalf("this machine's address %s is in TRUSTED_PROXIES=%q: it cannot play a client that is no proxy", outsider, env["TRUSTED_PROXIES"])
		}
	}

	p := newPodman(t)
	image, suffix := p.buildImage()
	network, name := "arbiter-test-"+suffix, "arbiter-test-"+suffix
	p.run("", "network", "create", "--subnet", subnet.String(), network)
	p.cleanup("network", "rm", "-f", network)
	args := []string{"run", "--rm", "-i", "--name", name, "--network", network, "-p", "127.0.0.1::" + apiPort}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if k == "REDIS_URL" {
			continue // no Redis image without a registry: the store is DATA_DIR's file
		}
		args = append(args, "-e", k+"="+env[k])
	}
	// The console serves API_ADDR as the bot does (the same server, the
	// same settings) and needs no Discord; its /wall on gives the streams.
	console := p.command(append(args, image, "console")...)
	stdin, err := console.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := console.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	console.Stderr = stderr
	if err := console.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the console ends with its input
		_ = p.command("rm", "-f", "--time", "1", name).Run()
		_ = console.Wait()
	})
	out := bufio.NewReader(stdout)
	readUntil := func(re *regexp.Regexp) []string {
		t.Helper()
		var seen strings.Builder
		for {
			line, err := out.ReadString('\n')
			seen.WriteString(line)
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
			if err != nil {
				errs, _ := os.ReadFile(stderr.Name())
				t.Fatalf("the console in the container ended before printing %s: %v\n%s\n%s", re, err, seen.String(), errs)
			}
		}
	}
	readUntil(regexp.MustCompile(`^Serving the play page`))
	if _, err := io.WriteString(stdin, "/wall on\n"); err != nil {
		t.Fatal(err)
	}
	key := readUntil(regexp.MustCompile(`/wall/([A-Za-z0-9_-]+)/`))[1]
	go io.Copy(io.Discard, out)

	published := strings.TrimSpace(p.run("", "port", name, apiPort+"/tcp"))
	if _, err := netip.ParseAddrPort(published); err != nil {
		t.Fatalf("podman port %s %s/tcp: %q", name, apiPort, published)
	}
	containerIP := strings.TrimSpace(p.run("", "inspect", name, "--format", `{{(index .NetworkSettings.Networks "`+network+`").IPAddress}}`))
	if ip, err := netip.ParseAddr(containerIP); err != nil || !subnet.Contains(ip) {
		t.Fatalf("the container's address %q is not in the network %s", containerIP, subnet)
	}

	// stream opens the wall's event stream from client to base, with
	// X-Forwarded-For forwardedFor; it stays open until the test ends.
	stream := func(client *http.Client, base, forwardedFor string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/wall/"+key+"/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Forwarded-For", forwardedFor)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", req.URL, err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if resp.StatusCode == http.StatusOK {
			return resp.StatusCode, resp.Header.Get("Content-Type")
		}
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	perAddress := httplimit.Defaults().PerAddress

	// The proxy on this machine, through the published port.
	proxyTransport := &http.Transport{}
	t.Cleanup(proxyTransport.CloseIdleConnections)
	proxy, viaProxy := &http.Client{Transport: proxyTransport}, "http://"+published
	const studentA, studentB = "198.51.100.7", "198.51.100.8"
	for i := range perAddress {
		if code, what := stream(proxy, viaProxy, studentA); code != http.StatusOK || what != "text/event-stream" {
			t.Fatalf("stream %d of %s through the proxy: %d %s", i+1, studentA, code, what)
		}
	}
	if code, what := stream(proxy, viaProxy, studentA); code != http.StatusTooManyRequests {
		t.Errorf("stream %d of %s through the proxy: %d %s; want 429 (the cap per address)", perAddress+1, studentA, code, what)
	}
	// nginx's $proxy_add_x_forwarded_for appends the peer it heard from
	// to what the client wrote.
	if code, what := stream(proxy, viaProxy, studentB+", "+studentA); code != http.StatusTooManyRequests {
		t.Errorf("%s writing X-Forwarded-For: %s before the proxy: %d %s; want 429 (still %s)", studentA, studentB, code, what, studentA)
	}
	if code, what := stream(proxy, viaProxy, studentB); code != http.StatusOK {
		t.Errorf("the first stream of %s through the proxy while %s holds %d: %d %s; want 200", studentB, studentA, perAddress, code, what)
	}

	// A client that is no proxy, straight to the container.
	direct := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: outsider.AsSlice()}}).DialContext}
	t.Cleanup(direct.CloseIdleConnections)
	client, straight := &http.Client{Transport: direct}, "http://"+net.JoinHostPort(containerIP, apiPort)
	for i := range perAddress {
		forged := netip.AddrFrom4([4]byte{203, 0, 113, byte(i + 1)}).String()
		if code, what := stream(client, straight, forged); code != http.StatusOK {
			t.Fatalf("stream %d from %s (X-Forwarded-For: %s): %d %s", i+1, outsider, forged, code, what)
		}
	}
	if code, what := stream(client, straight, "203.0.113.200"); code != http.StatusTooManyRequests {
		t.Errorf("stream %d from %s, which is no proxy, with a new X-Forwarded-For: %d %s; want 429 (it is still %s)", perAddress+1, outsider, code, what, outsider)
	}
}

// outsideAddress is the address this machine sends from to the internet
// (no packet is sent): not one of a container network's, which the
// network's address translation would turn into its gateway's. Without
// one (no route out) the test is skipped, or failed where CI runs.
func outsideAddress(t *testing.T) netip.Addr {
	t.Helper()
	conn, err := net.Dial("udp4", "203.0.113.1:9")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no route out of this machine to pick a client's address from: %v", err)
		}
		t.Skipf("no route out of this machine to pick a client's address from: %v", err)
	}
	defer conn.Close()
	a, err := netip.ParseAddrPort(conn.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	return a.Addr().Unmap()
}
