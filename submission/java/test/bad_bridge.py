"""A deliberately broken bridge for the shim's tests: `illegal` answers every decision with
something the rules forbid; `dies` exits after the hello; `slow` never answers a discard; `slow-once` sleeps through the first discard of its first process
only (a marker file in the temp folder tells a restarted process it has slept); `slow-once-logged` does
the same, takes a second to start when restarted, and prints each decision's time_left to stderr;
`slow-start` takes 2 s to load before it reads its hello (as a bot that compiles its kernels does)."""

import json
import os
import sys
import tempfile
import time

mode = sys.argv[1]
marker = os.path.join(tempfile.gettempdir(), f"bad_bridge_slept_{os.getppid()}")
restarted = os.path.exists(marker)
if mode == "slow-once-logged" and restarted:
    time.sleep(1.0)  # a restarted bot's start-up (imports, models) is the bot's time too
if mode == "slow-start":
    time.sleep(2.0)
for line in sys.stdin:
    msg = json.loads(line)
    reply = None
    kind = msg["type"]
    if mode == "slow-once-logged" and kind in ("will_draw_face_up", "get_discard", "get_melds"):
        print(f"DECISION {'restarted' if restarted else 'first'} {kind} time_left={msg.get('time_left')}",
              file=sys.stderr, flush=True)
    if kind == "hello":
        reply = {"type": "hello", "protocol": 1, "bot": "bad-" + mode, "params": {}}
        if mode == "dies":
            print(json.dumps({**reply, "id": msg.get("id")}), flush=True)
            sys.exit(3)
    elif kind == "will_draw_face_up":
        reply = {"type": "reply", "take": "maybe"}
    elif kind == "get_discard":
        if mode == "slow":
            time.sleep(60)
        if mode in ("slow-once", "slow-once-logged"):
            if not os.path.exists(marker):
                open(marker, "w").close()
                time.sleep(60)
        reply = {"type": "reply", "card": 99}
    elif kind == "get_melds":
        reply = {"type": "reply", "melds": [[0, 1, 5]]}
    if reply is not None:
        reply["id"] = msg.get("id")
        print(json.dumps(reply), flush=True)
