package commands

// WorkerLoad exposes workerLoad to the tests of package commands_test.
func (s *Service) WorkerLoad() (bot, analysing int) { return s.workerLoad() }

// AppendEscapeMarkdown exposes appendEscapeMarkdown to the tests of package
// commands_test.
func AppendEscapeMarkdown(dst []byte, s string) []byte { return appendEscapeMarkdown(dst, s) }
