/* A well-behaved C player: it runs for the whole game and relays the game
 * to the fake class program beside it (which keeps the rules), through
 * stdio as a student's C program would. */
#include <poll.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
	int to[2], from[2];
	if (pipe(to) || pipe(from)) {
		perror("pipe");
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		dup2(from[1], 2);
		close(to[1]);
		close(from[0]);
		execl("./fakeclass", "./fakeclass", "-game", "sixes", (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = from[0], .events = POLLIN}};
	char buf[4096];
	for (;;) {
		if (poll(fds, 2, -1) < 0)
			break;
		if (fds[1].revents) {
			ssize_t n = read(from[0], buf, sizeof buf);
			if (n <= 0)
				break;
			fwrite(buf, 1, n, stdout);
			fflush(stdout);
		}
		if (fds[0].revents) {
			ssize_t n = read(0, buf, sizeof buf);
			if (n <= 0)
				break;
			if (write(to[1], buf, n) != n)
				break;
		}
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
