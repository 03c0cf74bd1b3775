/* A C bot that never flushes stdout: on a pipe its stdio would buffer every line. */
#include <stdio.h>
#include <string.h>
int main(void) {
    char line[256];
    int spots, n;
    if (scanf("%d", &spots) != 1) return 1;
    for (int i = 0; i < spots; i++) { int x, y; scanf("%d %d", &x, &y); }
    for (;;) {
        int v;
        for (int i = 0; i < 4; i++) if (scanf("%d", &v) != 1) return 0;
        for (int i = 0; i < 12; i++) scanf("%255s", line);
        scanf("%d", &n);
        for (int i = 0; i < n; i++) { int a, b, c, d; scanf("%d %d %d %d", &a, &b, &c, &d); }
        scanf("%d", &n);
        for (int i = 0; i < n; i++) { int a, b, c, d, e; scanf("%d %d %d %d %d", &a, &b, &c, &d, &e); }
        printf("WAIT\n");
    }
}
