"""The kit's notation and protocol loop, without the harness: ``python3 -m unittest discover -s tests``
(from conformance/adapters/python)."""

from __future__ import annotations

import io
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from push_kit.cards import JOKER, Card, NotationError, canonical, parse_card, parse_cards  # noqa: E402
from push_kit.engine import Engine, Unsupported  # noqa: E402
from push_kit.messages import MAX_LINE, Drew, Ok, Rejected, decode_message, decode_reply, encode_reply  # noqa: E402
from push_kit.notation import (  # noqa: E402
    Declaration,
    LayOff,
    Meld,
    action_text,
    described_reading_text,
    parse_action,
    parse_described_reading,
    parse_reading,
    reading_text,
)
from push_kit.protocol import run  # noqa: E402


class Cards(unittest.TestCase):
    def test_every_spelling(self) -> None:
        for text, want in [("10H", "10H"), ("th", "10H"), ("t♥", "10H"), ("1s", "AS"), ("Jk", "JK"),
                           ("joker", "JK"), ("qc", "QC"), ("2♦", "2D")]:
            self.assertEqual(str(parse_card(text)), want, text)
        self.assertEqual(parse_card("JK"), JOKER)
        self.assertEqual(parse_card("9h").pretty(), "9♥")

    def test_refusals(self) -> None:
        for text in ["", "11H", "H", "10X", "JKK", "0S"]:
            with self.assertRaises(NotationError, msg=text):
                parse_card(text)

    def test_canonical_order(self) -> None:
        cards = parse_cards("JK KC, AS 10H 2S")
        self.assertEqual([str(c) for c in canonical(cards)], ["AS", "2S", "10H", "KC", "JK"])
        self.assertEqual(Card(1, "S").index, 0)


class Actions(unittest.TestCase):
    def test_canonical_forms(self) -> None:
        for text, want in [
            ("Take-Discard", "take-discard"),
            (" discard th ", "discard 10H"),
            ("meld set [7S 7H JK=7] run [9♥,10♥ jk JK=JH qh]", "meld set [7S 7H JK JK=7] run [9H 10H JK QH JK=JH]"),
            ("rescue 1 8S for JK then lay-off 0 [JK=9S] join 2", "rescue 1 8S for JK then lay-off 0 [JK JK=9S] join 2"),
            ("lay-off 0 [2D 2D=9H]", "lay-off 0 [2D 2D=9H]"),
            ("meld [7S 7H JK JK=7]", "meld [7S 7H JK JK=7]"),
        ]:
            self.assertEqual(action_text(parse_action(text)), want, text)
        a = parse_action("lay-off 3 [JK JK=10H] join 1")
        self.assertEqual(a, LayOff(3, [JOKER], [Declaration(JOKER, parse_card("10H"))], 1))
        self.assertEqual(parse_action("lay-off 3 [JK=10H] join 1"), a)
        m = parse_action("meld [7S 7H JK=7]")
        assert isinstance(m, Meld)
        self.assertEqual(len(m.melds[0].cards), 3)

    def test_refusals(self) -> None:
        for text, want in [
            ("", "ends where an action"),
            ("draw", "unknown action `draw`"),
            ("discard 11H", "cannot read card `11H`"),
            ("meld", "at least one meld"),
            ("meld [7S 7H", "ends where `]`"),
            ("meld [7H=7]", "only a wild card"),
            ("lay-off x [9H]", "`x` is not the meld"),
            ("rescue 1 8S with JK", "expected `for`"),
            ("rescue 1 8S for JK then discard 9H", "after `then`"),
            ("push now", "unexpected `now`"),
            ("meld []", "no cards"),
        ]:
            with self.assertRaises(NotationError, msg=text) as e:
                parse_action(text)
            self.assertIn(want, str(e.exception))

    def test_readings(self) -> None:
        for text in ["set 7: JK=7 7S 7H", "run H 2-A: 2H 2S=3H JK=4H 5H", "run * 3-5: 3S 4H 2C=5", "set ?: JK JK"]:
            self.assertEqual(reading_text(parse_reading(text)), text)
        for text in ["set of 7s", "run 4♥–J♥", "run J–A", "set of 10s"]:
            self.assertEqual(described_reading_text(parse_described_reading(text)), text)


