"""The protocol's messages as typed values, and their JSON (conformance/README.md, "The protocol").

Every card is a ``Card``, every action an ``Action``, every meld text a ``MeldSpec`` and every
reading a ``Reading`` (``state``) or a ``DescribedReading`` (``observe``): ``decode`` reads them
through the notation code and ``encode`` writes them back through it. Field names are the JSON
keys (``from_`` is ``from``). A field marked ``omit()`` is left out of the JSON when it is None
(an optional key: ``events`` of an engine that does not report them, ``buying`` where the rules
have none); a plain ``X | None`` field is written as ``null``.
"""

import dataclasses
import functools
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, TypeVar, Union, cast

from .cards import Card, NotationError, card_text, parse_card
from .notation import (
    Action,
    DescribedReading,
    MeldSpec,
    Reading,
    action_text,
    described_reading_text,
    meld_text,
    parse_action,
    parse_described_reading,
    parse_meld,
    parse_reading,
    reading_text,
)

# The newest protocol version the kit speaks (it speaks 1 too).
PROTOCOL = 2
# The longest line either side may send, in bytes, without the newline.
MAX_LINE = 1 << 20
# What an engine may declare it reports in its protocol-2 hello (`reports`).
CAPABILITIES = ("reason-codes", "events", "readings", "legal", "observe", "rescue-wild")


class ProtocolError(Exception):
    """A message that cannot be understood: answered with an ``error`` reply."""


def omit() -> Any:
    """An optional key: None leaves it out of the JSON."""
    return field(default=None, metadata={"omit": True})


def key(name: str) -> Any:
    """A field whose JSON key is not its name (``from``)."""
    return field(metadata={"json": name})


# ------------------------------------------------------------------ harness → implementation


@dataclass
class Hello:
    protocol: int


@dataclass
class Rules:
    """The resolved rules: ``values`` maps every rule path to its value text (``"decks.jokers": "4"``)."""

    game: str
    name: str
    fingerprint: str
    values: dict[str, str]


@dataclass
class StartMeld:
    """A table meld of a start position: ``meld`` in the action notation, and the readings it keeps."""

    owner: int
    meld: MeldSpec
    cards: list[Card]
    readings: list[Reading] | None = omit()


@dataclass
class Position:
    turn: int
    stage: str  # draw, play or buy
    taken: Card | None
    hands: list[list[Card]]
    stock: list[Card]  # top card first
    discard: list[Card]  # top card first
    table: list[StartMeld]
    contract_met: list[int]
    # Only where the rules allow buying: buys made this hand per seat, and the open buy window.
    buys: list[int] | None = omit()
    window: int | None = None
    has_buying: bool = field(default=False, metadata={"skip": True})


@dataclass
class Start:
    protocol: int
    rules: Rules
    players: int
    dealer: int
    round: int  # from 1
    scores: list[list[int]]
    generator: int  # the SplitMix64 state (decimal text in the JSON)
    decks: list[list[Card]]
    position: Position


@dataclass
class Apply:
    seat: int
    action: Action


@dataclass
class StateRequest:
    pass


@dataclass
class Observe:
    seat: int


@dataclass
class Legal:
    pass


@dataclass
class End:
    pass


Message = Union[Hello, Start, Apply, StateRequest, Observe, Legal, End]
MESSAGE_TYPES: dict[str, type] = {
    "hello": Hello,
    "start": Start,
    "apply": Apply,
    "state": StateRequest,
    "observe": Observe,
    "legal": Legal,
    "end": End,
}

# ------------------------------------------------------------------ events


@dataclass
class Dealt:
    round: int
    dealer: int
    first: int


@dataclass
class UpcardBuried:
    card: Card


@dataclass
class Upcard:
    card: Card


@dataclass
class TookDiscard:
    seat: int
    card: Card


@dataclass
class Pushed:
    seat: int
    to: int
    discard: Card | None
    stock: list[Card]
    face_up: bool


@dataclass
class Drew:
    seat: int
    card: Card


@dataclass
class Reshuffled:
    cards: int  # how many cards were reshuffled


@dataclass
class Melded:
    seat: int
    meld: int
    cards: list[Card]  # canonical order
    contract: bool


@dataclass
class LaidOff:
    seat: int
    meld: int
    cards: list[Card]  # in the order the action gave them
    joined: int | None


@dataclass
class Rescued:
    seat: int
    meld: int
    natural: Card
    wild: Card


@dataclass
class Discarded:
    seat: int
    card: Card


