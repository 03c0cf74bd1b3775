# Soak Overflow: starter bot (Python).
#
# The referee writes lines to your standard input; read them with input().
# Every turn, answer with exactly ONE line PER AGENT you still have (fewer lines = you lose).
# A line is "agentId;ACTION;ACTION...", at most one move and one combat action per agent:
#   MOVE x y       step one tile along the shortest path towards (x, y)
#   SHOOT id       soak agent id (needs cooldown 0; full power up to optimalRange, half up
#                  to twice that range; cover and hunkering reduce it)
#   THROW x y      splash bomb at (x, y), at most 4 tiles away: 30 wetness to everyone in the
#                  3x3 around it, your own agents too!
#   HUNKER_DOWN    take 25% less from shots this turn (WAIT means the same)
#   MESSAGE text   show text above the agent in the viewer
# Anything else (a typo, an empty line, an id that is not yours) loses the game at once.
# print(..., file=sys.stderr) writes to your debug log; it is shown beside each turn.
import sys

# Once, at the start: my player id, every agent's class, and the grid.
my_id = int(input())
agent_data_count = int(input())
classes = {}  # id -> player, shoot_cooldown, optimal_range, soaking_power, splash_bombs
for _ in range(agent_data_count):
    agent_id, player, shoot_cooldown, optimal_range, soaking_power, splash_bombs = map(int, input().split())
    classes[agent_id] = {
        "player": player,
        "shoot_cooldown": shoot_cooldown,
        "optimal_range": optimal_range,
        "soaking_power": soaking_power,
        "splash_bombs": splash_bombs,
    }
width, height = map(int, input().split())
# One line per row: "x y tileType" for every x of that row (0 floor, 1 low cover, 2 high cover).
tiles = []
for _ in range(height):
    numbers = list(map(int, input().split()))
    tiles.append(numbers[2::3])


def distance(a, b):
    return abs(a["x"] - b["x"]) + abs(a["y"] - b["y"])


while True:
    # Every turn: the agents on the grid ...
    agent_count = int(input())
    agents = []
    for _ in range(agent_count):
        agent_id, x, y, cooldown, splash_bombs, wetness = map(int, input().split())
        # The class first: its splash_bombs is the starting count; this turn's count wins.
        agent = dict(classes[agent_id])
        agent.update({"id": agent_id, "x": x, "y": y, "cooldown": cooldown,
                      "splash_bombs": splash_bombs, "wetness": wetness})
        agents.append(agent)
    # ... and how many of them are mine (that many lines to write).
    my_agent_count = int(input())
    mine = [a for a in agents if a["player"] == my_id]
    enemies = [a for a in agents if a["player"] != my_id]

    for me in mine:
        actions = []
        # The nearest enemy: walk towards it until it is within my optimal range.
        target = min(enemies, key=lambda e: distance(me, e), default=None)
        if target and distance(me, target) > me["optimal_range"]:
            actions.append(f"MOVE {target['x']} {target['y']}")
        # Combat: a bomb on an enemy with none of my agents near it, else shoot the wettest enemy
        # in range, else hunker down.
        bombable = next(
            (
                e
                for e in enemies
                if me["splash_bombs"] > 0
                and distance(me, e) <= 4
                and all(max(abs(m["x"] - e["x"]), abs(m["y"] - e["y"])) > 1 for m in mine)
            ),
            None,
        )
        in_range = [e for e in enemies if distance(me, e) <= 2 * me["optimal_range"]]
        in_range.sort(key=lambda e: -e["wetness"])
        if bombable:
            actions.append(f"THROW {bombable['x']} {bombable['y']}")
        elif me["cooldown"] == 0 and in_range:
            actions.append(f"SHOOT {in_range[0]['id']}")
        else:
            actions.append("HUNKER_DOWN")
        print(f"agent {me['id']} at {me['x']},{me['y']} wetness {me['wetness']}: {', '.join(actions)}", file=sys.stderr)
        # Exactly one line for this agent.
        print(f"{me['id']};{';'.join(actions)}")
