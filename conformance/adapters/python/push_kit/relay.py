"""A demonstration engine: the reference, ``push-rummy serve``, behind the kit's typed layer.

Every message the loop hands it (already read into the kit's types) is written back to JSON from
those types and sent to ``push-rummy serve``; every reply is read into the kit's types, checked
to write back to exactly the JSON it came as, and returned to the loop, which writes it again.
So every card, action, meld and reading of the conformance suite goes through the kit's notation
code both ways, and the kit passes the suite only if it reads and writes all of them right. It
is how the kit itself is tested (tests/integration/adapters.rs); it is not an engine to copy.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any, TypeVar

from .engine import Engine, Unsupported
from .messages import (
    Apply,
    End,
    ErrorReply,
    Hello,
    HelloReply,
    Legal,
    LegalReply,
    Message,
    Observation,
    ObservationReply,
    Observe,
    Ok,
    ProtocolError,
    Rejected,
    Reply,
    Start,
    State,
    StateReply,
    StateRequest,
    UnsupportedReply,
    decode_reply,
    encode_message,
    encode_reply,
)
from .notation import Action


R = TypeVar("R")


class RelayEngine(Engine):
    def __init__(self, push_rummy: str) -> None:
        self.child: subprocess.Popen[bytes] | None = subprocess.Popen(
            [push_rummy, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def ask(self, msg: Message) -> Reply:
        """Sends ``msg`` (written from its types) to the reference; its reply, read into types."""
        child = self.child
        if child is None or child.stdin is None or child.stdout is None:
            raise ProtocolError("the reference has ended")
        text = json.dumps(encode_message(msg), ensure_ascii=False, separators=(",", ":"))
        child.stdin.write(text.encode() + b"\n")
        child.stdin.flush()
        line = child.stdout.readline()
        if not line:
            raise ProtocolError("the reference closed its output")
        raw: Any = json.loads(line)
        reply = decode_reply(raw)
        again = encode_reply(reply)
        if again != raw:
            raise ProtocolError(
                f"the kit does not write back what it read: {json.dumps(raw)[:300]} became "
                f"{json.dumps(again)[:300]}"
            )
        if isinstance(reply, UnsupportedReply):
            raise Unsupported(reply.reason)
        if isinstance(reply, ErrorReply):
            raise ProtocolError(f"the reference: {reply.message}")
        return reply

    def expect(self, msg: Message, cls: type[R]) -> R:
        reply = self.ask(msg)
        if not isinstance(reply, cls):
            raise ProtocolError(f"the reference answered {reply!r}, not {cls.__name__}")
        return reply

    def hello(self, protocol: int) -> HelloReply:
        reply = self.expect(Hello(protocol), HelloReply)
        reply.name = f"{reply.name} through the Python kit"
        return reply

    def start(self, msg: Start) -> None:
        self.expect(msg, Ok)

    def apply(self, seat: int, action: Action) -> Ok | Rejected:
        reply = self.ask(Apply(seat, action))
        if not isinstance(reply, (Ok, Rejected)):
            raise ProtocolError(f"the reference answered {reply!r} to apply")
        return reply

    def state(self) -> State:
        return self.expect(StateRequest(), StateReply).state

    def observe(self, seat: int) -> Observation:
        return self.expect(Observe(seat), ObservationReply).observation

    def legal(self) -> list[Action]:
        return self.expect(Legal(), LegalReply).actions

    def end(self) -> None:
        child, self.child = self.child, None
        if child is None:
            return
        try:
            if child.stdin is not None:
                child.stdin.write(json.dumps(encode_message(End())).encode() + b"\n")
                child.stdin.close()
            child.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            child.kill()
