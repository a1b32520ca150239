package render_test

import (
	"fmt"

	"arbiter/render"
	"arbiter/rules/games"
)

// A Sixes game after one move, as a text board for a Discord code block.
func ExampleText() {
	g, err := games.Registry().Replay("sixes", nil, []string{"a1 c1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(render.Text(g, render.Options{Players: [2]string{"alice", "bob"}}))
	// Output:
	//    1  2  3  4  5  6
	// a (.) X  .  .  O  O
	// b  X  X  .  .  O  O
	// c [X] .  .  .  .  .
	// d  .  .  .  .  .  .
	// e  O  O  .  .  X  X
	// f  O  O  .  .  X  X
	//    1  2  3  4  5  6
	// X  X (alice): 8 pieces
	// O  O (bob): 8 pieces
	// Marks: (.) from, [X] to
	// Last: X a1 c1
	// Sixes: O (bob) to move, move 2 of 100, 99 left
}

// A record written and read back through the registry.
func ExampleParseRecord() {
	reg := games.Registry()
	g, err := reg.Replay("hiya", nil, []string{"E2B5", "C7F4"})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := render.Record(g, render.Options{Players: [2]string{"alice", "bob"}})
	fmt.Print(text)
	rec, err := render.ParseRecord(reg, text)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Game.Ply(), rec.Players[1], rec.Outcome.Result)
	// Output:
	// # Arbiter game record
	// Game: hiya
	// Options: first=south
	// South: alice
	// North: bob
	// Result: ongoing
	// Plies: 2
	//
	// 1. E2B5 Hi-YA! | C7F4 Hi-YA!
	// 2 bob ongoing
}
