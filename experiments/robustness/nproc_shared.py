"""Does a plain user's RLIMIT_NPROC hold one bot's tasks, or all of the user's?

Run as a user that is not root (root is not held by RLIMIT_NPROC), with bubblewrap installed:
``python experiments/robustness/nproc_shared.py [--json OUT]``. A bot is started in bubblewrap with a limit
of the user's tasks now plus 20 (as ``ginbots.connect.confine`` set it before 2026-12-07, with 256); 40 other
processes of the same user (not the bot's) are then started, and the bot tries 5 forks."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

from ginbots.connect.confine import _user_tasks

CHILD = """import os, time
time.sleep(2)
made = 0
for _ in range(5):
    try:
        pid = os.fork()
    except OSError as exc:
        print("refused", exc.errno, flush=True)
        break
    if pid == 0:
        time.sleep(1)
        os._exit(0)
    made += 1
print("made", made, flush=True)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json")
    args = parser.parse_args()
    if os.geteuid() == 0:
        sys.exit("run this as a user that is not root: the kernel does not hold root to RLIMIT_NPROC")
    limit = _user_tasks() + 20

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))

    bot = subprocess.Popen(["bwrap", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-pid", "--",
                            sys.executable, "-c", CHILD], preexec_fn=cap, stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)
    others = [subprocess.Popen(["sleep", "5"]) for _ in range(40)]
    tasks = _user_tasks()
    out = bot.communicate(timeout=30)[0].split()
    for other in others:
        other.kill()
    result = {"limit": limit, "user_tasks_when_the_bot_forked": tasks,
              "bot_forks_made": int(out[out.index("made") + 1]), "bot_fork_refused": "refused" in out}
    print(json.dumps(result))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
