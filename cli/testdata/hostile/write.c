/* Writes 10 GiB into its scratch folder, then plays. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
	static char buf[1 << 20];
	memset(buf, 'x', sizeof buf);
	FILE *f = fopen("/tmp/big", "w");
	if (f == NULL) {
		perror("open");
	} else {
		for (int i = 0; i < 10 * 1024; i++) {
			if (fwrite(buf, 1, sizeof buf, f) != sizeof buf) {
				perror("write");
				break;
			}
		}
		fclose(f);
	}
	execl("./fakeclass", "./fakeclass", "-game", "sixes", (char *)NULL);
	return 1;
}
