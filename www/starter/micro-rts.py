# microRTS: starter bot (Python).
#
# The referee writes lines to your standard input; read them with input().
# Answer with exactly ONE line per turn: orders separated by ";" (or WAIT).
#   TRAIN X Y tX tY TYPE   a castle (WORKER) or barracks (LIGHT, HEAVY, RANGED) trains at (tX, tY)
#   BUILD X Y tX tY TYPE   a worker builds a CASTLE or BARRACKS at (tX, tY)
#   MOVE X Y tX tY         a unit moves (at most its step: 1, or 2 for a LIGHT)
#   ATTACK X Y tX tY       attack an enemy entity within reach
#   HARVEST X Y tX tY      a worker takes 1 gold (mine) or 1 wood (forest) within reach
# (X, Y) is the entity giving the order; units have no ids. Distances count all 8 directions.
#
# Be strict, as the referee is: a malformed order ELIMINATES you. That includes a space after
# ";", lower-case type names, attacking a tile with no enemy on it now, harvesting a resource
# that is gone, or moving further than the unit's step. An order that is fine but cannot run
# (tile taken, not enough gold) just fails. Give each entity at most one order per turn:
# extra orders are queued and run on later turns with stale coordinates.
# print(..., file=sys.stderr) writes to your debug log; it is shown beside each turn.
import sys
from collections import namedtuple

Kind = namedtuple("Kind", "max_hp reach attack step gold wood")
Entity = namedtuple("Entity", "x y owner kind health")

# Once, at the start: the arena size and the six entity types.
width, height = map(int, input().split())
types = {}
for _ in range(6):
    kind, max_hp, reach, attack, step, gold, wood = map(int, input().split())
    types[kind] = Kind(max_hp, reach, attack, step, gold, wood)
CASTLE, BARRACKS, WORKER, LIGHT, HEAVY = 0, 1, 2, 3, 4
MINE, FOREST = 2, 3


def distance(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def around(e, r):
    """The tiles within r of e (8 directions), e's own tile excluded."""
    return [
        (e[0] + dx, e[1] + dy)
        for dx in range(-r, r + 1)
        for dy in range(-r, r + 1)
        if dx or dy
    ]


def nearest(e, targets):
    return min(targets, key=lambda t: distance(e, t), default=None)


while True:
    # Every turn: the entity count and both players' gold and wood ...
    count, gold, wood = map(int, input().split()[:3])
    # ... then one line per non-empty tile (walls too): x y owner type health,
    # owner -1 neutral (type 1 wall, 2 gold mine, 3 forest), 0 you, 1 the enemy.
    everything = [Entity(*map(int, input().split())) for _ in range(count)]
    at = {(e.x, e.y) for e in everything}
    taken = set()  # tiles our orders already target this turn

    def free(x, y):
        return 0 <= x < width and 0 <= y < height and (x, y) not in at and (x, y) not in taken

    def first_free(tiles):
        return next((p for p in tiles if free(*p)), None)

    def step_towards(e, goal):
        """One step (8 directions) onto a free tile that brings e closer to goal."""
        options = [p for p in around(e, 1) if free(*p) and distance(p, goal) < distance(e, goal)]
        return min(options, key=lambda p: distance(p, goal), default=None)

    mine = [e for e in everything if e.owner == 0]
    enemies = [e for e in everything if e.owner == 1]
    resources = [e for e in everything if e.owner == -1 and e.kind in (MINE, FOREST)]
    workers = [e for e in mine if e.kind == WORKER]
    orders = []

    for e in mine:
        t = types[e.kind]
        # Anything that can attack hits an enemy within reach.
        target = None
        if t.attack > 0:
            target = next((x for x in enemies if distance(e, x) <= t.reach), None)
        if target:
            orders.append(f"ATTACK {e.x} {e.y} {target.x} {target.y}")
            continue
        if e.kind == CASTLE and len(workers) < 4 and gold >= types[WORKER].gold:
            spot = first_free(around(e, t.reach))
            if spot:
                orders.append(f"TRAIN {e.x} {e.y} {spot[0]} {spot[1]} WORKER")
                taken.add(spot)
                gold -= types[WORKER].gold
        elif e.kind == BARRACKS:
            heavy = gold >= types[HEAVY].gold and wood >= types[HEAVY].wood
            name = "HEAVY" if heavy else "LIGHT"
            cost = types[HEAVY if heavy else LIGHT]
            spot = first_free(around(e, t.reach))
            if spot and gold >= cost.gold and wood >= cost.wood:
                orders.append(f"TRAIN {e.x} {e.y} {spot[0]} {spot[1]} {name}")
                taken.add(spot)
                gold -= cost.gold
                wood -= cost.wood
        elif e.kind == WORKER:
            # One worker builds a barracks once there is wood for it.
            has_barracks = any(b.kind == BARRACKS for b in mine)
            site = first_free(around(e, 1))
            if not has_barracks and wood >= types[BARRACKS].wood and site:
                orders.append(f"BUILD {e.x} {e.y} {site[0]} {site[1]} BARRACKS")
                taken.add(site)
                wood -= types[BARRACKS].wood
                continue
            # Harvest what is scarcer if it is next to us, else anything next to us, else walk.
            near = [r for r in resources if distance(e, r) <= t.reach]
            want = FOREST if wood < gold else MINE
            pick = next((r for r in near if r.kind == want), near[0] if near else None)
            if pick:
                orders.append(f"HARVEST {e.x} {e.y} {pick.x} {pick.y}")
            elif resources:
                to = step_towards(e, nearest(e, resources))
                if to:
                    orders.append(f"MOVE {e.x} {e.y} {to[0]} {to[1]}")
                    taken.add(to)
        elif t.step > 0 and enemies:
            # Soldiers walk towards the nearest enemy.
            to = step_towards(e, nearest(e, enemies))
            if to:
                orders.append(f"MOVE {e.x} {e.y} {to[0]} {to[1]}")
                taken.add(to)

    print(f"gold {gold}, wood {wood}, {len(orders)} orders", file=sys.stderr)
    # Exactly one line per turn.
    print(";".join(orders) if orders else "WAIT")
