# A Code of Ice & Fire: starter bot (Python).
#
# The referee writes lines to your standard input; read them with input().
# Answer with exactly ONE line per turn: commands separated by ";" (or WAIT).
#   MOVE id x y      move a unit one cell towards (x, y)
#   TRAIN level x y  train a unit (level 1 costs 10 gold) on or next to your territory
#   BUILD MINE x y   (later leagues) build a mine on a mine spot you own
# print(..., file=sys.stderr) writes to your debug log; it is shown beside each turn.
import sys

SIZE = 12

# Once, at the start: the mine spots.
mine_spot_count = int(input())
for _ in range(mine_spot_count):
    input()  # "x y" of a mine spot (not used by this bot)


def near(x, y):
    return [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]


def inside(x, y):
    return 0 <= x < SIZE and 0 <= y < SIZE


while True:
    # Every turn: gold and income (yours, then your opponent's) ...
    gold = int(input())
    income = int(input())
    input()  # opponent's gold
    input()  # opponent's income
    # ... the map, one row per line: # void, . neutral, O/o yours (active/inactive), X/x theirs ...
    rows = [input() for _ in range(SIZE)]
    # ... the buildings: owner (0 = you, 1 = opponent), type (0 HQ, 1 MINE, 2 TOWER), x, y ...
    buildings = [tuple(map(int, input().split())) for _ in range(int(input()))]
    # ... and the units: owner, id, level, x, y.
    units = [tuple(map(int, input().split())) for _ in range(int(input()))]

    enemy_hq = next((x, y) for owner, kind, x, y in buildings if owner == 1 and kind == 0)
    busy = {(x, y) for _, _, x, y in buildings} | {(x, y) for *_, x, y in units}
    commands = []

    # 1. Every unit walks towards the enemy HQ (the referee finds the way).
    for owner, unit_id, level, x, y in units:
        if owner == 0:
            commands.append(f"MOVE {unit_id} {enemy_hq[0]} {enemy_hq[1]}")

    # 2. Train level-1 units on free cells next to our active territory, closest to the
    #    enemy HQ first, while we can pay for them and keep a positive income.
    spots = []
    for y in range(SIZE):
        for x in range(SIZE):
            cell = rows[y][x]
            if cell in "#O" or (x, y) in busy:
                continue
            if any(inside(nx, ny) and rows[ny][nx] == "O" for nx, ny in near(x, y)):
                spots.append((x, y))
    spots.sort(key=lambda p: abs(p[0] - enemy_hq[0]) + abs(p[1] - enemy_hq[1]))
    upkeep = 0
    for x, y in spots:
        if gold < 10 or income - upkeep < 0:
            break
        commands.append(f"TRAIN 1 {x} {y}")
        gold -= 10
        upkeep += 1

    print(f"gold {gold}, income {income}, {len(commands)} commands", file=sys.stderr)
    # Exactly one line per turn.
    print(";".join(commands) if commands else "WAIT")
