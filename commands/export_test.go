package commands

// WorkerLoad exposes workerLoad to the tests of package commands_test.
func (s *Service) WorkerLoad() (bot, analysing int) { return s.workerLoad() }
