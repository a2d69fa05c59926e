"""Card notation: ``<rank><suit>`` or ``JK``.

Ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` and ``1`` are read too, for 10 and the ace), suits
``S H D C`` or ``♠ ♥ ♦ ♣``, a joker ``JK`` (or ``joker``); any case. Printing always writes the
first forms: ``10H``, ``AS``, ``JK``. The canonical order of cards is suit by suit (``S H D C``),
each suit ``A`` to ``K``, jokers last: ``Card.index`` sorts that way.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SMALL = re.compile(r"\+?[0-9]+")
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class NotationError(ValueError):
    """Text that is not a card, a meld, an action or a reading."""


def parse_rank(text: str) -> int | None:
    """A rank as written in card notation, 1 (ace) to 13 (king); None if it is none."""
    up = text.translate(_UPPER)
    named = {"A": 1, "1": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
    if up in named:
        return named[up]
    if _SMALL.fullmatch(up) and 2 <= int(up) <= 9:
        return int(up)
    return None


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank - 1]


_SUIT_OF = {**{s: s for s in SUITS}, **{s.lower(): s for s in SUITS}, **dict(zip(SUIT_SYMBOLS, SUITS))}


def parse_suit(ch: str) -> str | None:
    """``S H D C`` (any case) or ``♠ ♥ ♦ ♣``; None for anything else."""
    return _SUIT_OF.get(ch)


@dataclass(frozen=True, order=False)
class Card:
    """A card: ``rank`` 1 (ace) … 13 (king) and ``suit`` one of ``S H D C``; both None for a joker."""

    rank: int | None
    suit: str | None

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def is_two(self) -> bool:
        return self.rank == 2

    @property
    def index(self) -> int:
        """The position in canonical order: suit by suit, A to K, jokers last."""
        if self.rank is None or self.suit is None:
            return 52
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @functools.cached_property
    def text(self) -> str:
        """The canonical text: ``10H``, ``JK``."""
        if self.rank is None or self.suit is None:
            return "JK"
        return rank_name(self.rank) + self.suit

    def __str__(self) -> str:
        return self.text

    def pretty(self) -> str:
        """For people: ``10♥``, ``JK``."""
        if self.rank is None or self.suit is None:
            return "JK"
        return rank_name(self.rank) + SUIT_SYMBOLS[SUITS.index(self.suit)]


JOKER = Card(None, None)


@functools.lru_cache(maxsize=4096)
def parse_card(text: str) -> Card:
    """Reads ``<rank><suit>`` or ``JK``, any case; raises NotationError."""

    def bad(reason: str) -> NotationError:
        return NotationError(
            f"cannot read card `{text}`: {reason} (write a rank A 2 3 4 5 6 7 8 9 10 J Q K, or T "
            "for 10, then a suit S H D C or ♠ ♥ ♦ ♣; JK for a joker)"
        )

    t = text.strip()
    if not t:
        raise bad("it is empty")
    if t.translate(_UPPER) in ("JK", "JOKER"):
        return JOKER
    suit = parse_suit(t[-1])
    if suit is None:
        raise bad("the last character is not a suit")
    if len(t) == 1:
        raise bad("there is no rank before the suit")
    rank = parse_rank(t[:-1])
    if rank is None:
        raise bad("the rank is not one of A 2-10 T J Q K")
    return Card(rank, suit)


def card_text(card: Card) -> str:
    """The canonical text of a card: ``10H``, ``JK``."""
    return card.text


def parse_cards(text: str) -> list[Card]:
    """A list of cards separated by spaces or commas: ``"9H 10S, JK"``."""
    return [parse_card(w) for w in re.split(r"[\s,]+", text) if w]


def cards_text(cards: list[Card]) -> str:
    return " ".join(str(c) for c in cards)


def canonical(cards: list[Card]) -> list[Card]:
    """The cards in canonical order (how hands and meld cards are listed)."""
    return sorted(cards, key=lambda c: c.index)
