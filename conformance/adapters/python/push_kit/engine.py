"""The interface between the protocol loop and an engine: subclass ``Engine``.

The loop (``protocol.run``) reads each message, checks it, turns it into typed values and calls
one method here; what the method returns becomes the reply. Raise ``Unsupported(reason)`` for a
rule, reading or action the engine does not implement (the harness then skips the scenario) and
``ProtocolError(message)`` for a message it cannot understand (an ``error`` reply).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .messages import (
    CAPABILITIES,
    Event,
    HelloReply,
    Observation,
    Ok,
    ProtocolError,
    Rejected,
    Start,
    State,
)
from .notation import Action


class Unsupported(Exception):
    """The engine does not implement this rule, reading or action: an ``unsupported`` reply."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Engine(ABC):
    """An engine under ``push-rummy conform``. One instance serves one run of the program, that is
    one scenario (or one random game): ``start`` comes once, after ``hello``."""

    #: The name the engine gives in its ``hello`` reply.
    name: str = "my-engine"
    #: What the engine reports (protocol 2): the harness compares only these, and hands, stock,
    #: discard pile, table cards and totals whatever is listed. Every one of ``CAPABILITIES``
    #: by default; leave out what your engine does not do (``legal``, ``observe``, ``events`` …).
    reports: list[str] = list(CAPABILITIES)

    def hello(self, protocol: int) -> HelloReply:
        """The ``hello`` reply to an offer of ``protocol``: 2 with ``reports`` where offered."""
        if protocol >= 2:
            return HelloReply(2, self.name, list(self.reports))
        if protocol == 1:
            return HelloReply(1, self.name)
        raise ProtocolError(f"`protocol`: this engine speaks protocol 1 or 2, not {protocol}")

    @abstractmethod
    def start(self, msg: Start) -> None:
        """Set up the game at ``msg.position`` under ``msg.rules`` (raise Unsupported for rules
        you do not implement)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> Ok | Rejected:
        """Play ``action`` for ``seat``: ``Ok(events)``, or ``Rejected(message, reason)`` with a
        reason code, leaving the game unchanged."""

    @abstractmethod
    def state(self) -> State:
        """The whole state, as the transcript writes it."""

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may see. Optional: leave ``observe`` out of ``reports``."""
        raise Unsupported("observations are not implemented")

    def legal(self) -> list[Action]:
        """The legal actions of the seat to play (no new melds, no multi-card lay-offs).
        Optional: leave ``legal`` out of ``reports``."""
        raise Unsupported("legal-action lists are not implemented")

    def end(self) -> None:
        """The run ends: release what the engine holds."""


__all__ = ["Engine", "Unsupported", "ProtocolError", "Event", "Ok", "Rejected"]
