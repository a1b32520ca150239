// Command fakeclass is a stand-in for a student's console program in the
// class conventions of the handouts in /work/shared/seeds, for classprog's
// tests. It plays "the computer" against "the user" on its terminal and is
// as strict as the handouts ask: it checks the user's answers with the
// game's rules and asks again on an invalid one (CSE 462: "You must check
// whether the desired moves and the piece coordinates are valid or not! If
// not, ask user for a valid move or a valid piece coordinate again").
//
// -game sixes|hique|hiya, -style yn|12 (Hi-Ya!'s two styles), and -mode:
// ok, chatty (announces results and lists moves between its own), reask
// (refuses each first answer once), refuse (refuses every move), crash, hang, slow, garbage, illegal, quit (announces a winner and
// exits early), flood, noflush (never shows its input prompt), split (ends
// each of its move lines a while after the line's text, as a slow terminal
// may deliver it).
//
// -relay pipe|spin runs the fake as a child and hands the child's output
// on to the terminal late, as a student's wrapper (a C relay, a JVM running
// another process) does on a loaded machine: the child waits for input
// while its prompt is still on its way.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
)

var (
	game  = flag.String("game", "sixes", "sixes, hique or hiya")
	style = flag.String("style", "yn", "Hi-Ya!: yn or 12")
	mode  = flag.String("mode", "ok", "how to behave")
	badAt = flag.Int("at", 2, "the computer's move at which a bad mode misbehaves")
	relay = flag.String("relay", "", "run as a relay to a child: pipe or spin (see relayTo)")
)

var in = bufio.NewReader(os.Stdin)

func main() {
	flag.Parse()
	if *relay != "" {
		os.Exit(relayTo(*relay))
	}
	human := ask1()
	opts := rules.Options{}
	if *game == "sixes" {
		fmt.Print("Enter the maximum number of turns: ")
		opts["turns"] = readLine()
	}
	if *game == "hique" {
		opts["turns"] = "30"
	}
	computer := rules.P2
	if human == 2 {
		computer = rules.P1
	}
	if *game == "hiya" {
		// The computer is always North, the human South.
		opts["first"] = "south"
		if computer == rules.P1 {
			opts["first"] = "north"
		}
	}
	g, err := games.Registry().New(*game, opts)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	attempt := 0
	moves := 0
	var list rules.MoveList
	for g.Status() == rules.Ongoing {
		fmt.Println(board(g))
		if g.ToMove() == computer {
			moves++
			g.Moves(&list)
			m := list.Moves[int(g.Hash()%uint64(list.N))]
			if moves == *badAt {
				misbehave(g)
			}
			if *mode == "chatty" {
				// Untidy, as real programs are: a result announced before
				// the move, the user's moves listed, a wrong winner.
				fmt.Println("Game over! The human wins.")
				fmt.Println("Your legal moves: a1 b1, c4 d4, 4 2 4 10, E2B5")
			}
			say(g, m)
			g.Play(m)
			continue
		}
		m, ok := askMove(g, attempt)
		if !ok {
			attempt++
			continue
		}
		attempt = 0
		g.Play(m)
	}
	fmt.Println(board(g))
	fmt.Println("Game over:", g.Outcome().Reason)
}

// ask1 asks who the user is, in the style of the game's handout.
func ask1() int {
	for {
		switch {
		case *game == "hiya" && *style == "yn":
			fmt.Print("Do you want to go first? (y/n) ")
			switch strings.ToLower(readLine()) {
			case "y":
				return 1
			case "n":
				return 2
			}
		case *game == "hiya":
			fmt.Print("Who goes first? 1 = Human, 2 = Computer: ")
			if a := readLine(); a == "1" || a == "2" {
				return int(a[0] - '0')
			}
		default:
			fmt.Print("Are you Player 1 or 2? ")
			if a := readLine(); a == "1" || a == "2" {
				return int(a[0] - '0')
			}
		}
		fmt.Println("Please answer again.")
	}
}

// askMove reads the user's move; false when it was refused (asked again).
func askMove(g rules.Game, attempt int) (rules.Move, bool) {
	var text string
	switch *game {
	case "sixes":
		prompt("Choose piece to move: ")
		from := readLine()
		if refuse(attempt) {
			fmt.Println("Invalid piece, try again.")
			return rules.NoMove, false
		}
		prompt("Choose the new position for " + from + ": ")
		to := readLine()
		text = from + " " + to
	case "hique":
		prompt("Enter your move (X1 Y1 X2 Y2): ")
		text = readLine()
	case "hiya":
		prompt("Enter your move: ")
		text = readLine()
	}
	if *game != "sixes" && refuse(attempt) {
		fmt.Println("Invalid move, try again.")
		return rules.NoMove, false
	}
	m, err := g.ParseMove(text)
	if err != nil {
		fmt.Println("Invalid move, try again:", err)
		return rules.NoMove, false
	}
	if *game == "sixes" {
		fmt.Printf("Player moves the piece at %s\n", strings.Replace(g.FormatMove(m), " ", " to ", 1))
	}
	return m, true
}

