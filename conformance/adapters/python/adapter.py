#!/usr/bin/env python3
"""Puts an engine under ``push-rummy conform``: the protocol on stdin/stdout.

    python3 adapter.py                        # your engine: MyEngine in my_engine.py
    python3 adapter.py --relay [--push-rummy PATH]
                                              # the demonstration: the reference through the kit

``--relay`` runs ``push-rummy serve`` (PATH, else $PUSH_RUMMY, else ``push-rummy`` on the PATH)
behind the kit's typed layer, each message read into the kit's types and written back from them,
and checks that each one writes back to exactly what came in.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from push_kit import protocol  # noqa: E402


USAGE = "usage: adapter.py [--relay [--push-rummy PATH]]"


def main() -> None:
    args = sys.argv[1:]
    relay = "--relay" in args
    binary = os.environ.get("PUSH_RUMMY") or "push-rummy"
    if "--push-rummy" in args:
        at = args.index("--push-rummy")
        if at + 1 >= len(args):
            sys.exit(USAGE)
        binary = args.pop(at + 1)
        args.remove("--push-rummy")
    if any(a != "--relay" for a in args):
        sys.exit(f"{USAGE}\n{__doc__}")
    if relay:
        from push_kit.relay import RelayEngine

        try:
            engine = RelayEngine(binary)
        except OSError as e:
            sys.exit(f"cannot run {binary} serve: {e} (give the binary with --push-rummy PATH)")
        protocol.run(engine, strict=True)
    else:
        from my_engine import MyEngine

        protocol.run(MyEngine())


if __name__ == "__main__":
    main()
