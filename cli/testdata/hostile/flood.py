# Floods its output.
import sys
while True:
    sys.stdout.write("x" * 1000 + "\n")
