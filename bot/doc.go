// Package bot is Arbiter on Discord: the session, the registration of the
// command set, interactions in and messages out. It adapts package commands
// to discordgo and knows nothing of games.
//
// # Interactions in
//
// Slash commands, autocomplete requests and button presses arrive over the
// gateway (Bot.Run) or, in HTTP mode, at the interactions endpoint
// (Bot.ServeHTTP, Ed25519-verified). Each becomes a commands.Invocation:
// options as text, the user's role IDs resolved to role names, the Manage
// Server permission as ManageServer, resolved user options as Users. A
// button's custom id is read back by commands.ParseButton into the command
// and the game version it was drawn for, so a stale button is refused by
// commands, politely and privately.
//
// # Answering within three seconds
//
// Discord drops an interaction that has no first answer within 3 seconds.
// The policy is a timer: the command runs at once while a timer runs
// (Config.DeferAfter, 1.5 s, shortened when the interaction reached us late,
// as after a gateway reconnect). When the command is done first, its reply is
// the answer (ephemeral when private). When the timer fires first, the answer
// is a deferral ("Arbiter is thinking..."), ephemeral for the commands whose
// replies are private by nature (/help, /rules, /moves, /games, /stats and
// the Refresh button), public otherwise; when the reply comes, it replaces
// the deferral (an edit) if their privacy agrees and a public reply pings
// nobody; else, by documented means only, the deferral is edited into a
// placeholder (a followup "directly after" a deferral would edit it
// instead), the reply is sent as a followup with the right privacy and
// pings, and the placeholder is deleted: private text is never shown to the
// channel and a move's mentions do ping. Autocomplete is answered directly,
// at most 25 choices.
//
// In HTTP mode a reply with files is always deferred and uploaded by the
// edit (Discord fails large inline multipart answers), and the edit waits
// until the handler has returned and flushed the deferral, so that it
// never overtakes it; an edit refused as Unknown Webhook is tried again.
//
// # Messages out
//
// What comes later (the bot's move, reminders, timeouts, results) goes
// through Notifier, an ordinary channel message over REST: interaction
// tokens die after 15 minutes and games last days. Every message allows
// pings only for commands.Message.Mentions; buttons go in action rows of at
// most five; files are attachments; text over Discord's 2000 characters is
// attached as a file instead.
//
// # Threads
//
// /play ... thread:true opens a public thread from the channel for the game
// (auto-archive after a week, Discord's longest, since a game's turns may
// take days), runs /play in the thread, posts the game's announcement there
// and answers in the channel with a link to the thread. When /play is
// refused, the empty thread is archived. /play in a thread a student opened
// joins it. Notifier posts straight into a thread: Discord unarchives an
// archived one itself, unless it is locked.
//
// # Permissions
//
// One list (permissions.go) names every permission the bot needs and why;
// the invite link's integer (InvitePermissions) and
// docs/reference/permissions.md are made from it. A command whose game goes on with the bot's posts
// (/play, /rematch, /accept, /move, /undo, /draw) is first checked against
// the permissions Discord sends with the interaction (app_permissions) and
// the channel's kind: where the bot cannot post, the invoker is told privately and exactly
// what it lacks and where, and the channel's game is paused
// (commands.Service.PauseUnreachable). A later post refused with 50001 or
// 50013, or in a locked thread, is a commands.UnreachableError saying the
// same, and the game flow pauses the game. /diagnose shows a referee each
// permission had or lacking here.
//
// # Gateway liveness
//
// discordgo is the master revision after v0.29.0
// (v0.29.1-0.20260214123928-f43dd94faaac): unlike v0.29.0 it RESUMEs on
// READY's resume_gateway_url, and answers INVALID_SESSION (op 9) by closing
// with 1012 and, after the second that close takes, resuming (d = true) or
// identifying on a new connection to the cached gateway URL (d = false),
// as events/gateway.mdx, "Resuming", says. v0.29.0 cannot be configured
// to do either: the URL and session it resumes are unexported.
//
// discordgo notices a missing heartbeat ACK only after five intervals and
// then closes with 1000, which ends the session. Bot.Run watches the ACKs
// itself: when the one due is half an interval late (half an interval
// after the unacknowledged heartbeat), it closes with 4000, which keeps
// the session, and opens again, so discordgo RESUMEs and Discord replays
// the interactions sent meanwhile.
//
// That revision's op 9 handler takes the session's lock, so an op 9 that
// answers the RESUME inside Open, which holds the lock (a session expired
// during an outage), deadlocks the session for good; nothing outside can
// clear the session it resumes. Bot.Run notices the lock held longer than
// Config.GatewayStuckAfter and returns ErrGatewayStuck, so that the
// process exits and its supervisor restarts it, identifying afresh: the
// docs' own answer to a resume that fails ("Handling a Disconnect").
// Interactions dispatched to the expired session are lost either way.
//
// # Processes
//
// One process per gateway shard runs Bot.Run; bot-turn workers may run in
// it or in separate `arbiter worker` processes, which need no gateway:
// NewSession's session serves REST without Open.
//
// Invariants a change must keep: every interaction gets a first answer
// within Discord's three seconds; private replies are never shown to the
// channel; only the users in commands.Message.Mentions are pinged; the bot
// acts on Discord only by documented means (each rule the fake in
// bot/discordtest enforces cites Discord's docs); the bot token is never
// logged; and nothing imports this package.
package bot
