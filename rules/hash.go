package rules

// Mix64 is the SplitMix64 finaliser: a fixed bijection of 64-bit words that
// spreads every input bit over the whole output. Games build position
// hashes from it, and Upthrust draws its colours from a seed with it, so it
// never changes.
func Mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
