package bot

// UnverifiedBodies is how many HTTP bodies b is reading before their
// signature is checked, for the tests of package bot_test.
func (b *Bot) UnverifiedBodies() int {
	b.unverified.mu.Lock()
	defer b.unverified.mu.Unlock()
	return b.unverified.total
}