class Canned(Engine):
    """Draws 9H for whoever asks; refuses a discard."""

    name = "canned"
    reports = ["events", "reason-codes"]

    def start(self, msg):  # type: ignore[no-untyped-def]
        if msg.players != 4:
            raise Unsupported("four players only")

    def apply(self, seat, action):  # type: ignore[no-untyped-def]
        if action_text(action).startswith("discard"):
            return Rejected("not now", reason="must-draw-first")
        return Ok([Drew(seat, parse_card("9H"))])

    def state(self):  # type: ignore[no-untyped-def]
        raise Unsupported("no state")


def converse(lines: list[str]) -> list[dict]:
    out = io.BytesIO()
    run(Canned(), io.BytesIO("".join(line + "\n" for line in lines).encode()), out)
    return [json.loads(x) for x in out.getvalue().decode().splitlines()]


START = {
    "type": "start", "protocol": 2, "players": 4, "dealer": 0, "round": 1, "scores": [],
    "generator": "18446744073709551615", "decks": [],
    "rules": {"game": "push", "name": "Push Rummy", "fingerprint": "x", "values": {}},
    "position": {"turn": 1, "stage": "draw", "taken": None, "hands": [["9H"], [], [], []],
                 "stock": ["JK"], "discard": ["8H"], "contract_met": [],
                 "table": [{"owner": 0, "meld": "set [7S 7H JK JK=7]", "cards": ["7S", "7H", "JK"]}]},
}


class Loop(unittest.TestCase):
    def test_a_conversation(self) -> None:
        replies = converse([
            '{"type":"state"}',
            '{"type":"hello","protocol":2}',
            '{"type":"apply","seat":1,"action":"push"}',
            json.dumps(START),
            '{"type":"apply","seat":1,"action":"push"}',
            '{"type":"apply","seat":1,"action":"discard 9H"}',
            '{"type":"apply","seat":1,"action":"dance"}',
            '{"type":"apply","seat":"one","action":"push"}',
            '{"type":"state"}',
            '{"type":"legal"}',
            "not json",
            "[1]",
            '{"type":"shuffle"}',
            "x" * (MAX_LINE + 10),
            '{"type":"end"}',
            '{"type":"state"}',
        ])
        self.assertEqual(replies[0]["type"], "error")
        self.assertEqual(replies[1], {"type": "hello", "protocol": 2, "name": "canned", "reports": ["events", "reason-codes"]})
        self.assertEqual(replies[2], {"type": "error", "message": "no game: send `start` first"})
        self.assertEqual(replies[3], {"type": "ok", "events": []})
        self.assertEqual(replies[4], {"type": "ok", "events": [{"event": "drew", "seat": 1, "card": "9H"}]})
        self.assertEqual(replies[5], {"type": "rejected", "message": "not now", "reason": "must-draw-first"})
        self.assertIn("unknown action `dance`", replies[6]["message"])
        self.assertEqual(replies[7], {"type": "error", "message": "`seat`: expected an integer"})
        self.assertEqual(replies[8], {"type": "unsupported", "reason": "no state"})
        self.assertEqual(replies[9]["type"], "unsupported")
        self.assertTrue(replies[10]["message"].startswith("not JSON"))
        self.assertEqual(replies[11]["type"], "error")
        self.assertIn("unknown message type", replies[12]["message"])
        self.assertIn("longer than", replies[13]["message"])
        self.assertEqual(replies[14], {"type": "bye"})
        self.assertEqual(len(replies), 15)

    def test_unsupported_rules_and_protocol_one(self) -> None:
        start = dict(START, players=3)
        replies = converse(['{"type":"hello","protocol":1}', json.dumps(start)])
        self.assertEqual(replies[0], {"type": "hello", "protocol": 1, "name": "canned"})
        self.assertEqual(replies[1], {"type": "unsupported", "reason": "four players only"})

    def test_start_keeps_every_field(self) -> None:
        msg = decode_message(START)
        self.assertEqual(msg.generator, 2**64 - 1)  # type: ignore[union-attr]
        from push_kit.messages import encode_message

        self.assertEqual(encode_message(msg), START)
        reply = decode_reply({"type": "ok"})
        self.assertEqual(encode_reply(reply), {"type": "ok"})


if __name__ == "__main__":
    unittest.main()