@dataclass
class Bought:
    seat: int
    card: Card
    stock: list[Card]


@dataclass
class Passed:
    seat: int


@dataclass
class TurnEnded:
    seat: int


@dataclass
class WentOut:
    seat: int


@dataclass
class HandEnded:
    reason: str  # `seat S went out`, `the stock ran out`, `N turns in a row without …`
    points: list[int]  # per side
    totals: list[int]


@dataclass
class GameEnded:
    winners: list[int]  # sides
    totals: list[int]


Event = Union[
    Dealt,
    UpcardBuried,
    Upcard,
    TookDiscard,
    Pushed,
    Drew,
    Reshuffled,
    Melded,
    LaidOff,
    Rescued,
    Discarded,
    Bought,
    Passed,
    TurnEnded,
    WentOut,
    HandEnded,
    GameEnded,
]
EVENT_TYPES: dict[str, type] = {
    "dealt": Dealt,
    "upcard-buried": UpcardBuried,
    "upcard": Upcard,
    "took-discard": TookDiscard,
    "pushed": Pushed,
    "drew": Drew,
    "reshuffled": Reshuffled,
    "melded": Melded,
    "laid-off": LaidOff,
    "rescued": Rescued,
    "discarded": Discarded,
    "bought": Bought,
    "passed": Passed,
    "turn-ended": TurnEnded,
    "went-out": WentOut,
    "hand-ended": HandEnded,
    "game-ended": GameEnded,
}

# ------------------------------------------------------------------ state and observation


@dataclass
class TableMeld:
    owner: int
    cards: list[Card]  # canonical order
    readings: list[Reading] | None = omit()  # every reading still open


@dataclass
class Stock:
    count: int
    top: Card | None


@dataclass
class Contract:
    met: bool
    filled: list[bool]  # which contract melds are down, in contract order


@dataclass
class Buying:
    window: int | None  # the player on turn while a buy window is open
    buys: list[int]  # buys made this hand, per seat


@dataclass
class State:
    round: int
    dealer: int
    turn: int
    stage: str  # draw, play, buy or over
    taken: Card | None
    hands: list[list[Card]]  # canonical order
    table: list[TableMeld]
    stock: Stock
    discard: list[Card]  # top card first
    contract: list[Contract]
    totals: list[int]  # per side
    buying: Buying | None = omit()  # only where the rules allow buying


@dataclass
class ObservedMeld:
    owner: int
    cards: list[Card]
    readings: list[DescribedReading] | None = omit()


@dataclass
class LastPush:
    from_: int = key("from")
    to: int = 0
    stock: list[Card] | None = None


@dataclass
class ObservedBuying:
    window: int | None
    buys_left: list[int | None]  # None: unlimited


@dataclass
class Observation:
    seat: int
    round: int
    dealer: int
    turn: int
    stage: str
    hand: list[Card]
    hand_sizes: list[int]
    stock_size: int
    discard_top: Card | None
    discard_size: int
    table: list[ObservedMeld]
    contract_done: list[bool]
    totals: list[int]
    last_push: LastPush | None
    buying: ObservedBuying | None = omit()


# ------------------------------------------------------------------ replies


@dataclass
class HelloReply:
    protocol: int
    name: str
    reports: list[str] | None = omit()  # protocol 2: what the engine reports (CAPABILITIES)


@dataclass
class Ok:
    events: list[Event] | None = field(default_factory=list, metadata={"omit": True})


@dataclass
class Rejected:
    message: str
    reason: str | None = omit()  # a reason code (conformance/README.md, "Reason codes")


@dataclass
class StateReply:
    state: State


@dataclass
class ObservationReply:
    observation: Observation


@dataclass
class LegalReply:
    actions: list[Action]


@dataclass
class UnsupportedReply:
    reason: str


@dataclass
class ErrorReply:
    message: str


@dataclass
class Bye:
    pass


Reply = Union[
    HelloReply, Ok, Rejected, StateReply, ObservationReply, LegalReply, UnsupportedReply, ErrorReply, Bye
]
REPLY_TYPES: dict[str, type] = {
    "hello": HelloReply,
    "ok": Ok,
    "rejected": Rejected,
    "state": StateReply,
    "observation": ObservationReply,
    "legal": LegalReply,
    "unsupported": UnsupportedReply,
    "error": ErrorReply,
    "bye": Bye,
}

# ------------------------------------------------------------------ the codec

