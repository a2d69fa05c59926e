//! Reading actions in their canonical text form, the one [`Action`]'s `Display` writes:
//!
//! ```text
//! take-discard | push | draw-stock | end-turn | discard 9H | buy | pass
//! meld set [7S 7H JK JK=7] run [9H 10H JK JK=JH QH]
//! lay-off 0 [9H]            lay-off 0 [JK JK=10H] join 2
//! rescue 1 8S for JK then lay-off 0 [JK JK=JS]
//! ```
//!
//! Keywords and cards are read in any case; cards in the project notation (`10H`, `TH`, `t♥`,
//! `JK`). Inside brackets, `CARD=TARGET` declares what one copy of a wild card stands for (a card,
//! `10H`, or a rank, `7`). The card itself is listed plainly as well in the canonical form
//! (`[JK JK=7]` is one joker standing for a 7); a declaration of a card not listed plainly adds
//! the card (`[7S 7H JK=7]` is three cards). Commas may separate cards.

use crate::base::card::Card;
use crate::engine::game::{Action, MeldSpec};
use crate::oracle::meld::Target;
use crate::rules::spec::MeldKind;

/// The words of `s` (brackets are words of their own; whitespace and commas separate), each with
/// where it starts in `s`, counted in characters.
fn tokens(s: &str) -> (Vec<String>, Vec<usize>) {
    let mut toks = Vec::new();
    let mut starts = Vec::new();
    let mut word: Option<(usize, String)> = None;
    for (i, c) in s.chars().enumerate() {
        if c.is_whitespace() || c == ',' || c == '[' || c == ']' {
            if let Some((at, w)) = word.take() {
                toks.push(w);
                starts.push(at);
            }
            if c == '[' || c == ']' {
                toks.push(c.to_string());
                starts.push(i);
            }
            continue;
        }
        word.get_or_insert_with(|| (i, String::new())).1.push(c);
    }
    if let Some((at, w)) = word {
        toks.push(w);
        starts.push(at);
    }
    (toks, starts)
}

/// Why an action or a meld cannot be read, and the word it stumbled on, where there is one: the
/// word and where it starts in the text read, counted in characters (a reader marks it there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub message: String,
    pub word: Option<(usize, String)>,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReadError {}

/// Cards between brackets and the declarations among them.
type Bracketed = (Vec<Card>, Vec<(Card, Target)>);

struct Reader {
    toks: Vec<String>,
    /// Where each of `toks` starts in the text, in characters.
    starts: Vec<usize>,
    at: usize,
    /// The word read last: every refusal is about it, or about the end of the text (`None`).
    last: Option<usize>,
}

