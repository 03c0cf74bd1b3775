/* microRTS (the castle game) in C: the JavaScript starter's strategy (www/starter/micro-rts.js)
 * for the original protocol, with stdio. Built with one command (see bots/wasi/README.md):
 *
 *   clang --target=wasm32-wasi -O2 -o micro-rts.wasm micro-rts.c
 *
 * The castle trains up to four workers; workers harvest (what is scarcer first) and one
 * builds a barracks once there is wood; the barracks trains heavies or lights, which walk to
 * the nearest enemy; anything that can attack hits an enemy within reach. Deterministic: the
 * same input gives the same output natively and as WebAssembly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CASTLE = 0, BARRACKS = 1, WORKER = 2, LIGHT = 3, HEAVY = 4 };
enum { MINE = 2, FOREST = 3 };
#define MAX_SIDE 128
#define MAX_ENTITIES (MAX_SIDE * MAX_SIDE)

struct type { int max_hp, reach, attack, step, gold, wood; };
struct entity { int x, y, owner, type, health; };
struct tile { int x, y; };

static struct type types[6];
static int width, height;
static struct entity all[MAX_ENTITIES];
static int occupied[MAX_SIDE][MAX_SIDE]; /* an entity stands there */
static int taken[MAX_SIDE][MAX_SIDE];    /* an order of ours targets it this turn */
static char orders[1 << 17];
static int orders_len, order_count;

static int distance(int ax, int ay, int bx, int by) {
    int dx = abs(ax - bx), dy = abs(ay - by);
    return dx > dy ? dx : dy;
}

static int is_free(int x, int y) {
    return x >= 0 && y >= 0 && x < width && y < height && x < MAX_SIDE && y < MAX_SIDE &&
           !occupied[x][y] && !taken[x][y];
}

/* The first free tile within r of e, dx outer and dy inner (as the starter's around()). */
static int first_free(const struct entity *e, int r, struct tile *out) {
    for (int dx = -r; dx <= r; dx++)
        for (int dy = -r; dy <= r; dy++)
            if ((dx || dy) && is_free(e->x + dx, e->y + dy)) {
                out->x = e->x + dx;
                out->y = e->y + dy;
                return 1;
            }
    return 0;
}

/* One free step (8 directions) that brings e closer to (gx, gy); the first of the closest. */
static int step_towards(const struct entity *e, int gx, int gy, struct tile *out) {
    int best = -1;
    for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++) {
            int x = e->x + dx, y = e->y + dy;
            if (!(dx || dy) || !is_free(x, y)) continue;
            int d = distance(x, y, gx, gy);
            if (d >= distance(e->x, e->y, gx, gy)) continue;
            if (best < 0 || d < best) {
                best = d;
                out->x = x;
                out->y = y;
            }
        }
    return best >= 0;
}

static void order(const char *text) {
    if (order_count++ > 0) orders[orders_len++] = ';';
    int n = snprintf(orders + orders_len, sizeof orders - orders_len, "%s", text);
    orders_len += n;
}

static void line(char *buf, int size) {
    if (!fgets(buf, size, stdin)) exit(0);
}

