package redisstore_test

import (
	"context"
	"strings"
	"testing"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/storetest"
)

// A REDIS_URL that does not read is refused with words that never hold
// its password, whatever part of it is wrong: the error is logged at
// start-up and printed by doctor.
func TestMalformedRedisURLKeepsItsPassword(t *testing.T) {
	const secret = "hunter2-Secret"
	for _, raw := range []string{
		"redis://arbiter:" + secret + "@redis:port/0",
		"redis://arbiter:" + secret + "@redis:6379/notadb",
		"redis://arbiter:" + secret + "@[::1:6379/0",
		"redis://arbiter:" + secret + "%zz@redis:6379/0",
		"redis://arbiter:" + secret + " x@redis:6379/0",
		"rediss://arbiter:" + secret + "@redis:6379/0?dial_timeout=soon",
		"redis://redis:6379/0?password=" + secret + "&dial_timeout=soon",
		"tcp://arbiter:" + secret + "@redis:6379/0",
		"redis://arbiter:" + secret + "@redis:6379/0?addr=other:port&addr=:%zz",
	} {
		for _, cluster := range []bool{false, true} {
			_, err := redisstore.Open(context.Background(), store.Config{RedisURL: raw, Cluster: cluster, Registry: games.Registry(), Logger: storetest.QuietLogger()})
			if err == nil {
				continue // this form reads as a cluster's: nothing to say
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("open %q (cluster %v): the error shows the password: %v", raw, cluster, err)
			}
			_, err = redisstore.ProbeURL(context.Background(), raw, cluster)
			if err != nil && strings.Contains(err.Error(), secret) {
				t.Errorf("probe %q (cluster %v): the error shows the password: %v", raw, cluster, err)
			}
		}
	}
}
