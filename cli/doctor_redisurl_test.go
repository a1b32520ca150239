package cli

import (
	"strings"
	"testing"
)

// doctor reports a REDIS_URL that does not read without printing its
// password.
func TestDoctorKeepsAMalformedRedisURLsPassword(t *testing.T) {
	const secret = "hunter2-Secret"
	for _, raw := range []string{
		"redis://arbiter:" + secret + "@redis:port/0",
		"redis://arbiter:" + secret + "%zz@redis:6379/0",
	} {
		doctorEnv(t, map[string]string{"REDIS_URL": raw})
		code, out, errOut := runArgs(t, "doctor")
		if code != 1 || !strings.Contains(out, "PROBLEM REDIS_URL") {
			t.Errorf("%q: exit %d, want 1 and a problem with REDIS_URL:\n%s", raw, code, out)
		}
		if strings.Contains(out+errOut, secret) {
			t.Errorf("%q: doctor printed the password:\n%s%s", raw, out, errOut)
		}
	}
}
