"""YOUR ENGINE HERE.

This is the one file to fill in: make ``MyEngine`` call your engine. The protocol loop
(``push_kit/protocol.py``) has already checked each message and read it into typed values
(``push_kit/messages.py``: cards are ``Card``, actions ``Action``, …); what you return is written
back as JSON. Raise ``Unsupported("why")`` for what your engine does not implement: the harness
reports that scenario as skipped instead of failed.

Run the suite against it: ``push-rummy conform --impl 'python3 conformance/adapters/python/adapter.py'``.
"""

from __future__ import annotations

from push_kit.engine import Engine, Unsupported
from push_kit.messages import Observation, Ok, Rejected, Start, State
from push_kit.notation import Action


class MyEngine(Engine):
    name = "my-engine"
    # What your engine reports (protocol 2); the harness compares only these. Drop "legal" and
    # "observe" unless you implement those methods, "events" if your engine has no events, …
    reports = ["reason-codes", "events", "readings", "legal", "observe", "rescue-wild"]

    def start(self, msg: Start) -> None:
        # msg.rules.values: every rule as text ("decks.jokers": "4", "rounds": "6:set of 3,…");
        # msg.position: hands, stock and discard (top first), table melds, turn, stage, …
        raise Unsupported("MyEngine is not written yet: see conformance/adapters/python/my_engine.py")

    def apply(self, seat: int, action: Action) -> Ok | Rejected:
        # Ok([Drew(seat=1, card=parse_card("9H")), …]) or Rejected("why", reason="must-discard").
        raise Unsupported("apply")

    def state(self) -> State:
        raise Unsupported("state")

    def observe(self, seat: int) -> Observation:
        raise Unsupported("observe")

    def legal(self) -> list[Action]:
        raise Unsupported("legal")
