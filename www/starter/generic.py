# Starter bot (Python).
#
# Read the referee's lines with input(); write your answer with print(...);
# debug with print(..., file=sys.stderr). See the game's rules for the protocol.
import sys

while True:
    line = input()
    print("read:", line, file=sys.stderr)
    print("WAIT")