# Values written as text in the JSON: (read, write).
_TEXT: dict[Any, tuple[Any, Any]] = {
    Card: (parse_card, card_text),
    MeldSpec: (parse_meld, meld_text),
    Reading: (parse_reading, reading_text),
    DescribedReading: (parse_described_reading, described_reading_text),
}


class _Bad(Exception):
    """A value that does not decode: the path to it (innermost last) and what is wrong."""

    def __init__(self, what: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(what)
        self.what = what
        self.path = path

    def within(self, part: str) -> "_Bad":
        return _Bad(self.what, (part, *self.path))

    def error(self) -> ProtocolError:
        where = "".join(p if p.startswith("[") else f".{p}" for p in self.path).lstrip(".")
        return ProtocolError(f"`{where}`: {self.what}" if where else self.what)


def _is_union_of(tp: Any, alias: Any) -> bool:
    return tp is alias or (
        typing.get_origin(tp) is Union and set(typing.get_args(tp)) == set(typing.get_args(alias))
    )


@functools.cache
def _decoder(tp: Any) -> Callable[[Any], Any]:
    """How to read a JSON value of type ``tp`` (built once per type)."""
    if _is_union_of(tp, Action):

        def action(v: Any) -> Any:
            if not isinstance(v, str):
                raise _Bad("expected an action as text")
            try:
                return parse_action(v)
            except NotationError as e:
                raise _Bad(str(e)) from None

        return action
    if _is_union_of(tp, Event):

        def event(v: Any) -> Any:
            if not isinstance(v, dict) or not isinstance(v.get("event"), str):
                raise _Bad("expected an event object with `event`")
            cls = EVENT_TYPES.get(v["event"])
            if cls is None:
                raise _Bad(f"unknown event `{v['event']}`")
            return _decoder(cls)(v)

        return event
    if tp in _TEXT:
        read = _TEXT[tp][0]
        name = tp.__name__

        def text(v: Any) -> Any:
            if not isinstance(v, str):
                raise _Bad(f"expected {name} as text")
            try:
                return read(v)
            except NotationError as e:
                raise _Bad(str(e)) from None

        return text
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        rest = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"no decoder for {tp}")
        inner = _decoder(rest[0])
        return lambda v: None if v is None else inner(v)
    if origin is list:
        item = _decoder(typing.get_args(tp)[0])

        def many(v: Any) -> Any:
            if not isinstance(v, list):
                raise _Bad("expected a list")
            out = []
            for i, x in enumerate(v):
                try:
                    out.append(item(x))
                except _Bad as e:
                    raise e.within(f"[{i}]") from None
            return out

        return many
    if origin is dict:

        def texts(v: Any) -> Any:
            if not isinstance(v, dict) or not all(isinstance(x, str) for x in v.values()):
                raise _Bad("expected a map of texts")
            return dict(v)

        return texts
    if tp is bool:

        def boolean(v: Any) -> Any:
            if not isinstance(v, bool):
                raise _Bad("expected true or false")
            return v

        return boolean
    if tp is int:

        def integer(v: Any) -> Any:
            if isinstance(v, bool) or not isinstance(v, int):
                raise _Bad("expected an integer")
            return v

        return integer
    if tp is str:

        def string(v: Any) -> Any:
            if not isinstance(v, str):
                raise _Bad("expected a string")
            return v

        return string
    if dataclasses.is_dataclass(tp):
        return _object_decoder(tp)
    raise TypeError(f"no decoder for {tp}")


def _object_decoder(cls: Any) -> Callable[[Any], Any]:
    hints = typing.get_type_hints(cls, globals())
    fields = []
    for f in dataclasses.fields(cls):
        if f.metadata.get("skip"):
            continue
        optional = bool(f.metadata.get("omit")) or type(None) in typing.get_args(hints[f.name])
        fields.append((f.name, f.metadata.get("json", f.name), optional, hints[f.name]))

    # The fields' decoders, looked up at the first use (a type may contain itself).
    resolved: list[tuple[str, str, bool, Callable[[Any], Any]]] = []

    def obj(v: Any) -> Any:
        if not isinstance(v, dict):
            raise _Bad("expected an object")
        if not resolved and fields:
            resolved.extend((n, k, o, _decoder(t)) for n, k, o, t in fields)
        args: dict[str, Any] = {}
        for name, key_, optional, dec in resolved:
            if key_ not in v:
                if optional:
                    args[name] = None
                    continue
                raise _Bad("missing", (key_,))
            try:
                args[name] = dec(v[key_])
            except _Bad as e:
                raise e.within(key_) from None
        return cls(**args)

    return obj


