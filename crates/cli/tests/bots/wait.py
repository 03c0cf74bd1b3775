# A CodinGame-style Ice and Fire bot in Python: reads the whole protocol, answers WAIT.
import sys

spots = int(input())
for _ in range(spots):
    input()
while True:
    gold = int(input())
    income, opp_gold, opp_income = int(input()), int(input()), int(input())
    rows = [input() for _ in range(12)]
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()
    print("debug: gold", gold, file=sys.stderr)
    print("WAIT")
