package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// unavailable reports whether err from go-redis means Redis could not
// serve the request (as opposed to a reply that is an error).
func unavailable(err error) bool {
	if err == nil || errors.Is(err, redis.Nil) {
		return false
	}
	var rerr redis.Error
	if errors.As(err, &rerr) {
		msg := rerr.Error()
		for _, p := range []string{"LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "READONLY", "BUSY ", "MISCONF", "ERR max number of clients"} {
			if strings.HasPrefix(msg, p) {
				return true
			}
		}
		return false
	}
	// Everything that is not a reply from the server is a transport fault:
	// refused or reset connections, timeouts, a closed client, a pool
	// with no free connection.
	return true
}

// wrongType reports whether err is Redis's WRONGTYPE reply, which for our
// keys means the record is damaged.
func wrongType(err error) bool {
	return err != nil && strings.Contains(err.Error(), "WRONGTYPE")
}

// fail turns an error from go-redis into a store error: store.ErrUnavailable for
// transport faults and timeouts (also wrapping the cause), the caller's own
// cancellation as is, anything else wrapped with what was being done.
// caller is the caller's context, before the store added its own timeout.
func fail(caller context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(caller.Err(), context.Canceled) {
		return fmt.Errorf("%s: %w", what, caller.Err())
	}
	if unavailable(err) {
		return fmt.Errorf("%s: %w (%w)", what, store.ErrUnavailable, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}
