package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"arbiter/api"
)

// runBridge is `arbiter bridge --server URL --token T -- COMMAND [ARGS]`:
// it plays the person's program, COMMAND speaking the engine protocol, in
// every game it is challenged to on the server, from this machine.
func runBridge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bridge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "", "the Arbiter API's address, e.g. https://arbiter.example.org")
	token := fs.String("token", "", "your program token from /token (or set ARBITER_TOKEN, which keeps it out of the process list)")
	maxGames := fs.Int("max-games", api.DefaultMaxGames, "games your program plays at once; a challenge beyond them is declined, telling the challenger why")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *token == "" {
		*token = strings.TrimSpace(os.Getenv("ARBITER_TOKEN"))
	}
	command := fs.Args()
	switch {
	case *server == "":
		fmt.Fprintln(stderr, "arbiter bridge: --server is required: the Arbiter API's address")
		return 2
	case *token == "":
		fmt.Fprintln(stderr, "arbiter bridge: --token (or ARBITER_TOKEN) is required: /token new gives one, in Discord or in the console with API_ADDR set")
		return 2
	case *maxGames < 1:
		fmt.Fprintf(stderr, "arbiter bridge: --max-games %d: give at least 1\n", *maxGames)
		return 2
	case len(command) == 0:
		fmt.Fprintln(stderr, "arbiter bridge: give your program after --, e.g. arbiter bridge --server URL --token T -- python3 myprog.py")
		return 2
	}
	err := api.RunBridge(ctx, api.BridgeConfig{Server: *server, Token: *token, Argv: command, Out: stdout, ProgramErr: stderr, Registry: gameRegistry(stderr), MaxGames: *maxGames})
	switch {
	case errors.Is(err, api.ErrRefused):
		fmt.Fprintf(stderr, "arbiter bridge: %v\n", err)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "arbiter bridge: %v\n", err)
		return 2
	}
	return 0
}
