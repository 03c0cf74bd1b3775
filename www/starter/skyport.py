# Skyport: starter bot (Python).
#
# The server talks JSON, one object per line: read each with input() and json.loads, and
# answer with print(json.dumps(...)), one object per line. print(..., file=sys.stderr) writes
# to your debug log.
#
# The conversation:
#   1. {"message":"info",...}           -> answer the handshake:
#      {"message":"connect","revision":1,"name":"NAME"}   (3-16 chars of a-z A-Z 0-9 - _ +)
#   2. {"message":"connect","status":true}
#   3. {"message":"gamestate","turn":0,"players":[{"name":...}],"map":{...}}
#                                        -> answer your two (different) weapons:
#      {"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}
#      (laser, mortar or droid; rubidium upgrades the laser, explosium the mortar, scrap the droid)
#   4. Every turn everyone gets {"message":"gamestate","turn":T,"players":[...],"map":{...}}.
#      The players are listed from the one whose turn it is. Your own player object is the only
#      one with "resources", so it is YOUR turn when players[0] has "resources".
#      Then write up to three actions (each line one action); with fewer than three, end the
#      turn with {"message":"endturn"}. A valid shot ends your turn's effects at once.
#        {"message":"action","type":"move","direction":"down"}
#        {"message":"action","type":"mine"}                      (on an R, E or C tile)
#        {"message":"action","type":"upgrade","weapon":"laser"}  (4, then 5 resources)
#        {"message":"action","type":"laser","direction":"right-up"}
#        {"message":"action","type":"mortar","coordinates":"1,-2"}  (relative j,k)
#        {"message":"action","type":"droid","sequence":["down","down","left-down"]}
#      Directions: up, down, left-up, left-down, right-up, right-down.
#   5. After each turn: {"message":"endturn"}, then every valid action with its "from".
#      Invalid actions are answered with {"error":"..."} (some fail silently).
#   6. At the end: {"message":"endactions","winner":NAME}.
#
# Positions are "j,k": J grows down-left, K down-right; map.data[j][k] is the tile:
# G grass, E explosium, R rubidium, C scrap (walkable); V void, S spawn, O rock (not walkable).
import json
import sys

DIRS = {
    "up": (-1, -1), "down": (1, 1), "left-down": (1, 0),
    "right-down": (0, 1), "left-up": (0, -1), "right-up": (-1, 0),
}


def pos(text):
    j, k = text.split(",")
    return int(j), int(k)


def dist(a, b):
    dj, dk = a[0] - b[0], a[1] - b[1]
    return max(abs(dj), abs(dk), abs(dj - dk))


def send(obj):
    print(json.dumps(obj))


def play_turn(state):
    data = state["map"]["data"]
    size = len(data)
    me = state["players"][0]
    foes = [p for p in state["players"][1:] if p["health"] > 0]
    taken = {pos(p["position"]) for p in state["players"]}

    def tile(p):
        j, k = p
        return data[j][k] if 0 <= j < size and 0 <= k < size else "V"

    def walkable(p):
        return tile(p) in "GERC" and p not in taken

    foe_cells = {pos(f["position"]) for f in foes}

    # A laser direction if a foe stands in a straight line within range (5), no rock between.
    def laser_at(start):
        for name, (dj, dk) in DIRS.items():
            p = start
            for _ in range(5):
                p = (p[0] + dj, p[1] + dk)
                if tile(p) == "O" or not (0 <= p[0] < size and 0 <= p[1] < size):
                    break
                if p in foe_cells and tile(p) != "S":
                    return name
        return None

    here = pos(me["position"])
    target = min(foe_cells, key=lambda f: dist(here, f), default=None)
    actions = []
    while len(actions) < 3:
        on_spawn = tile(here) == "S"
        direction = None if on_spawn else laser_at(here)
        if direction:
            actions.append({"message": "action", "type": "laser", "direction": direction})
            break  # a shot ends the turn
        if target and not on_spawn and dist(here, target) <= 2 and tile(target) != "S":
            coordinates = f"{target[0] - here[0]},{target[1] - here[1]}"
            actions.append({"message": "action", "type": "mortar", "coordinates": coordinates})
            break
        # Otherwise step towards the nearest foe (or off the spawn), or mine where we stand.
        steps = [(name, (here[0] + dj, here[1] + dk)) for name, (dj, dk) in DIRS.items()]
        steps = [(name, p) for name, p in steps if walkable(p)]
        if target:
            steps.sort(key=lambda step: dist(step[1], target))
        if not on_spawn and tile(here) in "ERC" and len(actions) == 2:
            actions.append({"message": "action", "type": "mine"})
        elif steps and (not target or dist(steps[0][1], target) >= 2):
            actions.append({"message": "action", "type": "move", "direction": steps[0][0]})
            here = steps[0][1]
        else:
            break
    for action in actions:
        send(action)
    if len(actions) < 3:
        send({"message": "endturn"})
    print(f"turn {state['turn']}: {len(actions)} actions", file=sys.stderr)


while True:
    try:
        msg = json.loads(input())
    except EOFError:
        break
    if msg.get("message") == "info":
        send({"message": "connect", "revision": 1, "name": "starter"})
    elif msg.get("message") == "gamestate" and msg["turn"] == 0:
        send({"message": "loadout", "primary-weapon": "laser", "secondary-weapon": "mortar"})
    elif msg.get("message") == "gamestate" and "resources" in msg["players"][0]:
        play_turn(msg)
    # Everything else (connect status, endturn, other players' actions, errors): nothing to do.
