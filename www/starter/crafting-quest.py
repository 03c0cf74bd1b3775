# Crafting Quest 3: starter bot (Python).
#
# Every message is ONE line of JSON. Read lines with input(), write with print(json.dumps(...)),
# debug with print(..., file=sys.stderr) (shown beside each turn).
#
# At the start of your turn you receive your player state:
#   {"type":"turn","round":1,"rounds":70,"player":0,"size":50,"home":[5,5],"gold":200,
#    "blueprints":{"sword":1,...},"units":[UNIT, ...], ...}
# A UNIT: {"id":0,"x":3,"y":3,"energy":200,"life":200,"resources":{"iron":10},"objects":[...],
#          "weight":10,"move_cost":120,"dig":null,"sight":SIGHT, ...}
# A SIGHT is the 11 x 11 square around the unit: {"x":0,"y":0,"rows":["..i..", ...],
#   "piles":[...],"towers":[...],"units":[...]}; "x","y" is the top-left cell of "rows", one
#   character per cell: '#' rock, '.' grass, a letter for the resource buried there (w wood,
#   s stone, l leather, b bronze, i iron, t titanium, g gold), '*' several.
#
# Then you send requests, one per line, and read the answer to each at once:
#   {"unit":0,"type":"move","to":[4,4]}              20 energy + 10 per carried weight
#   {"unit":0,"type":"dig"}                          10: the answer's unit.dig has the quantities
#   {"unit":0,"type":"pickup","resources":{"iron":40}}  5: 1 point per 10 units dug up
#   {"unit":0,"type":"drop","resources":{"iron":40}}    free
#   {"unit":0,"type":"craft","blueprint":{"kind":"sword","level":1}}  iron 10, stone 4, wood 4
#   {"unit":0,"type":"equip","item":{"kind":"sword","level":1}}
#   {"unit":0,"type":"attack","target":{"player":1,"unit":13},"energy":120}
#   {"unit":0,"type":"prepare","energy":40,"threshold":40}   retaliation settings
#   ... and placeTower, placeTrap, research, view, state (see the rules).
# Answer: {"type":"result","result":"NoError","reason":"...","gold":200,"unit":UNIT, ...}
# Finally end your turn with {"type":"end"} (not answered). At most 1000 requests, 1000 ms.
import json
import sys

LETTERS = "wslbitg"
WANDER = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def ask(request):
    """Sends one request and returns the answer."""
    print(json.dumps(request))
    return json.loads(input())


def cell_at(sight, x, y):
    """The character of cell (x, y) in a sight, or None outside it."""
    row, col = y - sight["y"], x - sight["x"]
    if 0 <= row < len(sight["rows"]) and 0 <= col < len(sight["rows"][row]):
        return sight["rows"][row][col]
    return None


def buried(c):
    return c is not None and (c in LETTERS or c == "*")


def gather(unit):
    """Digs the unit's cell, picks up everything buried there and drops it again (the points
    are scored when resources come out of the ground; carrying them makes every step dearer)."""
    if not buried(cell_at(unit["sight"], unit["x"], unit["y"])) or unit["energy"] < 15:
        return unit
    unit = ask({"unit": unit["id"], "type": "dig"})["unit"]
    found = unit["dig"]["resources"] if unit.get("dig") else {}
    if not found:
        return unit
    unit = ask({"unit": unit["id"], "type": "pickup", "resources": found})["unit"]
    if unit["resources"]:
        unit = ask({"unit": unit["id"], "type": "drop", "resources": unit["resources"]})["unit"]
    return unit


def nearest_resource(unit):
    """The nearest cell in sight with something buried (not the unit's own cell)."""
    sight = unit["sight"]
    best = None
    for dy, row in enumerate(sight["rows"]):
        for dx, c in enumerate(row):
            x, y = sight["x"] + dx, sight["y"] + dy
            d = max(abs(x - unit["x"]), abs(y - unit["y"]))
            if d > 0 and buried(c) and (best is None or d < best[2]):
                best = (x, y, d)
    return best


def sign(n):
    return (n > 0) - (n < 0)


while True:
    try:
        state = json.loads(input())
    except EOFError:
        break
    moves = 0
    for unit in state["units"]:
        unit = gather(unit)
        # Walk towards resources (or anywhere) while energy lasts, gathering on the way.
        for _ in range(4):
            if unit["energy"] < unit["move_cost"] + 15:
                break
            target = nearest_resource(unit)
            if target:
                dx, dy = sign(target[0] - unit["x"]), sign(target[1] - unit["y"])
            else:  # nothing in sight: wander, each unit its own way, changing every round
                dx, dy = WANDER[(unit["id"] + state["round"]) % len(WANDER)]
            if dx == 0 and dy == 0:
                break
            answer = ask({"unit": unit["id"], "type": "move", "to": [unit["x"] + dx, unit["y"] + dy]})
            moves += 1
            if answer["result"] != "NoError":
                break  # rock, a tower, the edge of the map...
            unit = gather(answer["unit"])
    print(f"round {state['round']}: score {state.get('score')}, {moves} moves", file=sys.stderr)
    print(json.dumps({"type": "end"}))
