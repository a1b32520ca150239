// Package discordtest is a local stand-in for Discord, faithful where a
// slash-command bot depends on it, for tests of a bot built on discordgo.
//
// A Server runs on 127.0.0.1 and speaks Discord's REST API (v9 and v10
// paths) and its gateway websocket as discordgo sees them. A discordgo
// session reaches it through the server's HTTP client, whose transport sends
// every request, whatever its host, to the fake:
//
//	srv := discordtest.Start(t, discordtest.Options{Token: "x"})
//	s, _ := discordgo.New("Bot x")
//	s.Client = srv.HTTPClient()
//	s.Dialer = srv.Dialer()
//	s.Identify.Intents = discordgo.IntentsGuilds
//	err := s.Open() // GET /gateway answers with the fake's ws:// URL
//
// The server keeps guilds, users, roles, channels, threads, messages and
// application commands in memory. Tests drive it as Discord's users would:
// SendCommand, SendAutocomplete and PressButton dispatch INTERACTION_CREATE
// to the bot's gateway session, checked against the commands the bot
// registered and the messages it posted. RequestReconnect, InvalidateSession
// and DropConnections exercise the gateway's recovery paths; InjectRateLimit
// and InjectFailure make REST routes fail.
//
// The server checks what real Discord checks where a bot can get it wrong:
// the first answer to an interaction within 3 seconds, a single initial
// answer, interaction tokens that die after 15 minutes, message, embed,
// component, autocomplete and upload limits, allowed mentions, archived
// threads and privileged intents. A refused request gets Discord's own status
// and error body, and every breach is listed by Violations. Every REST call
// is recorded (Calls, WaitForCall), as is every gateway frame (GatewayLog,
// WaitForGateway).
//
// Time is the server's own clock: real time plus an offset that Advance
// moves forward, so a test can age an interaction token or let a thread
// auto-archive without sleeping.
//
// What discordgo v0.29 does, as seen from here:
//   - Open fetches GET /gateway (not /gateway/bot) once and caches the URL
//     for the session's life; it ignores resume_gateway_url.
//   - IDENTIFY asks for payload compression by default, so the fake sends
//     each payload as a zlib stream in a binary frame.
//   - RECONNECT (op 7): discordgo closes with 1012, sleeps a second, opens
//     and RESUMEs; missed events are replayed before RESUMED.
//   - INVALID_SESSION (op 9): discordgo identifies again on the same
//     connection whatever d says.
//   - Close sends 1000, which ends the session; a later Open still tries
//     RESUME, gets op 9 and identifies. Close takes a second.
//   - Close right after Open races discordgo's heartbeat goroutine into a
//     reconnect loop; WaitConnected waits for the first heartbeat.
//   - 429 is retried after retry_after without limit; 502 up to
//     MaxRestRetries times; other errors come back as *discordgo.RESTError.
//   - InteractionResponseData always sends "embeds":null and
//     "components":null: an UPDATE_MESSAGE that leaves Embeds out drops
//     them, while null components are ignored.
//   - ThreadStart with type 0 omits the type, which API v9 takes as a
//     private thread.
//   - An edit with new Files appends them unless Attachments lists what to
//     keep (&[]*discordgo.MessageAttachment{} replaces all).
//   - An autocomplete's focused option value is the typed text as a
//     string, even for integer options: IntValue would panic.
package discordtest
