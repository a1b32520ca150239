/* Allocates 4 GiB and touches every page, then plays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
	size_t chunk = 64u << 20;
	for (int i = 0; i < 64; i++) {
		char *p = malloc(chunk);
		if (p == NULL) {
			printf("malloc failed after %d MiB\n", i * 64);
			break;
		}
		memset(p, i + 1, chunk);
	}
	fflush(stdout);
	execl("./fakeclass", "./fakeclass", "-game", "sixes", (char *)NULL);
	return 1;
}
