package cli

import (
	"strings"
	"testing"
)

// TestConfigCachedGames: CACHED_GAMES sizes the game cache, and a value
// that is not a whole number is refused, naming the variable.
func TestConfigCachedGames(t *testing.T) {
	t.Chdir(t.TempDir()) // no .env
	t.Setenv("CACHED_GAMES", "10000")
	c, err := loadConfig()
	if err != nil || c.CachedGames != 10000 {
		t.Fatalf("CACHED_GAMES=10000: %d, %v", c.CachedGames, err)
	}
	t.Setenv("CACHED_GAMES", "many")
	if _, err := loadConfig(); err == nil || !strings.Contains(err.Error(), "CACHED_GAMES") {
		t.Fatalf("CACHED_GAMES=many: %v, want an error naming it", err)
	}
}