// refuse says whether to refuse a right answer, by the mode: reask
// refuses each move's first attempt, refuse every one.
func refuse(attempt int) bool {
	switch *mode {
	case "refuse":
		return true
	case "reask":
		return attempt == 0
	}
	return false
}

// prompt shows an input prompt, unless the program never flushes it.
func prompt(s string) {
	if *mode != "noflush" {
		fmt.Print(s)
	}
}

// say prints the computer's move as the handout has it.
func say(g rules.Game, m rules.Move) {
	t := g.FormatMove(m)
	switch *game {
	case "sixes":
		f := strings.Fields(t)
		fmt.Printf("Computer moves the piece at %s to %s", f[0], f[1])
		if *mode == "split" {
			time.Sleep(150 * time.Millisecond)
		}
		fmt.Println()
	case "hique":
		fmt.Printf("My move: %s\n", t)
	case "hiya":
		turned := turn(t[:2]) + turn(t[2:])
		if *style == "yn" {
			fmt.Printf("My move is: %s (%s)\n", t, turned)
		} else {
			fmt.Printf("Alice moves: %s -> %s\n", t[:2], t[2:])
		}
		if a := g.Announce(m); a != "" {
			fmt.Println(a)
		}
	}
}

// misbehave does the mode's bad thing at the computer's move.
func misbehave(g rules.Game) {
	switch *mode {
	case "crash":
		fmt.Println("Segmentation fault (core dumped)")
		os.Exit(139)
	case "hang":
		time.Sleep(time.Hour)
	case "slow":
		// Late by far more than the tests' tight limit, so that the limit
		// comes first however slowly the machine runs its reader.
		time.Sleep(time.Minute)
	case "garbage":
		os.Stdout.Write([]byte("\x00\xff\xfe\x01garbage\n"))
		time.Sleep(5 * time.Second)
	case "illegal":
		switch *game {
		case "sixes":
			fmt.Println("Computer moves the piece at c3 to c4")
		case "hique":
			fmt.Println("My move: 1 1 13 13")
		case "hiya":
			fmt.Println("My move is: D8D1 (D1D8)")
			fmt.Println("Alice moves: D8 -> D1")
		}
		time.Sleep(5 * time.Second)
	case "quit":
		fmt.Println("Game over: the computer wins!")
		os.Exit(0)
	case "flood":
		line := strings.Repeat("flood ", 30)
		for range 20000 {
			fmt.Println(line)
		}
		time.Sleep(5 * time.Second)
	}
}

// relayDelay is how late a relay hands its child's output on.
const relayDelay = 200 * time.Millisecond

// relayTo runs the fake again without -relay as a child and hands its
// output on relayDelay late, and returns the child's exit code. How
// decides the rest: "pipe" gives the child its input through a pipe, as
// a C relay polling both ends does, and sleeps before handing each output
// on; "spin" lets the child read the terminal itself, as a JVM's child
// does, and keeps a processor busy before handing the first lines on, as
// a relay does that the machine has not run yet.
func relayTo(how string) int {
	var args []string
	flag.Visit(func(f *flag.Flag) {
		if f.Name != "relay" {
			args = append(args, "-"+f.Name+"="+f.Value.String())
		}
	})
	child := exec.Command(os.Args[0], args...)
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		fmt.Println("error:", err)
		return 2
	}
	if how == "pipe" {
		// Its own input waits on the poller, not in a read of the terminal.
		if err := syscall.SetNonblock(0, true); err != nil {
			fmt.Println("error:", err)
			return 2
		}
		in, err := child.StdinPipe()
		if err != nil {
			fmt.Println("error:", err)
			return 2
		}
		go func() {
			io.Copy(in, os.NewFile(0, "stdin"))
			in.Close()
		}()
	} else {
		child.Stdin = os.Stdin
	}
	if err := child.Start(); err != nil {
		fmt.Println("error:", err)
		return 2
	}
	buf := make([]byte, 4096)
	for chunk := 0; ; chunk++ {
		n, err := out.Read(buf)
		if n > 0 {
			switch {
			case how == "pipe":
				time.Sleep(relayDelay)
			case chunk < 4:
				for end := time.Now().Add(relayDelay); time.Now().Before(end); {
				}
			}
			os.Stdout.Write(buf[:n])
		}
		if err != nil {
			break
		}
	}
	if err := child.Wait(); err != nil {
		return 1
	}
	return 0
}

func readLine() string {
	s, err := in.ReadString('\n')
	if err != nil && s == "" {
		os.Exit(1)
	}
	return strings.TrimSpace(s)
}

func turn(sq string) string {
	return string([]byte{'A' + 'G' - sq[0], '1' + '8' - sq[1]})
}

// board draws the position roughly, as a program's chatter.
func board(g rules.Game) string {
	return fmt.Sprintf("[%s to move, ply %d]\n  . . . board . . .", g.PlayerName(g.ToMove()), g.Ply())
}
