package commands

// OptionType is the kind of value a command option takes.
type OptionType int

// The option types, as chat platforms know them.
const (
	OptString OptionType = iota
	OptInteger
	OptUser
	OptBoolean
)

// Choice is one fixed value an option offers.
type Choice struct {
	Name  string // shown to the user
	Value string // sent back in the invocation
}

// OptionSpec describes one option of a command.
type OptionSpec struct {
	Name         string
	Description  string
	Type         OptionType
	Required     bool
	Choices      []Choice
	Autocomplete bool // the handler suggests values as the user types
	Min, Max     int  // bounds of an integer option, when Max > 0
}

// CommandSpec describes one command (or a subcommand of a group) as the
// chat platform shows it.
type CommandSpec struct {
	Name        string
	Description string
	Options     []OptionSpec
	Subcommands []CommandSpec
}

// maxChoices is the most choices Discord takes for one option.
const maxChoices = 25

// CommandSet returns every command Arbiter offers, with gameNames as the
// choices of the game options (none past maxChoices games: then the game
// is typed).
func CommandSet(gameNames []string) []CommandSpec {
	// Discord takes at most 25 choices for an option; with more games
	// (described ones from GAMES_DIR) the game is typed, and a name that
	// is no game is answered with the list of games.
	var gameChoices []Choice
	if len(gameNames) <= maxChoices {
		for _, n := range gameNames {
			gameChoices = append(gameChoices, Choice{Name: n, Value: n})
		}
	}
	game := func(required bool) OptionSpec {
		return OptionSpec{Name: "game", Description: "which game", Type: OptString, Required: required, Choices: gameChoices}
	}
	wallNames := OptionSpec{Name: "names", Description: "how the wall names players (default initials)", Type: OptString,
		Choices: []Choice{{"display names", NamesDisplay}, {"initials", NamesInitials}, {"anonymous", NamesAnonymous}}}
	options := OptionSpec{Name: "options", Description: `game options, e.g. "turns=200 edges=on"`, Type: OptString}
	return []CommandSpec{
		{Name: "play", Description: "start a game here: against the bot, or challenge someone", Options: []OptionSpec{
			game(true),
			{Name: "opponent", Description: "challenge this person (no opponent: play the bot)", Type: OptUser},
			{Name: "level", Description: "the bot's strength, 1 (beginner) to 5 (full strength)", Type: OptInteger, Min: 1, Max: 5},
			{Name: "side", Description: "move first or second", Type: OptString, Choices: []Choice{{"first", "first"}, {"second", "second"}, {"random", "random"}}},
			{Name: "time", Description: "time per move for people, e.g. 45s, 10m, 2d (default 2d)", Type: OptString},
			options,
			{Name: "thread", Description: "open a thread for the game", Type: OptBoolean},
			{Name: "program", Description: "the opponent's program plays (no opponent: your program plays the bot)", Type: OptBoolean},
			{Name: "myprogram", Description: "your program plays instead of you", Type: OptBoolean},
		}},
		{Name: "accept", Description: "accept the challenge waiting for you here"},
		{Name: "decline", Description: "decline the challenge waiting for you here"},
		{Name: "move", Description: "play a move, e.g. 4 2 4 10", Options: []OptionSpec{
			{Name: "move", Description: "your move in the game's notation", Type: OptString, Required: true, Autocomplete: true},
		}},
		{Name: "board", Description: "show the board", Options: []OptionSpec{
			{Name: "style", Description: "how to draw it", Type: OptString, Choices: []Choice{{"text", "text"}, {"emoji", "emoji"}, {"image", "image"}}},
			{Name: "view", Description: "from whose side", Type: OptString, Choices: []Choice{{"mine", "mine"}, {"first", "first"}, {"second", "second"}}},
			{Name: "link", Description: "send me a one-time link to play on the board page", Type: OptBoolean},
		}},
		{Name: "moves", Description: "list the legal moves", Options: []OptionSpec{
			{Name: "from", Description: "only the moves of the piece on this square", Type: OptString},
		}},
		{Name: "resign", Description: "resign the game"},
		{Name: "premove", Description: "answer the opponent's next moves in advance (no option: show yours)", Options: []OptionSpec{
			{Name: "line", Description: `"their move, your answer; ...", chains allowed: "c4 d4, e5 e4, c5 d5, e4 e3"`, Type: OptString},
			{Name: "clear", Description: "clear your premoves in this game", Type: OptBoolean},
		}},
		{Name: "vacation", Description: "stop the clocks of all your games in this server while you are away", Subcommands: []CommandSpec{
			{Name: "start", Description: "start your vacation: your clocks stop (at most your days left)"},
			{Name: "end", Description: "end your vacation: your clocks run again"},
			{Name: "status", Description: "your vacation days used and left"},
		}},
		{Name: "notify", Description: "how you hear that it is your turn, in every game (no option: show)", Options: []OptionSpec{
			{Name: "dm", Description: "a direct message when it is your turn", Type: OptString, Choices: []Choice{{"on", "on"}, {"off", "off"}}},
			{Name: "digest", Description: "a daily direct message of the games waiting for you, at HH:MM (or off)", Type: OptString},
			{Name: "tz", Description: "your time zone for the digest, e.g. Europe/Berlin", Type: OptString},
		}},
		{Name: "rematch", Description: "play the last game here again, sides swapped"},
		{Name: "draw", Description: "offer a draw, or accept the one offered"},
		{Name: "undo", Description: "take back your last move: with the opponent's consent, or against the bot in unrated games"},
		{Name: "history", Description: "the moves of this game or an archived one, with its record and replay", Options: []OptionSpec{
			{Name: "game", Description: "an archived game's id (from /games)", Type: OptString},
		}},
		{Name: "analyse", Description: "the engine's analysis of a finished game: graph, accuracy, the worst moves", Options: []OptionSpec{
			{Name: "game", Description: "an archived game's id (default: the last game here)", Type: OptString},
		}},
		{Name: "rules", Description: "the rules of a game", Options: []OptionSpec{game(true)}},
		{Name: "help", Description: "how to play with Arbiter"},
		{Name: "games", Description: "the games in this server, running and finished"},
		{Name: "stats", Description: "a player's ratings and results", Options: []OptionSpec{
			{Name: "user", Description: "whose (default: yours)", Type: OptUser},
		}},
		{Name: "leaderboard", Description: "the best rated players of a game in this server", Options: []OptionSpec{game(true)}},
		{Name: "settings", Description: "this channel's settings", Options: []OptionSpec{
			{Name: "board", Description: "how boards are drawn in this channel", Type: OptString, Choices: []Choice{{"text", "text"}, {"emoji", "emoji"}, {"image", "image"}}},
		}},
		{Name: "token", Description: "a token for your own program to play through arbiter bridge", Subcommands: []CommandSpec{
			{Name: "new", Description: "make your program token (shown once, to you only)"},
			{Name: "revoke", Description: "end your program token at once"},
		}},
		{Name: "tournament", Description: "a correspondence tournament between the class's members", Subcommands: []CommandSpec{
			{Name: "create", Description: "open a tournament in this channel (referees)", Options: []OptionSpec{
				game(true),
				{Name: "format", Description: "who meets whom", Type: OptString, Choices: []Choice{{"round robin", "roundrobin"}, {"gauntlet", "gauntlet"}, {"swiss", "swiss"}, {"knockout", "knockout"}}},
				{Name: "rounds", Description: "round robin, gauntlet: times each pair meets (1-4, default 1); swiss: rounds (default log2 players)", Type: OptInteger, Min: 1, Max: 12},
				{Name: "time", Description: "time per move, e.g. 45s, 10m, 2d (default 2d)", Type: OptString},
				{Name: "vacation", Description: "whether players may stop their clocks with /vacation (default on)", Type: OptString, Choices: []Choice{{"on", "on"}, {"off", "off"}}},
			}},
			{Name: "join", Description: "enter the tournament of this channel"},
			{Name: "start", Description: "pair the players and start the first round (referees)"},
			{Name: "standings", Description: "the tournament's standings"},
		}},
		{Name: "wall", Description: "the server's live wall: a link to show its games on a projector (referees)", Subcommands: []CommandSpec{
			{Name: "on", Description: "turn the live wall on: a new secret link, shown to you once", Options: []OptionSpec{wallNames}},
			{Name: "off", Description: "turn the live wall off: its link stops working"},
			{Name: "new", Description: "replace the wall's link: the old one stops working", Options: []OptionSpec{wallNames}},
			{Name: "names", Description: "how the wall names players", Options: []OptionSpec{func() OptionSpec { o := wallNames; o.Required = true; return o }()}},
		}},
		{Name: "referee", Description: "referee tools", Subcommands: []CommandSpec{
			{Name: "start", Description: "start a match between two students", Options: []OptionSpec{
				game(true),
				{Name: "p1", Description: "the first player", Type: OptUser, Required: true},
				{Name: "p2", Description: "the second player", Type: OptUser, Required: true},
				{Name: "time", Description: "time per move, e.g. 45s, 10m, 2d (default 2d)", Type: OptString},
				options,
			}},
			{Name: "abort", Description: "abort the game here, unrated"},
			{Name: "adjudicate", Description: "decide the game here", Options: []OptionSpec{
				{Name: "result", Description: "who wins", Type: OptString, Required: true, Choices: []Choice{{"p1", "p1"}, {"p2", "p2"}, {"draw", "draw"}}},
				{Name: "reason", Description: "why, in words", Type: OptString, Required: true},
			}},
			{Name: "extend", Description: "give the player to move more time", Options: []OptionSpec{
				{Name: "by", Description: "how much, e.g. 1d", Type: OptString, Required: true},
			}},
			{Name: "export", Description: "the grades of a course period as CSV attachments", Options: []OptionSpec{
				{Name: "from", Description: "the period's first day, YYYY-MM-DD (UTC)", Type: OptString},
				{Name: "to", Description: "the period's last day, YYYY-MM-DD (UTC), included", Type: OptString},
			}},
			{Name: "term-close", Description: "archive this term (grades, games, ratings) as a file, then reset ratings and vacation days", Options: []OptionSpec{
				{Name: "name", Description: "the term's name, e.g. 2026-autumn", Type: OptString, Required: true},
			}},
			{Name: "vacation", Description: "everyone's vacation allowance in this server, for the term", Options: []OptionSpec{
				{Name: "days", Description: "days of vacation each (default 7)", Type: OptInteger, Min: 0, Max: 60},
			}},
			{Name: "pause", Description: "stop the clock of the game here"},
			{Name: "resume", Description: "restart the clock of the game here"},
		}},
	}
}
