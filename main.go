// Command arbiter hosts the board games of university AI courses: a Discord
// bot, a console, a referee for programs and a strong engine. Run
// `arbiter help` for its subcommands; they live in package cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"arbiter/cli"

	// The binary carries its CA roots (used where the system has none, as
	// in a FROM scratch image) and the time zone database.
	_ "golang.org/x/crypto/x509roots/fallback"
	_ "time/tzdata"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
