// Package sandbox starts an untrusted program (a student's player) in a box
// and says why it stopped.
//
// On Linux the box is bubblewrap (bwrap): new user, PID, network, IPC and
// UTS namespaces; a read-only view of the system's runtimes (/usr and the
// few files of /etc that loaders and Java read), the program's own folder
// read-only, and a private size-capped scratch folder (/tmp, also HOME)
// that vanishes with the box; an environment of PATH, LANG, TZ and HOME
// plus the variables the instructor names; no network at all. Limits are
// kernel limits: a cgroup (version 1 memory, pids and cpuacct controllers)
// for memory, processes and processor time where Arbiter may create one,
// and rlimits (prlimit inside the box) for file size, processor time, open
// files and, without a cgroup, memory and processes. Killing the box kills
// every process in it: its PID namespace ends with its first process.
//
// Where no box can be made (no bwrap, no user namespaces, not Linux) a
// Sandbox refuses to start programs unless its mode is Off, which runs
// them unconfined and logs a warning at every start.
//
// Invariants: nothing of the host's environment reaches a boxed program
// but the allow-list and the named variables; a path a Policy hides is
// never visible in a box; Close leaves no process of the box alive.
package sandbox
