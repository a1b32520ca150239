package redisstore

import (
	"context"
	"net"
)

// dialFunc is go-redis's Options.Dialer.
type dialFunc = func(ctx context.Context, network, addr string) (net.Conn, error)

// directDialer returns dial with each plain TCP or Unix connection it
// makes wrapped by direct, where the platform has it (see direct_linux.go).
// A TLS connection is returned as dial made it.
func directDialer(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return direct(c), nil
	}
}
