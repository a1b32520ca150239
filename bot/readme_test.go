package bot

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestREADMEPermissions: the README's permissions table, integer and
// invite link are the ones computed from the bot's list of needed
// permissions, View Channel included.
func TestREADMEPermissions(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	if !strings.Contains(readme, PermissionsTable()) {
		t.Errorf("the README's permissions table differs from the bot's list; it should read:\n%s", PermissionsTable())
	}
	perms := strconv.FormatInt(InvitePermissions(), 10)
	if !strings.Contains(readme, "permissions integer `"+perms+"`") || !strings.Contains(readme, "&permissions="+perms) {
		t.Errorf("the README does not give the permissions integer %s in its text and invite link", perms)
	}
	if !strings.Contains(readme, InviteURL("<DISCORD_APP_ID>")) {
		t.Errorf("the README's invite link is not %s", InviteURL("<DISCORD_APP_ID>"))
	}
	if InvitePermissions()&(1<<10) == 0 {
		t.Error("the invite lacks View Channel")
	}
}
