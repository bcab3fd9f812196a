"""A program bot that breaks the line protocol, in the way its deal's seed picks (its seed
material is "bot:SEED:SEAT"): one misbehaviour per seed, at its first decision."""

import json
import os
import sys

WAYS = ["not-json", "no-line-end", "huge-line", "out-of-range", "illegal", "chatty",
        "closed", "exits", "no-action", "bad-ack", "two-lines"]


def main():
    way = "fine"
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "start":
            seed = int(bytes.fromhex(msg["seed"]).decode().split(":")[1])
            way = WAYS[seed] if seed < len(WAYS) else "fine"
            if way == "bad-ack":
                print("[1]", flush=True)
                continue
        elif msg["type"] == "act":
            out = sys.stdout
            if way == "not-json":
                out.write("hello, arena\n")
            elif way == "no-line-end":
                out.write('{"index": 0}')
                out.flush()
                os.close(1)
                sys.exit(0)
            elif way == "huge-line":
                out.write("7" * (2 << 20))
            elif way == "out-of-range":
                out.write(json.dumps({"index": len(msg["legal"]) + 5}) + "\n")
            elif way == "illegal":
                out.write(json.dumps({"action": -1}) + "\n")
            elif way == "chatty":
                sys.stderr.write("noise " * 200_000 + "\n")
                sys.stderr.flush()
                out.write("0\n")
            elif way == "closed":
                os.close(1)
                sys.stdin.readline()
            elif way == "exits":
                sys.exit(3)
            elif way == "two-lines":
                out.write('debugging: thinking\n{"index": 0}\n')
            elif way == "no-action":
                out.write('{"pass": true}\n')
            else:
                out.write('{"index": 0}\n')
            out.flush()
            continue
        print('{"ok": true}', flush=True)


main()
