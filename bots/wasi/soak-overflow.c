/* Soak Overflow in C: the JavaScript starter's strategy (www/starter/soak-overflow.js) for the
 * original protocol, with stdio. Built with one command (see bots/wasi/README.md):
 *
 *   clang --target=wasm32-wasi -O2 -o soak-overflow.wasm soak-overflow.c
 *
 * Every turn each of my agents walks towards the nearest enemy until it is within its optimal
 * range, then throws a bomb at an enemy none of my agents stands next to, else shoots the
 * wettest enemy in range, else hunkers down. Deterministic: the same input gives the same
 * output natively and as WebAssembly.
 *
 * `--think N` (an argument: `soak-overflow.wasm --think 300`) adds work to every turn for the
 * benchmark (`cargo xtask wasi-bots --bench`): N rounds of shortest paths over the grid from
 * each agent, whose checksum goes to the debug log; the moves stay the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_AGENTS 64

struct agent {
    int id, player, shoot_cooldown, optimal_range, soaking_power;
    int x, y, cooldown, splash_bombs, wetness;
};

/* Class data by agent id (ids are small). */
static struct agent classes[1024];

#define MAX_SIDE 64
static int tiles[MAX_SIDE][MAX_SIDE];
static int width, height;

/* Breadth-first distances from (x, y) over floor tiles; returns their sum. */
static long long paths_from(int x, int y) {
    static int dist[MAX_SIDE][MAX_SIDE];
    static int queue[MAX_SIDE * MAX_SIDE];
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    long long sum = 0;
    if (x < 0 || y < 0 || x >= width || y >= height) return 0;
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 0;
    dist[y][x] = 0;
    queue[tail++] = y * MAX_SIDE + x;
    while (head < tail) {
        int at = queue[head++], cx = at % MAX_SIDE, cy = at / MAX_SIDE;
        sum += dist[cy][cx];
        for (int k = 0; k < 4; k++) {
            int nx = cx + dx[k], ny = cy + dy[k];
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            if (tiles[ny][nx] != 0 || dist[ny][nx] >= 0) continue;
            dist[ny][nx] = dist[cy][cx] + 1;
            queue[tail++] = ny * MAX_SIDE + nx;
        }
    }
    return sum;
}

static int distance(const struct agent *a, const struct agent *b) {
    return abs(a->x - b->x) + abs(a->y - b->y);
}

static int chebyshev(const struct agent *a, const struct agent *b) {
    int dx = abs(a->x - b->x), dy = abs(a->y - b->y);
    return dx > dy ? dx : dy;
}

/* Reads one line into buf; exits quietly at the end of input. */
static void line(char *buf, int size) {
    if (!fgets(buf, size, stdin)) exit(0);
}

int main(int argc, char **argv) {
    static char buf[1 << 16];
    int my_id, count, think = 0;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--think") == 0) think = atoi(argv[i + 1]);
    line(buf, sizeof buf);
    my_id = atoi(buf);
    line(buf, sizeof buf);
    count = atoi(buf);
    for (int i = 0; i < count; i++) {
        struct agent a;
        memset(&a, 0, sizeof a);
        line(buf, sizeof buf);
        sscanf(buf, "%d %d %d %d %d %d", &a.id, &a.player, &a.shoot_cooldown, &a.optimal_range,
               &a.soaking_power, &a.splash_bombs);
        if (a.id >= 0 && a.id < 1024) classes[a.id] = a;
    }
    line(buf, sizeof buf);
    sscanf(buf, "%d %d", &width, &height);
    for (int y = 0; y < height; y++) {
        /* "x y tileType" for every x of the row */
        char *at = fgets(buf, sizeof buf, stdin) ? buf : NULL;
        if (!at) exit(0);
        for (int x = 0; x < width; x++) {
            int tx, ty, type, used;
            if (sscanf(at, "%d %d %d%n", &tx, &ty, &type, &used) != 3) break;
            at += used;
            if (tx >= 0 && ty >= 0 && tx < MAX_SIDE && ty < MAX_SIDE) tiles[ty][tx] = type;
        }
    }
    fprintf(stderr, "I am player %d on %dx%d\n", my_id, width, height);

    for (int turn = 1;; turn++) {
        struct agent agents[MAX_AGENTS], *mine[MAX_AGENTS], *enemies[MAX_AGENTS];
        int n = 0, n_mine = 0, n_enemies = 0;
        line(buf, sizeof buf);
        count = atoi(buf);
        for (int i = 0; i < count; i++) {
            int id, x, y, cooldown, bombs, wetness;
            line(buf, sizeof buf);
            sscanf(buf, "%d %d %d %d %d %d", &id, &x, &y, &cooldown, &bombs, &wetness);
            if (n == MAX_AGENTS || id < 0 || id >= 1024) continue;
            struct agent a = classes[id];
            a.id = id, a.x = x, a.y = y, a.cooldown = cooldown, a.splash_bombs = bombs;
            a.wetness = wetness;
            agents[n++] = a;
        }
        line(buf, sizeof buf); /* my agent count: one line each */
        for (int i = 0; i < n; i++) {
            if (agents[i].player == my_id) mine[n_mine++] = &agents[i];
            else enemies[n_enemies++] = &agents[i];
        }
        if (think > 0) {
            long long checksum = 0;
            for (int r = 0; r < think; r++)
                for (int i = 0; i < n; i++) checksum += paths_from(agents[i].x, agents[i].y);
            fprintf(stderr, "turn %d: thought %d rounds, checksum %lld\n", turn, think, checksum);
        }
        for (int m = 0; m < n_mine; m++) {
            struct agent *me = mine[m];
            char out[256];
            int len = snprintf(out, sizeof out, "%d", me->id);
            struct agent *target = NULL;
            for (int e = 0; e < n_enemies; e++) {
                if (!target || distance(me, enemies[e]) < distance(me, target)) target = enemies[e];
            }
            if (target && distance(me, target) > me->optimal_range) {
                len += snprintf(out + len, sizeof out - len, ";MOVE %d %d", target->x, target->y);
            }
            struct agent *bombable = NULL, *wettest = NULL;
            for (int e = 0; e < n_enemies && !bombable; e++) {
                if (me->splash_bombs <= 0 || distance(me, enemies[e]) > 4) continue;
                int clear = 1;
                for (int k = 0; k < n_mine; k++) {
                    if (chebyshev(mine[k], enemies[e]) <= 1) clear = 0;
                }
                if (clear) bombable = enemies[e];
            }
            for (int e = 0; e < n_enemies; e++) {
                if (distance(me, enemies[e]) > 2 * me->optimal_range) continue;
                if (!wettest || enemies[e]->wetness > wettest->wetness) wettest = enemies[e];
            }
            if (bombable) {
                len += snprintf(out + len, sizeof out - len, ";THROW %d %d", bombable->x,
                                bombable->y);
            } else if (me->cooldown == 0 && wettest) {
                len += snprintf(out + len, sizeof out - len, ";SHOOT %d", wettest->id);
            } else {
                len += snprintf(out + len, sizeof out - len, ";HUNKER_DOWN");
            }
            fprintf(stderr, "turn %d agent %d at %d,%d wetness %d: %s\n", turn, me->id, me->x,
                    me->y, me->wetness, out);
            puts(out);
        }
        fflush(stdout);
    }
}
