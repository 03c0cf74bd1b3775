/* Ice and Fire, the walker of tests/e2e/bots.mjs (iceAndFireWalker) in C: every unit walks to
 * the enemy HQ; a level-1 unit is trained beside the HQ while there is gold and a free cell; each
 * turn logs "units: N" to the debug log. tests/e2e/wasm-bots.mjs compiles it to wasm32-wasi (the
 * page plays it) and natively (botplay play runs it), and compares the two transcripts; built
 * with -DSLEEP_US=N, it sleeps N microseconds a turn before answering (WASI's poll_oneoff). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX 512

static int read_int(void) {
    int n = 0;
    if (scanf("%d", &n) != 1) return -1;
    return n;
}

int main(void) {
    char line[256];
    int spots = read_int();
    for (int i = 0; i < spots; i++) { int x, y; scanf("%d %d", &x, &y); }
    static int buildings[MAX][4], units[MAX][5];
    for (;;) {
        int gold = read_int();
        if (gold < 0) return 0;
        int income = read_int(), opp_gold = read_int(), opp_income = read_int();
        (void)income; (void)opp_gold; (void)opp_income;
        for (int y = 0; y < 12; y++) scanf("%255s", line);
        int nb = read_int();
        for (int i = 0; i < nb && i < MAX; i++)
            scanf("%d %d %d %d", &buildings[i][0], &buildings[i][1], &buildings[i][2], &buildings[i][3]);
        int nu = read_int();
        for (int i = 0; i < nu && i < MAX; i++)
            scanf("%d %d %d %d %d", &units[i][0], &units[i][1], &units[i][2], &units[i][3], &units[i][4]);
        int *mine = NULL, *theirs = NULL;
        for (int i = 0; i < nb; i++) {
            if (buildings[i][1] != 0) continue;
            if (buildings[i][0] == 0) mine = buildings[i]; else theirs = buildings[i];
        }
        static char out[MAX * 24];
        out[0] = 0;
        size_t at = 0;
        for (int i = 0; i < nu && theirs; i++) {
            if (units[i][0] != 0) continue;
            at += snprintf(out + at, sizeof out - at, "%sMOVE %d %d %d", at ? ";" : "", units[i][1], theirs[2], theirs[3]);
        }
        int beside[2][2] = {{1, 0}, {0, 1}};
        if (mine && mine[2] != 0) { beside[0][0] = 10; beside[0][1] = 11; beside[1][0] = 11; beside[1][1] = 10; }
        int free = -1;
        for (int b = 0; b < 2 && free < 0; b++) {
            int taken = 0;
            for (int i = 0; i < nu; i++) if (units[i][3] == beside[b][0] && units[i][4] == beside[b][1]) taken = 1;
            if (!taken) free = b;
        }
        if (gold >= 10 && free >= 0)
            at += snprintf(out + at, sizeof out - at, "%sTRAIN 1 %d %d", at ? ";" : "", beside[free][0], beside[free][1]);
#ifdef SLEEP_US
        usleep(SLEEP_US);
#endif
        fprintf(stderr, "units: %d\n", nu);
        puts(at ? out : "WAIT");
        fflush(stdout);
    }
}
