package redisstore_test

import (
	"os"
	"testing"

	"arbiter/store/redisstore"
	"arbiter/store/storetest"
)

func TestMain(m *testing.M) {
	// The fault tests make go-redis log failed dials on purpose.
	redisstore.RouteClientLogs(storetest.QuietLogger())
	code := m.Run()
	closeShared()
	os.Exit(code)
}
