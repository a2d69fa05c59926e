"""The Python adapter kit for ``push-rummy conform`` (see ../README.md).

- ``cards``: card notation (``parse_card``, ``Card``, ``canonical``);
- ``notation``: action notation (``parse_action``, ``action_text``), melds and readings;
- ``messages``: every message, reply, event, state and observation as a dataclass, and their JSON;
- ``engine``: ``Engine``, what the loop calls, and ``Unsupported``;
- ``protocol``: the loop (``run``);
- ``relay``: the demonstration engine, the reference behind the kit's types.
"""
