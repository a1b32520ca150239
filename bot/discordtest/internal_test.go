package discordtest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestFieldKeepsPresenceAndNull(t *testing.T) {
	p, err := parsePayload([]byte(`{"content":null,"embeds":[],"flags":64}`))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Content.Set || !p.Content.Null {
		t.Errorf("content = %+v, want set and null", p.Content)
	}
	if !p.Embeds.Set || p.Embeds.Null || len(p.Embeds.V) != 0 {
		t.Errorf("embeds = %+v, want set, not null, empty", p.Embeds)
	}
	if p.Components.Set {
		t.Errorf("components = %+v, want absent", p.Components)
	}
	if !p.Flags.Set || p.Flags.V != 64 {
		t.Errorf("flags = %+v", p.Flags)
	}
}

func TestEditSemantics(t *testing.T) {
	s := &Server{opts: Options{Now: time.Now}}
	base := Message{
		ID: "1", ChannelID: "2", Content: "board",
		Embeds:      []Embed{{Title: "t"}},
		Components:  []Component{{Type: ComponentActionRow, Components: []Component{{Type: ComponentButton, Style: 1, CustomID: "a", Label: "A"}}}},
		Attachments: []Attachment{{ID: "10", Filename: "a.png"}, {ID: "11", Filename: "b.png"}},
	}
	tests := []struct {
		body        string
		content     string
		embeds      int
		components  int
		attachments int
	}{
		{`{}`, "board", 1, 1, 2},
		{`{"content":"x"}`, "x", 1, 1, 2},
		{`{"content":null,"embeds":null,"components":null}`, "", 0, 1, 2},
		{`{"components":[]}`, "board", 1, 0, 2},
		{`{"attachments":[{"id":"11"}]}`, "board", 1, 1, 1},
		{`{"attachments":[]}`, "board", 1, 1, 0},
	}
	for _, tc := range tests {
		p, err := parsePayload([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		m := base.clone()
		if err := s.applyEdit(&m, p, nil); err != nil {
			t.Fatal(err)
		}
		if m.Content != tc.content || len(m.Embeds) != tc.embeds || len(m.Components) != tc.components || len(m.Attachments) != tc.attachments {
			t.Errorf("%s: content %q embeds %d components %d attachments %d", tc.body, m.Content, len(m.Embeds), len(m.Components), len(m.Attachments))
		}
	}
}

func TestPayloadErrors(t *testing.T) {
	tests := []struct {
		body string
		code int
	}{
		{`{"content": 5}`, 50035},
		{`{"content": "x"`, 50109},
		{`[1,2]`, 50035},
		{`{"components":[{"type":1,"components":"no"}]}`, 50035},
	}
	for _, tc := range tests {
		if _, err := parsePayload([]byte(tc.body)); err == nil || err.code != tc.code {
			t.Errorf("%s: error %v, want code %d", tc.body, err, tc.code)
		}
	}
}

func TestParseMentions(t *testing.T) {
	tests := []struct {
		content  string
		users    []string
		roles    []string
		everyone bool
	}{
		{"hello", nil, nil, false},
		{"<@123> and <@!456> and <@123>", []string{"123", "456"}, nil, false},
		{"<@&789> @here", nil, []string{"789"}, true},
		{"<@> <@abc> <@12 <@&> <@!>", nil, nil, false},
		{"`<@1>` still pings", []string{"1"}, nil, false},
		{"<@<@42>>", []string{"42"}, nil, false},
		{"@everyone", nil, nil, true},
		{"<@123456789012345678901>", nil, nil, false},
	}
	for _, tc := range tests {
		u, r, e := parseMentions(tc.content)
		if !reflect.DeepEqual(u, tc.users) || !reflect.DeepEqual(r, tc.roles) || e != tc.everyone {
			t.Errorf("parseMentions(%q) = %v %v %v, want %v %v %v", tc.content, u, r, e, tc.users, tc.roles, tc.everyone)
		}
	}
}

func TestFormErrorShape(t *testing.T) {
	e := formError("components.0.components.1.custom_id", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	got, _ := json.Marshal(e.body())
	want := `{"code":50035,"errors":{"components":{"0":{"components":{"1":{"custom_id":{"_errors":[{"code":"BASE_TYPE_MAX_LENGTH","message":"Must be 100 or fewer in length."}]}}}}}},"message":"Invalid Form Body"}`
	if string(got) != want {
		t.Errorf("body = %s\nwant   %s", got, want)
	}
	if under := underData(formError("choices", "X", "y")); !strings.HasPrefix(under.detail, "data.choices") {
		t.Errorf("underData detail = %q", under.detail)
	}
}

func TestValidCommandName(t *testing.T) {
	for name, want := range map[string]bool{
		"play": true, "board-style": true, "a_b": true, "x1": true, "jeu's": true, "échecs": true, "शतरंज": true,
		"": false, "Play": false, "two words": false, "slash/": false, strings.Repeat("a", 32): true, strings.Repeat("a", 33): false,
	} {
		if got := validCommandName(name); got != want {
			t.Errorf("validCommandName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestShardOf(t *testing.T) {
	// (id >> 22) % n, Discord's formula; DMs on shard 0.
	id := uint64(5) << 22
	if got := shardOf("20971520", 2); got != int(id>>22)%2 {
		t.Errorf("shardOf = %d", got)
	}
	if shardOf("", 4) != 0 || shardOf("x", 4) != 0 || shardOf("20971520", 1) != 0 {
		t.Error("DMs, bad IDs and a single shard go to shard 0")
	}
}

func TestSnowflakesFollowTheClock(t *testing.T) {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &Server{opts: Options{Now: func() time.Time { return base }}}
	a, b := s.newIDLocked(), s.newIDLocked()
	if !snowflakeLess(a, b) {
		t.Fatalf("ids %s, %s not increasing", a, b)
	}
	var n uint64
	json.Unmarshal([]byte(a), &n)
	if ms := int64(n>>22) + discordEpochMs; ms != base.UnixMilli() {
		t.Errorf("snowflake time %d, want %d", ms, base.UnixMilli())
	}
}

func FuzzParseMentions(f *testing.F) {
	for _, s := range []string{"<@1>", "<@!22><@&333>", "@everyone <@", "<@<@&>>", "<@9999999999999999999>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		users, roles, _ := parseMentions(content)
		for _, id := range append(users, roles...) {
			if id == "" || len(id) > 20 || strings.Trim(id, "0123456789") != "" {
				t.Fatalf("bad id %q from %q", id, content)
			}
		}
		for _, id := range users {
			if !strings.Contains(content, "<@"+id+">") && !strings.Contains(content, "<@!"+id+">") {
				t.Fatalf("user %s not mentioned in %q", id, content)
			}
		}
		for _, id := range roles {
			if !strings.Contains(content, "<@&"+id+">") {
				t.Fatalf("role %s not mentioned in %q", id, content)
			}
		}
	})
}

func FuzzMessagePayload(f *testing.F) {
	for _, s := range []string{
		`{"content":"hi"}`,
		`{"content":null,"embeds":[{"title":"t","fields":[{"name":"a","value":"b"}]}]}`,
		`{"components":[{"type":1,"components":[{"type":2,"style":1,"custom_id":"a","label":"A"},{"type":3,"custom_id":"s","options":[]}]}]}`,
		`{"allowed_mentions":{"parse":["users"],"users":["1"]}}`,
		`{"attachments":[{"id":0,"description":"d"},{"id":"123"}],"flags":64}`,
		`{"choices":[{"name":"n","value":1.5}],"custom_id":"m","title":"t"}`,
		`{"message_reference":{"message_id":"1","fail_if_not_exists":false}}`,
		`{"poll":{}}`, `null`, `[]`, `{"content":"x"`,
	} {
		f.Add([]byte(s))
	}
	s := &Server{opts: Options{MaxUploadBytes: 16}}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := parsePayload(body)
		if err != nil {
			if err.status != 400 {
				t.Fatalf("parse error status %d", err.status)
			}
			return
		}
		if err := s.checkPayload(p, []upload{{field: "files[0]", filename: "a", data: body}}); err != nil && err.status/100 != 4 {
			t.Fatalf("check error status %d", err.status)
		}
		if p.Choices.Set {
			for _, typ := range []int{OptionString, OptionInteger, OptionNumber} {
				_ = checkAutocomplete(p, typ)
			}
		}
		_ = checkModal(p)
	})
}

func FuzzCommandRegistration(f *testing.F) {
	for _, s := range []string{
		`[{"name":"play","description":"d","options":[{"type":3,"name":"game","description":"g","required":true,"autocomplete":true}]}]`,
		`[{"name":"board","description":"d","options":[{"type":2,"name":"g","description":"x","options":[{"type":1,"name":"s","description":"y","options":[{"type":4,"name":"n","description":"z","min_value":1,"max_value":9,"choices":[{"name":"a","value":1}]}]}]}]}]`,
		`[{"type":2,"name":"Profile"}]`,
		`[{"name":"x","description":"d","default_member_permissions":"8","contexts":[0,1,7]}]`,
		`[{"name":"x","description":"d","options":[{"type":3,"name":"a","description":"a"},{"type":3,"name":"b","description":"b","required":true}]}]`,
		`{}`, `[null]`,
	} {
		f.Add([]byte(s))
	}
	srv := &Server{opts: Options{AppID: "1", Now: time.Now}}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in []commandIn
		if json.Unmarshal(body, &in) != nil {
			return
		}
		for i := range in {
			c, err := srv.buildCommand("0", &in[i], "")
			if err != nil {
				if err.status != 400 {
					t.Fatalf("status %d", err.status)
				}
				continue
			}
			if c.Type == CommandChatInput && !validCommandName(c.Name) {
				t.Fatalf("accepted invalid name %q", c.Name)
			}
			if _, err := json.Marshal(commandJSON(c)); err != nil {
				t.Fatalf("encode accepted command: %v", err)
			}
		}
	})
}

func FuzzSplitAPIPath(f *testing.F) {
	for _, s := range []string{"/api/v9/channels/1/messages", "/api/v10/", "/api/users/@me", "/api/vx/a", "/nope", "/api/v9//x//"} {
		f.Add(s)
	}
	routes := buildRoutes()
	f.Fuzz(func(t *testing.T, path string) {
		v, segs, err := splitAPIPath(path)
		if err != nil {
			return
		}
		if v != 9 && v != 10 {
			t.Fatalf("version %d accepted", v)
		}
		for _, m := range []string{"GET", "POST", "PATCH", "PUT", "DELETE"} {
			if r, params, _ := matchRoute(routes, m, segs); r != nil {
				for k, val := range params {
					if val == "" {
						t.Fatalf("empty param %s for %s", k, path)
					}
				}
			}
		}
	})
}
