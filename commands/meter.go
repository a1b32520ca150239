package commands

import "time"

// Meter hears what the game flow does, for metrics (package metrics has
// one for Prometheus), so that the flow knows nothing of how they are
// kept. Its methods are called synchronously and must not block.
type Meter interface {
	// Command says a command (or a button) was answered after took.
	Command(command string, took time.Duration)
	// Move says a move of game was played and saved, by the bot or by a
	// person.
	Move(game string, bot bool)
	// BotTurn says a bot turn of game was taken up after waiting in the
	// queue for waited; late is how far past the game's time per move
	// that was (0 when it was not).
	BotTurn(game string, waited, late time.Duration)
}

// nopMeter is the Meter of a Service given none.
type nopMeter struct{}

func (nopMeter) Command(string, time.Duration)                {}
func (nopMeter) Move(string, bool)                            {}
func (nopMeter) BotTurn(string, time.Duration, time.Duration) {}
