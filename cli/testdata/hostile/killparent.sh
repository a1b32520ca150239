#!/bin/sh
# Kills its parent (and tries the first process it can see), then plays.
kill -9 $PPID 1 2>&1
exec ./fakeclass -game sixes
