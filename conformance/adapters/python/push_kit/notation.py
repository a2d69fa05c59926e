"""The action notation of the protocol, and the two ways a meld's reading is written.

Actions (``apply``'s ``action``, ``legal``'s ``actions``)::

    take-discard | push | draw-stock | end-turn | discard 9H | buy | pass
    meld set [7S 7H JK JK=7] run [9H 10H JK JK=JH QH]
    lay-off 0 [9H]            lay-off 0 [JK JK=10H] join 2
    rescue 1 8S for JK then lay-off 0 [JK JK=JS]

Keywords and cards in any case; commas may separate cards. Inside brackets ``CARD=TARGET`` says
what one copy of a wild card (a joker or a 2) stands for: a card (``JK=10H``) or a rank
(``JK=7``). The canonical form lists the wild plainly, then its declaration (``[7S 7H JK JK=7]``);
a declaration of a card not listed plainly often enough adds the card (``[7S 7H JK=7]`` is the
same three cards). ``action_text`` writes the canonical form.

Readings: in ``state`` (and ``start``'s table melds) a meld's reading lists every card's role,
``set 7: JK=7 7S 7H`` or ``run H 4-7: 4H 2C=5H 6H 7H`` (``*`` for a run of any suits); in
``observe`` it is in words, ``set of 7s`` or ``run 4♥–7♥``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, Union

from .cards import (
    SUIT_SYMBOLS,
    SUITS,
    Card,
    NotationError,
    parse_card,
    parse_rank,
    parse_suit,
    rank_name,
)

MeldKind = Literal["set", "run"]


@dataclass(frozen=True)
class RankTarget:
    """A wild declared as a rank only (``JK=7``)."""

    rank: int

    def __str__(self) -> str:
        return rank_name(self.rank)


# What a wild stands for: one exact card (``JK=10H``) or a rank (``JK=7``).
Target = Union[Card, RankTarget]


def parse_target(text: str) -> Target:
    rank = parse_rank(text.strip())
    if rank is not None:
        return RankTarget(rank)
    return parse_card(text)


def target_text(target: Target) -> str:
    return str(target)


@dataclass(frozen=True)
class Declaration:
    """One copy of ``card`` (a wild) stands for ``target``."""

    card: Card
    target: Target

    def __str__(self) -> str:
        return f"{self.card}={self.target}"


@dataclass
class MeldSpec:
    """A meld as a player puts it down: its cards, optionally its kind, the wilds' declarations."""

    cards: list[Card]
    kind: MeldKind | None = None
    declared: list[Declaration] = field(default_factory=list)


# ------------------------------------------------------------------------- actions


@dataclass
class TakeDiscard:
    pass


@dataclass
class Push:
    pass


@dataclass
class DrawStock:
    pass


@dataclass
class EndTurn:
    pass


@dataclass
class Buy:
    pass


@dataclass
class Pass:
    pass


@dataclass
class Discard:
    card: Card


@dataclass
class Meld:
    melds: list[MeldSpec]


@dataclass
class LayOff:
    """Cards laid off onto table meld ``meld`` (from 0); ``join``: the run joined to it."""

    meld: int
    cards: list[Card]
    declared: list[Declaration] = field(default_factory=list)
    join: int | None = None


@dataclass
class Rescue:
    """The natural card replaces the wild in table meld ``meld``; ``then`` uses the wild."""

    meld: int
    natural: Card
    wild: Card
    then: Meld | LayOff | None = None


Action = Union[TakeDiscard, Push, DrawStock, EndTurn, Buy, Pass, Discard, Meld, LayOff, Rescue]

_PLAIN: dict[str, type[TakeDiscard | Push | DrawStock | EndTurn | Buy | Pass]] = {
    "take-discard": TakeDiscard,
    "push": Push,
    "draw-stock": DrawStock,
    "end-turn": EndTurn,
    "buy": Buy,
    "pass": Pass,
}


def _bracket_text(cards: list[Card], declared: list[Declaration]) -> str:
    return "[" + " ".join([str(c) for c in cards] + [str(d) for d in declared]) + "]"


def meld_text(spec: MeldSpec) -> str:
    """``set [7S 7H JK JK=7]``, ``[9H 10H JK]``."""
    kind = f"{spec.kind} " if spec.kind else ""
    return kind + _bracket_text(spec.cards, spec.declared)


def action_text(action: Action) -> str:
    """The canonical one-line text of an action."""
    for word, cls in _PLAIN.items():
        if type(action) is cls:
            return word
    if isinstance(action, Discard):
        return f"discard {action.card}"
    if isinstance(action, Meld):
        return "meld " + " ".join(meld_text(m) for m in action.melds)
    if isinstance(action, LayOff):
        text = f"lay-off {action.meld} " + _bracket_text(action.cards, action.declared)
        return text if action.join is None else f"{text} join {action.join}"
    if isinstance(action, Rescue):
        text = f"rescue {action.meld} {action.natural} for {action.wild}"
        return text if action.then is None else f"{text} then {action_text(action.then)}"
    raise TypeError(f"not an action: {action!r}")


