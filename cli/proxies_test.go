package cli

import (
	"net/netip"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// composeArbiter reads deploy/compose.yaml: the arbiter service's
// environment and the fixed subnet of the network it runs in.
func composeArbiter(t *testing.T) (env map[string]string, subnet netip.Prefix) {
	t.Helper()
	data, err := os.ReadFile("../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Environment map[string]string `yaml:"environment"`
			Networks    []string          `yaml:"networks"`
		} `yaml:"services"`
		Networks map[string]struct {
			IPAM struct {
				Config []struct {
					Subnet string `yaml:"subnet"`
				} `yaml:"config"`
			} `yaml:"ipam"`
		} `yaml:"networks"`
	}
	if err := yaml.Unmarshal(data, &compose); err != nil {
		t.Fatalf("deploy/compose.yaml: %v", err)
	}
	arbiter, ok := compose.Services["arbiter"]
	if !ok {
		t.Fatal("deploy/compose.yaml has no arbiter service")
	}
	network := "default"
	if len(arbiter.Networks) > 0 {
		network = arbiter.Networks[0]
	}
	cfgs := compose.Networks[network].IPAM.Config
	if len(cfgs) == 0 {
		t.Fatalf("the network %q of the arbiter service has no fixed subnet: TRUSTED_PROXIES cannot name it", network)
	}
	subnet, err = netip.ParsePrefix(cfgs[0].Subnet)
	if err != nil {
		t.Fatalf("the network's subnet %q: %v", cfgs[0].Subnet, err)
	}
	return arbiter.Environment, subnet.Masked()
}

// trustedProxies is what loadConfig makes of the TRUSTED_PROXIES in env.
func trustedProxies(t *testing.T, env map[string]string) []netip.Prefix {
	t.Helper()
	t.Setenv("TRUSTED_PROXIES", env["TRUSTED_PROXIES"])
	cfg, err := loadConfig()
	if err != nil {
		t.Fatalf("the compose file's settings: %v", err)
	}
	return cfg.TrustedProxies
}

// TestComposeTrustsItsNetwork: in deploy/compose.yaml the network Arbiter
// runs in has a fixed subnet, and TRUSTED_PROXIES (as loadConfig reads
// it) covers that subnet's gateway, where a published port's connections
// come from; so behind the proxy every client is its own address.
func TestComposeTrustsItsNetwork(t *testing.T) {
	env, subnet := composeArbiter(t)
	gateway := subnet.Addr().Next() // compose's default gateway: the subnet's first address
	covered := false
	for _, p := range trustedProxies(t, env) {
		covered = covered || p.Contains(gateway)
	}
	if !covered {
		t.Errorf("TRUSTED_PROXIES=%q does not cover the gateway %s of the network %s", env["TRUSTED_PROXIES"], gateway, subnet)
	}
}

// TestConfigTrustedProxies: TRUSTED_PROXIES takes addresses and networks;
// unset trusts loopback; "none" trusts nothing; a malformed entry is an
// error naming the variable.
func TestConfigTrustedProxies(t *testing.T) {
	for _, c := range []struct {
		v       string
		trusted []string
		not     []string
	}{
		{"", []string{"127.0.0.1", "::1"}, []string{"172.30.0.1"}},
		{"172.30.0.0/24, 10.1.2.3", []string{"172.30.0.1", "10.1.2.3"}, []string{"127.0.0.1", "10.1.2.4"}},
		{"none", nil, []string{"127.0.0.1"}},
	} {
		t.Setenv("TRUSTED_PROXIES", c.v)
		cfg, err := loadConfig()
		if err != nil {
			t.Fatalf("TRUSTED_PROXIES=%q: %v", c.v, err)
		}
		in := func(a string) bool {
			for _, p := range cfg.TrustedProxies {
				if p.Contains(netip.MustParseAddr(a)) {
					return true
				}
			}
			return false
		}
		for _, a := range c.trusted {
			if !in(a) {
				t.Errorf("TRUSTED_PROXIES=%q does not trust %s", c.v, a)
			}
		}
		for _, a := range c.not {
			if in(a) {
				t.Errorf("TRUSTED_PROXIES=%q trusts %s", c.v, a)
			}
		}
	}
	t.Setenv("TRUSTED_PROXIES", "172.30.0.0/24,proxy.example")
	if _, err := loadConfig(); err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXIES") {
		t.Errorf("a malformed TRUSTED_PROXIES: %v; want an error naming it", err)
	}
}
