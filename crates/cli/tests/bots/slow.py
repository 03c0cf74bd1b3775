# An Ice and Fire bot for the arena's Ctrl-C test: answers WAIT at once, until the file
# DIR/go-slow exists; from then on it sleeps a minute on its first turn (within the relaxed
# 10 s budget it is still thinking when the arena is interrupted), after writing
# DIR/sleeping-PID so the test knows which process to look for.
import os
import sys
import time

folder = sys.argv[1]
first = True
spots = int(input())
for _ in range(spots):
    input()
while True:
    input()
    input(), input(), input()
    rows = [input() for _ in range(12)]
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()
    if first and os.path.exists(os.path.join(folder, "go-slow")):
        open(os.path.join(folder, "sleeping-%d" % os.getpid()), "w").close()
        time.sleep(60)
    first = False
    print("WAIT")