class _Reader:
    def __init__(self, text: str) -> None:
        # Brackets are words of their own; whitespace and commas separate words.
        self.toks = [t for t in re.split(r"[\s,]+|(\[|\])", text) if t]
        self.at = 0

    def peek(self) -> str | None:
        return self.toks[self.at] if self.at < len(self.toks) else None

    def keyword(self) -> str | None:
        t = self.peek()
        return None if t is None else t.lower()

    def next(self, what: str) -> str:
        t = self.peek()
        if t is None:
            raise NotationError(f"the action ends where {what} was expected")
        self.at += 1
        return t

    def number(self, what: str) -> int:
        t = self.next(what)
        if not re.fullmatch(r"\+?[0-9]+", t) or int(t) >= 1_000_000:
            raise NotationError(f"`{t}` is not {what} (a meld number from 0)")
        return int(t)

    def card(self, what: str) -> Card:
        return parse_card(self.next(what))

    def bracket(self) -> tuple[list[Card], list[Declaration]]:
        t = self.next("`[`")
        if t != "[":
            raise NotationError(f"expected `[` before the cards, found `{t}`")
        items: list[tuple[Card, Target | None]] = []
        while True:
            t = self.next("`]`")
            if t == "]":
                break
            if t == "[":
                raise NotationError("a `[` inside brackets: close the list of cards with `]` first")
            if "=" in t:
                c, target_text_ = t.split("=", 1)
                try:
                    card = parse_card(c)
                except NotationError as e:
                    raise NotationError(f"in the declaration `{t}`: {e}") from None
                if not (card.is_joker or card.is_two):
                    raise NotationError(
                        f"`{t}`: only a wild card (a joker or a 2) can be declared to stand for another card"
                    )
                try:
                    items.append((card, parse_target(target_text_)))
                except NotationError as e:
                    raise NotationError(f"in the declaration `{t}`: {e}") from None
            else:
                items.append((parse_card(t), None))
        # A declaration adds its card only when the card is not listed plainly often enough.
        cards: list[Card] = []
        declared: list[Declaration] = []
        for i, (card, meant) in enumerate(items):
            if meant is None:
                cards.append(card)
                continue
            declared.append(Declaration(card, meant))
            plain = sum(1 for c, tg in items if c == card and tg is None)
            so_far = sum(1 for c, tg in items[: i + 1] if c == card and tg is not None)
            if so_far > plain:
                cards.append(card)
        if not cards:
            raise NotationError("no cards between `[` and `]`")
        return cards, declared

    def meld_specs(self) -> list[MeldSpec]:
        specs: list[MeldSpec] = []
        while (k := self.keyword()) is not None:
            if k in ("set", "run"):
                self.at += 1
                kind: MeldKind | None = "set" if k == "set" else "run"
            elif k == "[":
                kind = None
            else:
                break
            cards, declared = self.bracket()
            specs.append(MeldSpec(cards, kind, declared))
        if not specs:
            raise NotationError(
                "`meld` needs at least one meld: `meld [7S 7H 7D]` or `meld set [7S 7H JK JK=7]`"
            )
        return specs

    def lay_off(self) -> LayOff:
        meld = self.number("the meld to lay off on")
        cards, declared = self.bracket()
        join = None
        if self.keyword() == "join":
            self.at += 1
            join = self.number("the run to join")
        return LayOff(meld, cards, declared, join)

    def action(self, nested: bool) -> Action:
        word = self.next("an action")
        w = word.lower()
        if w == "meld":
            return Meld(self.meld_specs())
        if w == "lay-off":
            return self.lay_off()
        if nested:
            raise NotationError(f"after `then` comes a `meld …` or a `lay-off …`, not `{word}`")
        if w in _PLAIN:
            return _PLAIN[w]()
        if w == "discard":
            return Discard(self.card("the card to discard"))
        if w == "rescue":
            meld = self.number("the meld holding the wild")
            natural = self.card("the natural card")
            f = self.next("`for`")
            if f.lower() != "for":
                raise NotationError(
                    f"expected `for` after the natural card, found `{f}` (write `rescue 1 8S for JK`)"
                )
            wild = self.card("the wild card")
            then: Meld | LayOff | None = None
            if self.keyword() == "then":
                self.at += 1
                nested_action = self.action(True)
                assert isinstance(nested_action, (Meld, LayOff))
                then = nested_action
            return Rescue(meld, natural, wild, then)
        raise NotationError(
            f"unknown action `{word}`: the actions are take-discard, push, draw-stock, meld, "
            "lay-off, rescue, discard, end-turn, buy, pass"
        )