impl Reader {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(String::as_str)
    }

    fn new(s: &str) -> Reader {
        let (toks, starts) = tokens(s);
        Reader {
            toks,
            starts,
            at: 0,
            last: None,
        }
    }

    fn next(&mut self, what: &str) -> Result<String, String> {
        let Some(t) = self.toks.get(self.at).cloned() else {
            self.last = None;
            return Err(format!("the action ends where {what} was expected"));
        };
        self.last = Some(self.at);
        self.at += 1;
        Ok(t)
    }

    /// Skips the keyword just peeked at.
    fn skip(&mut self) {
        self.last = Some(self.at);
        self.at += 1;
    }

    /// A refusal about the word at `i` (of `toks`), or about the end of the text.
    fn refuse(&self, message: String, i: Option<usize>) -> ReadError {
        ReadError {
            message,
            word: i.and_then(|i| Some((*self.starts.get(i)?, self.toks.get(i)?.clone()))),
        }
    }

    fn keyword(&self) -> Option<String> {
        self.peek().map(str::to_ascii_lowercase)
    }

    fn number(&mut self, what: &str) -> Result<usize, String> {
        let t = self.next(what)?;
        t.parse::<usize>()
            .ok()
            .filter(|n| *n < 1_000_000)
            .ok_or_else(|| format!("`{t}` is not {what} (a meld number from 0)"))
    }

    fn card(&mut self, what: &str) -> Result<Card, String> {
        let t = self.next(what)?;
        t.parse::<Card>().map_err(|e| e.to_string())
    }

    /// `[CARD CARD=TARGET …]`: the cards and the declarations.
    fn bracket(&mut self) -> Result<Bracketed, String> {
        let open = self.next("`[`")?;
        if open != "[" {
            return Err(format!("expected `[` before the cards, found `{open}`"));
        }
        let mut items: Vec<(Card, Option<Target>)> = Vec::new();
        loop {
            let t = self.next("`]`")?;
            if t == "]" {
                break;
            }
            if t == "[" {
                return Err("a `[` inside brackets: close the list of cards with `]` first".into());
            }
            match t.split_once('=') {
                Some((c, target)) => {
                    let card: Card =
                        c.parse().map_err(|e: crate::base::card::CardParseError| {
                            format!("in the declaration `{t}`: {e}")
                        })?;
                    if !card.is_joker() && !card.is_two() {
                        return Err(format!(
                            "`{t}`: only a wild card (a joker or a 2) can be declared to stand for another card"
                        ));
                    }
                    let target: Target =
                        target
                            .parse()
                            .map_err(|e: crate::base::card::CardParseError| {
                                format!("in the declaration `{t}`: {e}")
                            })?;
                    items.push((card, Some(target)));
                }
                None => items.push((
                    t.parse()
                        .map_err(|e: crate::base::card::CardParseError| e.to_string())?,
                    None,
                )),
            }
        }
        // A declaration adds its card only when the card is not listed plainly often enough.
        let mut cards = Vec::new();
        let mut declared = Vec::new();
        for (i, (card, target)) in items.iter().enumerate() {
            match target {
                None => cards.push(*card),
                Some(t) => {
                    declared.push((*card, *t));
                    let plain = items
                        .iter()
                        .filter(|(c, t)| c == card && t.is_none())
                        .count();
                    let decl_so_far = items[..=i]
                        .iter()
                        .filter(|(c, t)| c == card && t.is_some())
                        .count();
                    if decl_so_far > plain {
                        cards.push(*card);
                    }
                }
            }
        }
        if cards.is_empty() {
            return Err("no cards between `[` and `]`".into());
        }
        Ok((cards, declared))
    }

    fn meld_specs(&mut self) -> Result<Vec<MeldSpec>, String> {
        let mut specs = Vec::new();
        while let Some(k) = self.keyword() {
            let kind = match k.as_str() {
                "set" => Some(MeldKind::Set),
                "run" => Some(MeldKind::Run),
                "[" => None,
                _ => break,
            };
            if kind.is_some() {
                self.skip();
            }
            let (cards, declared) = self.bracket()?;
            specs.push(MeldSpec {
                cards,
                kind,
                declared,
            });
        }
        if specs.is_empty() {
            return Err(
                "`meld` needs at least one meld: `meld [7S 7H 7D]` or `meld set [7S 7H JK JK=7]`"
                    .into(),
            );
        }
        Ok(specs)
    }

    fn lay_off(&mut self) -> Result<Action, String> {
        let meld = self.number("the meld to lay off on")?;
        let (cards, declared) = self.bracket()?;
        let join = if self.keyword().as_deref() == Some("join") {
            self.skip();
            Some(self.number("the run to join")?)
        } else {
            None
        };
        Ok(Action::LayOff {
            meld,
            cards: cards.into(),
            declared,
            join,
        })
    }

    fn action(&mut self, nested: bool) -> Result<Action, String> {
        let word = self.next("an action")?;
        let a = match word.to_ascii_lowercase().as_str() {
            "take-discard" if !nested => Action::TakeDiscard,
            "push" if !nested => Action::Push,
            "draw-stock" if !nested => Action::DrawStock,
            "end-turn" if !nested => Action::EndTurn,
            "buy" if !nested => Action::Buy,
            "pass" if !nested => Action::Pass,
            "discard" if !nested => Action::Discard(self.card("the card to discard")?),
            "meld" => Action::Meld(self.meld_specs()?),
            "lay-off" => self.lay_off()?,
            "rescue" if !nested => {
                let meld = self.number("the meld holding the wild")?;
                let natural = self.card("the natural card")?;
                let f = self.next("`for`")?;
                if !f.eq_ignore_ascii_case("for") {
                    return Err(format!(
                        "expected `for` after the natural card, found `{f}` (write `rescue 1 8S for JK`)"
                    ));
                }
                let wild = self.card("the wild card")?;
                let then = if self.keyword().as_deref() == Some("then") {
                    self.skip();
                    Some(Box::new(self.action(true)?))
                } else {
                    None
                };
                Action::Rescue {
                    meld,
                    natural,
                    wild,
                    then,
                }
            }
            _ if nested => {
                return Err(format!(
                    "after `then` comes a `meld …` or a `lay-off …`, not `{word}`"
                ));
            }
            _ => {
                return Err(format!(
                    "unknown action `{word}`: the actions are take-discard, push, draw-stock, meld, lay-off, rescue, discard, end-turn, buy, pass"
                ));
            }
        };
        Ok(a)
    }
}

