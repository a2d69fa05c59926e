"""The protocol loop: JSON lines on stdin, one reply line per message on stdout, flushed.

What it answers itself, as ``push-rummy serve`` does: a line that is not JSON, too long (over
``MAX_LINE`` bytes), not an object, without a ``type`` or of an unknown type, a message before
``hello``, a game message before ``start``, a field missing or of the wrong type, an action or a
card that does not read: an ``error`` reply, and the loop carries on. ``end`` gets ``bye`` and
ends the loop, as does the end of the input.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from .engine import Engine, Unsupported
from .messages import (
    MAX_LINE,
    Apply,
    Bye,
    End,
    ErrorReply,
    Hello,
    Legal,
    LegalReply,
    Observe,
    ObservationReply,
    Ok,
    ProtocolError,
    Rejected,
    Reply,
    Start,
    StateReply,
    StateRequest,
    UnsupportedReply,
    decode_message,
    encode_message,
    encode_reply,
)


class _TooLong(bytes):
    pass


# What ``read_line`` returns for a line over the limit (compare with ``is``).
TOO_LONG = _TooLong(b"")


def read_line(stream: IO[bytes], limit: int = MAX_LINE) -> bytes | None:
    """One line without its newline; None at the end of input. A line longer than ``limit``
    bytes is skipped to its end and reported as ``TOO_LONG``."""
    line = stream.readline(limit + 2)
    if not line:
        return None
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        return TOO_LONG if len(line) > limit else line
    if len(line) <= limit:
        return line  # the last line, without a newline
    while True:  # skip the rest of the long line
        rest = stream.readline(1 << 16)
        if not rest or rest.endswith(b"\n"):
            return TOO_LONG


def handle(engine: Engine, obj: Any, session: dict[str, bool], strict: bool = False) -> Reply:
    """One message (a parsed JSON value) and its reply. ``strict``: the message must write back
    from its types to exactly ``obj`` (the kit's self-test)."""
    if isinstance(obj, dict) and obj.get("type") in ("rules", "query"):
        # Single questions (conformance/README.md, Questions) are not in the kit: answer them
        # here if your engine can, or leave them unsupported.
        raise Unsupported("single questions are not implemented (only games)")
    msg = decode_message(obj)
    if strict and (again := encode_message(msg)) != obj:
        raise ProtocolError(
            f"the kit does not write back what it read: {json.dumps(obj)[:300]} became "
            f"{json.dumps(again)[:300]}"
        )
    if isinstance(msg, End):
        engine.end()
        return Bye()
    if isinstance(msg, Hello):
        reply = engine.hello(msg.protocol)
        session["hello"] = True
        return reply
    if not session.get("hello"):
        raise ProtocolError("the first message must be `hello`")
    if isinstance(msg, Start):
        engine.start(msg)
        session["started"] = True
        return Ok([])
    if not session.get("started"):
        raise ProtocolError("no game: send `start` first")
    if isinstance(msg, Apply):
        result = engine.apply(msg.seat, msg.action)
        if not isinstance(result, (Ok, Rejected)):
            raise TypeError(f"Engine.apply returned {result!r}, not Ok or Rejected")
        return result
    if isinstance(msg, StateRequest):
        return StateReply(engine.state())
    if isinstance(msg, Observe):
        return ObservationReply(engine.observe(msg.seat))
    if isinstance(msg, Legal):
        return LegalReply(engine.legal())
    raise ProtocolError(f"unexpected message {msg!r}")


def _text(reply: Reply) -> bytes:
    return json.dumps(encode_reply(reply), ensure_ascii=False, separators=(",", ":")).encode()


def run(
    engine: Engine,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    strict: bool = False,
) -> None:
    """Serves the protocol until ``end`` or the end of input (``strict``: see ``handle``)."""
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    session: dict[str, bool] = {}
    while True:
        line = read_line(inp)
        if line is None:
            engine.end()
            return
        reply: Reply
        if line is TOO_LONG:
            reply = ErrorReply(f"the line is longer than {MAX_LINE} bytes")
        elif not line.strip():
            continue
        else:
            try:
                reply = handle(engine, json.loads(line.decode("utf-8", "replace")), session, strict)
            except json.JSONDecodeError as e:
                reply = ErrorReply(f"not JSON: {e}")
            except ProtocolError as e:
                reply = ErrorReply(str(e)[:2000])
            except Unsupported as e:
                reply = UnsupportedReply(e.reason)
            except Exception as e:  # a bug in the engine: say so, on stderr in full
                import traceback

                traceback.print_exc(file=sys.stderr)
                reply = ErrorReply(f"the engine failed: {type(e).__name__}: {e}"[:2000])
        text = _text(reply)
        if len(text) > MAX_LINE:
            text = _text(ErrorReply(f"the reply would be longer than {MAX_LINE} bytes: not sent"))
        out.write(text + b"\n")
        out.flush()
        if isinstance(reply, Bye):
            return