def parse_action(text: str) -> Action:
    """Reads one action (any case, any spacing); raises NotationError saying what is wrong."""
    r = _Reader(text)
    action = r.action(False)
    if (t := r.peek()) is not None:
        raise NotationError(f"unexpected `{t}` after the action `{action_text(action)}`")
    return action


def parse_meld(text: str) -> MeldSpec:
    """Reads one meld: ``set [7S 7H JK JK=7]``, ``[9H 10H JK]``."""
    r = _Reader(text)
    specs = r.meld_specs()
    if (t := r.peek()) is not None:
        raise NotationError(f"unexpected `{t}` after the meld")
    if len(specs) != 1:
        raise NotationError(f"one meld was expected, found {len(specs)}")
    return specs[0]


# ------------------------------------------------------------------------- readings


@dataclass
class Role:
    """One card of a meld and, for a wild, what it stands for (None: the card is natural)."""

    card: Card
    stands_for: Target | None = None

    def __str__(self) -> str:
        return str(self.card) if self.stands_for is None else f"{self.card}={self.stands_for}"


@dataclass
class Reading:
    """A reading as ``state`` writes it: ``set 7: JK=7 7S 7H``, ``run H 4-7: 4H 2C=5H 6H 7H``.

    A set has ``rank``; a run has ``suit`` (None: a run of any suits, ``*``), ``low`` and
    ``high``. None where the text has ``?``. ``roles`` in the meld's order.
    """

    kind: MeldKind
    roles: list[Role]
    rank: int | None = None
    suit: str | None = None
    low: int | None = None
    high: int | None = None


def _rank_or_unknown(text: str, what: str) -> int | None:
    if text == "?":
        return None
    rank = parse_rank(text)
    if rank is None:
        raise NotationError(f"`{text}` is not a rank ({what})")
    return rank


def _name_or_unknown(rank: int | None) -> str:
    return "?" if rank is None else rank_name(rank)


def parse_reading(text: str) -> Reading:
    head, sep, roles_text = text.partition(":")
    if not sep:
        raise NotationError(f"`{text}` is not a reading (`set 7: 7S 7H 7D`, `run H 4-6: 4H 5H 6H`)")
    roles = []
    for word in roles_text.split():
        card, eq, target = word.partition("=")
        roles.append(Role(parse_card(card), parse_target(target) if eq else None))
    words = head.split()
    if len(words) == 2 and words[0] == "set":
        return Reading("set", roles, rank=_rank_or_unknown(words[1], "the set's rank"))
    if len(words) == 3 and words[0] == "run" and "-" in words[2]:
        suit = None if words[1] == "*" else parse_suit(words[1])
        if suit is None and words[1] != "*":
            raise NotationError(f"`{words[1]}` is not a suit or `*` in the reading `{text}`")
        low, high = words[2].split("-", 1)
        return Reading(
            "run",
            roles,
            suit=suit,
            low=_rank_or_unknown(low, "the run's lowest"),
            high=_rank_or_unknown(high, "the run's highest"),
        )
    raise NotationError(f"`{text}` is not a reading (`set 7: 7S 7H 7D`, `run H 4-6: 4H 5H 6H`)")


def reading_text(r: Reading) -> str:
    roles = " ".join(str(x) for x in r.roles)
    if r.kind == "set":
        return f"set {_name_or_unknown(r.rank)}: {roles}"
    suit = "*" if r.suit is None else r.suit
    return f"run {suit} {_name_or_unknown(r.low)}-{_name_or_unknown(r.high)}: {roles}"


@dataclass
class DescribedReading:
    """A reading as ``observe`` writes it: ``set of 7s``, ``run 4♥–7♥``, ``run 4–7`` (any suits)."""

    kind: MeldKind
    rank: int | None = None
    suit: str | None = None
    low: int | None = None
    high: int | None = None


def parse_described_reading(text: str) -> DescribedReading:
    m = re.fullmatch(r"set of (\S+)s", text)
    if m:
        return DescribedReading("set", rank=_rank_or_unknown(m.group(1), "the set's rank"))
    m = re.fullmatch(r"run (\S+?)([♠♥♦♣]?)–(\S+?)([♠♥♦♣]?)", text)
    if m and m.group(2) == m.group(4):
        suit = parse_suit(m.group(2)) if m.group(2) else None
        return DescribedReading(
            "run",
            suit=suit,
            low=_rank_or_unknown(m.group(1), "the run's lowest"),
            high=_rank_or_unknown(m.group(3), "the run's highest"),
        )
    raise NotationError(f"`{text}` is not a reading in words (`set of 7s`, `run 4♥–7♥`)")


def described_reading_text(r: DescribedReading) -> str:
    if r.kind == "set":
        return f"set of {_name_or_unknown(r.rank)}s"
    suit = "" if r.suit is None else SUIT_SYMBOLS[SUITS.index(r.suit)]
    return f"run {_name_or_unknown(r.low)}{suit}–{_name_or_unknown(r.high)}{suit}"