@functools.cache
def _encoder(tp: Any) -> Callable[[Any], Any]:
    """How to write a value of type ``tp`` as JSON (built once per type)."""
    if _is_union_of(tp, Action):
        return lambda v: None if v is None else action_text(v)
    if _is_union_of(tp, Event):
        names = {c: k for k, c in EVENT_TYPES.items()}
        return lambda v: {"event": names[type(v)], **_encoder(cast(Any, type(v)))(v)}
    if tp in _TEXT:
        write = _TEXT[tp][1]
        return lambda v: None if v is None else write(v)
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        rest = [a for a in typing.get_args(tp) if a is not type(None)]
        inner = _encoder(rest[0])
        return lambda v: None if v is None else inner(v)
    if origin is list:
        item = _encoder(typing.get_args(tp)[0])
        return lambda v: [item(x) for x in v]
    if origin is dict:
        return dict
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp, globals())
        fields = [
            (f.name, f.metadata.get("json", f.name), bool(f.metadata.get("omit")), hints[f.name])
            for f in dataclasses.fields(tp)
            if not f.metadata.get("skip")
        ]

        # The fields' encoders, looked up at the first use (a type may contain itself).
        resolved: list[tuple[str, str, bool, Callable[[Any], Any]]] = []

        def obj(v: Any) -> Any:
            if not resolved and fields:
                resolved.extend((n, k, o, _encoder(t)) for n, k, o, t in fields)
            out = {}
            for name, key_, omitted, enc in resolved:
                x = getattr(v, name)
                if x is None and omitted:
                    continue
                out[key_] = enc(x)
            return out

        return obj
    return lambda v: v


T = TypeVar("T")


def _decode_object(cls: type[T], v: Any) -> T:
    try:
        return cast(T, _decoder(cast(Any, cls))(v))
    except _Bad as e:
        raise e.error() from None


def _encode_object(v: Any) -> dict[str, Any]:
    return cast(dict[str, Any], _encoder(cast(Any, type(v)))(v))


# ------------------------------------------------------------------ messages as JSON objects


def decode_message(obj: Any) -> Message:
    """A message from the harness (a parsed JSON object) as a typed value; raises ProtocolError."""
    if not isinstance(obj, dict):
        raise ProtocolError("a message is a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("`type`: missing (every message has a type)")
    cls = MESSAGE_TYPES.get(kind)
    if cls is None:
        raise ProtocolError(
            f"`type`: unknown message type `{kind}` (hello, start, apply, state, observe, legal, end)"
        )
    if cls is Start:
        return _decode_start(obj)
    return cast(Message, _decode_object(cls, obj))


def _decode_start(obj: dict[str, Any]) -> Start:
    generator = obj.get("generator")
    if isinstance(generator, str) and re.fullmatch("[0-9]+", generator) and int(generator) < 1 << 64:
        generator = int(generator)
    elif generator is None:
        generator = 0
    elif not (isinstance(generator, int) and not isinstance(generator, bool)):
        raise ProtocolError("`generator`: expected a 64-bit unsigned integer as decimal text")
    start = _decode_object(Start, {**obj, "generator": generator})
    p = obj.get("position", {})
    start.position.has_buying = "buys" in p or "window" in p
    return start


def encode_message(msg: Message) -> dict[str, Any]:
    """A typed message as its JSON object."""
    name = next(k for k, c in MESSAGE_TYPES.items() if type(msg) is c)
    out = {"type": name, **_encode_object(msg)}
    if isinstance(msg, Start):
        out["generator"] = str(msg.generator)
        pos = out["position"]
        if not msg.position.has_buying:
            pos.pop("buys", None)
            pos.pop("window", None)
        else:
            pos["buys"] = msg.position.buys or []
            pos["window"] = msg.position.window
    return out


def decode_reply(obj: Any) -> Reply:
    """A reply (a parsed JSON object) as a typed value; raises ProtocolError."""
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise ProtocolError("a reply is a JSON object with a `type`")
    cls = REPLY_TYPES.get(obj["type"])
    if cls is None:
        raise ProtocolError(f"`type`: unknown reply type `{obj['type']}`")
    return cast(Reply, _decode_object(cls, obj))


def encode_reply(reply: Reply) -> dict[str, Any]:
    """A typed reply as its JSON object."""
    name = next(k for k, c in REPLY_TYPES.items() if type(reply) is c)
    return {"type": name, **_encode_object(reply)}