/// Reads one action in the canonical text form (see the module documentation).
///
/// # Errors
/// What cannot be read, naming the word or card.
pub fn parse_action(s: &str) -> Result<Action, ReadError> {
    let mut r = Reader::new(s);
    let a = r.action(false).map_err(|e| r.refuse(e, r.last))?;
    if let Some(t) = r.peek() {
        let message = format!("unexpected `{t}` after the action `{a}`");
        return Err(r.refuse(message, Some(r.at)));
    }
    Ok(a)
}

/// Reads one meld: `set [7S 7H JK JK=7]`, `[9H 10H JK]`.
///
/// # Errors
/// What cannot be read, naming the word or card.
pub fn parse_meld_spec(s: &str) -> Result<MeldSpec, ReadError> {
    let mut r = Reader::new(s);
    let mut v = r.meld_specs().map_err(|e| r.refuse(e, r.last))?;
    if let Some(t) = r.peek() {
        let message = format!("unexpected `{t}` after the meld");
        return Err(r.refuse(message, Some(r.at)));
    }
    if v.len() != 1 {
        return Err(r.refuse(format!("one meld was expected, found {}", v.len()), None));
    }
    Ok(v.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// A refusal names the word it stumbled on where it starts in the text, in characters, the
    /// same word written earlier (or inside another) notwithstanding; at the end of the text it
    /// names none.
    #[test]
    fn a_refusal_marks_the_word_where_it_stands() {
        let word = |s: &str| parse_action(s).unwrap_err().word;
        let at = |i: usize, w: &str| Some((i, w.to_string()));
        assert_eq!(word("lay-off 1 [1H 1]"), at(14, "1"));
        assert_eq!(word("discard 11D"), at(8, "11D"));
        assert_eq!(word("  dance"), at(2, "dance"));
        assert_eq!(word("lay-off x [9H]"), at(8, "x"));
        assert_eq!(word("meld [9♥ 10♥ JK=1X]"), at(13, "JK=1X"));
        assert_eq!(word("rescue 1 8S from JK"), at(12, "from"));
        assert_eq!(word("push push"), at(5, "push"));
        assert_eq!(word("meld [9H,9D,9X]"), at(12, "9X"));
        assert_eq!(word("lay-off 0 [9H] join"), None);
        assert_eq!(word("discard"), None);
        let meld = |s: &str| parse_meld_spec(s).unwrap_err().word;
        assert_eq!(meld("set [7S 7H 7X]"), at(11, "7X"));
        assert_eq!(meld("set [7S 7H 7D] extra"), at(15, "extra"));
        assert_eq!(meld("[7S 7H 7D] [8S 8H 8D]"), None);
        // The message is the card reader's own.
        assert_eq!(
            parse_action("discard 11D").unwrap_err().to_string(),
            "11D".parse::<Card>().unwrap_err().to_string()
        );
    }

    #[test]
    fn reads_every_form() {
        assert_eq!(parse_action("Take-Discard").unwrap(), Action::TakeDiscard);
        assert_eq!(
            parse_action(" discard th ").unwrap(),
            Action::Discard(c("10H"))
        );
        let a = parse_action("meld set [7S 7H JK=7] run [9♥,10♥ jk JK=JH qh]").unwrap();
        let Action::Meld(specs) = &a else { panic!() };
        assert_eq!(specs[0].cards, vec![c("7S"), c("7H"), c("JK")]);
        assert_eq!(specs[0].declared, vec![(c("JK"), "7".parse().unwrap())]);
        assert_eq!(specs[1].cards.len(), 4);
        assert_eq!(
            a.to_string(),
            "meld set [7S 7H JK JK=7] run [9H 10H JK QH JK=JH]"
        );
        let r = parse_action("rescue 1 8S for JK then lay-off 0 [JK=9S] join 2").unwrap();
        assert_eq!(
            r.to_string(),
            "rescue 1 8S for JK then lay-off 0 [JK JK=9S] join 2"
        );
    }

    #[test]
    fn explains_what_it_cannot_read() {
        for (s, want) in [
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
        ] {
            let e = parse_action(s).unwrap_err();
            assert!(e.message.contains(want), "{s}: {e}");
        }
    }
}