int main(void) {
    static char buf[4096];
    line(buf, sizeof buf);
    sscanf(buf, "%d %d", &width, &height);
    for (int i = 0; i < 6; i++) {
        int t;
        struct type ty;
        line(buf, sizeof buf);
        sscanf(buf, "%d %d %d %d %d %d %d", &t, &ty.max_hp, &ty.reach, &ty.attack, &ty.step,
               &ty.gold, &ty.wood);
        if (t >= 0 && t < 6) types[t] = ty;
    }
    for (int turn = 1;; turn++) {
        int count, gold, wood;
        line(buf, sizeof buf);
        sscanf(buf, "%d %d %d", &count, &gold, &wood);
        memset(occupied, 0, sizeof occupied);
        memset(taken, 0, sizeof taken);
        int n = 0;
        for (int i = 0; i < count; i++) {
            struct entity e;
            line(buf, sizeof buf);
            sscanf(buf, "%d %d %d %d %d", &e.x, &e.y, &e.owner, &e.type, &e.health);
            if (n == MAX_ENTITIES || e.x < 0 || e.y < 0 || e.x >= MAX_SIDE || e.y >= MAX_SIDE)
                continue;
            all[n++] = e;
            occupied[e.x][e.y] = 1;
        }
        int workers = 0, has_barracks = 0;
        for (int i = 0; i < n; i++) {
            if (all[i].owner == 0 && all[i].type == WORKER) workers++;
            if (all[i].owner == 0 && all[i].type == BARRACKS) has_barracks = 1;
        }
        orders_len = 0;
        order_count = 0;
        orders[0] = 0;
        for (int i = 0; i < n; i++) {
            const struct entity *e = &all[i];
            if (e->owner != 0 || e->type < 0 || e->type > 5) continue;
            const struct type *t = &types[e->type];
            struct tile spot;
            char text[96];
            const struct entity *target = NULL;
            for (int j = 0; j < n && t->attack > 0 && !target; j++)
                if (all[j].owner == 1 && distance(e->x, e->y, all[j].x, all[j].y) <= t->reach)
                    target = &all[j];
            if (target) {
                snprintf(text, sizeof text, "ATTACK %d %d %d %d", e->x, e->y, target->x, target->y);
                order(text);
                continue;
            }
            if (e->type == CASTLE && workers < 4 && gold >= types[WORKER].gold) {
                if (first_free(e, t->reach, &spot)) {
                    snprintf(text, sizeof text, "TRAIN %d %d %d %d WORKER", e->x, e->y, spot.x,
                             spot.y);
                    order(text);
                    taken[spot.x][spot.y] = 1;
                    gold -= types[WORKER].gold;
                }
            } else if (e->type == BARRACKS) {
                int heavy = gold >= types[HEAVY].gold && wood >= types[HEAVY].wood;
                const struct type *cost = &types[heavy ? HEAVY : LIGHT];
                if (first_free(e, t->reach, &spot) && gold >= cost->gold && wood >= cost->wood) {
                    snprintf(text, sizeof text, "TRAIN %d %d %d %d %s", e->x, e->y, spot.x,
                             spot.y, heavy ? "HEAVY" : "LIGHT");
                    order(text);
                    taken[spot.x][spot.y] = 1;
                    gold -= cost->gold;
                    wood -= cost->wood;
                }
            } else if (e->type == WORKER) {
                if (!has_barracks && wood >= types[BARRACKS].wood && first_free(e, 1, &spot)) {
                    snprintf(text, sizeof text, "BUILD %d %d %d %d BARRACKS", e->x, e->y, spot.x,
                             spot.y);
                    order(text);
                    taken[spot.x][spot.y] = 1;
                    wood -= types[BARRACKS].wood;
                    continue;
                }
                int want = wood < gold ? FOREST : MINE;
                const struct entity *pick = NULL, *any = NULL, *nearest = NULL;
                for (int j = 0; j < n; j++) {
                    const struct entity *r = &all[j];
                    if (r->owner != -1 || (r->type != MINE && r->type != FOREST)) continue;
                    int d = distance(e->x, e->y, r->x, r->y);
                    if (!nearest || d < distance(e->x, e->y, nearest->x, nearest->y)) nearest = r;
                    if (d > t->reach) continue;
                    if (!any) any = r;
                    if (!pick && r->type == want) pick = r;
                }
                if (!pick) pick = any;
                if (pick) {
                    snprintf(text, sizeof text, "HARVEST %d %d %d %d", e->x, e->y, pick->x, pick->y);
                    order(text);
                } else if (nearest && step_towards(e, nearest->x, nearest->y, &spot)) {
                    snprintf(text, sizeof text, "MOVE %d %d %d %d", e->x, e->y, spot.x, spot.y);
                    order(text);
                    taken[spot.x][spot.y] = 1;
                }
            } else if (t->step > 0) {
                const struct entity *nearest = NULL;
                for (int j = 0; j < n; j++) {
                    if (all[j].owner != 1) continue;
                    if (!nearest || distance(e->x, e->y, all[j].x, all[j].y) <
                                        distance(e->x, e->y, nearest->x, nearest->y))
                        nearest = &all[j];
                }
                if (nearest && step_towards(e, nearest->x, nearest->y, &spot)) {
                    snprintf(text, sizeof text, "MOVE %d %d %d %d", e->x, e->y, spot.x, spot.y);
                    order(text);
                    taken[spot.x][spot.y] = 1;
                }
            }
        }
        fprintf(stderr, "turn %d: gold %d, wood %d, %d orders\n", turn, gold, wood, order_count);
        puts(order_count > 0 ? orders : "WAIT");
        fflush(stdout);
    }
}
