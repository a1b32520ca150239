package redisstore_test

import (
	"os"
	"testing"

	"arbiter/store"
)

func TestMain(m *testing.M) {
	// The fault tests make go-redis log failed dials on purpose.
	store.RouteClientLogs(quietLogger())
	code := m.Run()
	closeShared()
	os.Exit(code)
}
