# Asks the Redis server on the host's loopback for a key, then plays.
import os, socket
try:
    s = socket.create_connection(("127.0.0.1", int(os.environ["REDIS_PORT"])), timeout=3)
    s.sendall(b"GET gallery-secret\r\n")
    print("redis said", s.recv(1000))
except OSError as e:
    print("no redis:", e)
os.execv("./fakeclass", ["./fakeclass", "-game", "sixes"])
