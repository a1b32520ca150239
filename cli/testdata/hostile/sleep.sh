#!/bin/sh
# Sleeps forever.
exec sleep infinity
