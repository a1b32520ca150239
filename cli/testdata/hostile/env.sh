#!/bin/sh
# Prints its environment, then plays.
env
exec ./fakeclass -game sixes
