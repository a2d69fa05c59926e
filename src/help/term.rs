//! Text for people at a terminal: cards with suit symbols, in colour, and the table of a game
//! drawn as text.
//!
//! The canonical texts (transcripts, events) write cards as `10H`, `JK`; [`Look::paint`] turns
//! every card in such a text into `10♥` in red (or leaves it alone), so the data is the same
//! whether it goes to a terminal, a pipe or a golden file. [`Look::PLAIN`] changes nothing.
//!
//! ```
//! use push_rummy::help::term::Look;
//! let look = Look { symbols: true, color: false };
//! assert_eq!(look.paint("seat 1 discards 10H, JK=QS"), "seat 1 discards 10♥, JK=Q♠");
//! assert_eq!(Look::PLAIN.paint("seat 1 discards 10H"), "seat 1 discards 10H");
//! ```

use crate::suite::transcript::State;
use anstyle::{AnsiColor, Effects, Style};
use std::fmt::Write as _;

/// When to colour the output (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum When {
    /// On a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    Always,
    Never,
}

/// How cards and words are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Suit symbols (`♥`) instead of letters (`H`).
    pub symbols: bool,
    /// ANSI colours.
    pub color: bool,
}

impl Look {
    /// The canonical text, unchanged: for pipes, files and golden transcripts.
    pub const PLAIN: Look = Look {
        symbols: false,
        color: false,
    };

    /// The look for an output stream. On a terminal: symbols, and colour unless `no_color` (the
    /// `NO_COLOR` convention) or `Never`; elsewhere plain, unless `Always` asks for both.
    pub fn decide(when: When, is_terminal: bool, no_color: bool) -> Look {
        match when {
            When::Always => Look {
                symbols: true,
                color: true,
            },
            When::Never => Look {
                symbols: is_terminal,
                color: false,
            },
            When::Auto => Look {
                symbols: is_terminal,
                color: is_terminal && !no_color,
            },
        }
    }

    fn styled(&self, style: Style, text: &str) -> String {
        if self.color {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_string()
        }
    }

    /// One card token (`10H`, `JK`) as drawn; `None` when the token is not a card.
    fn card(&self, token: &str) -> Option<String> {
        if token == "JK" {
            let s = Style::new().fg_color(Some(AnsiColor::Magenta.into()));
            return Some(self.styled(s, "JK"));
        }
        let (rank, suit) = token.split_at(token.len().checked_sub(1)?);
        let rank_ok = matches!(rank, "A" | "J" | "Q" | "K" | "10")
            || (rank.len() == 1 && matches!(rank.as_bytes()[0], b'2'..=b'9'));
        if !rank_ok {
            return None;
        }
        let (symbol, red) = match suit {
            "S" => ('♠', false),
            "H" => ('♥', true),
            "D" => ('♦', true),
            "C" => ('♣', false),
            _ => return None,
        };
        let text = if self.symbols {
            format!("{rank}{symbol}")
        } else {
            token.to_string()
        };
        let style = if red {
            Style::new().fg_color(Some(AnsiColor::Red.into()))
        } else {
            Style::new().effects(Effects::BOLD)
        };
        Some(self.styled(style, &text))
    }

    /// A word with a meaning of its own in transcripts (`held`, `FAILED`, `rejected`).
    fn word(&self, token: &str) -> Option<String> {
        let style = match token {
            "held" | "ok" | "pass" => Style::new().fg_color(Some(AnsiColor::Green.into())),
            "FAILED" | "FAILURE" | "FAIL" | "DIFFERS" | "ERRORED" => Style::new()
                .fg_color(Some(AnsiColor::Red.into()))
                .effects(Effects::BOLD),
            "rejected" => Style::new().fg_color(Some(AnsiColor::Yellow.into())),
            _ => return None,
        };
        Some(self.styled(style, token))
    }

    /// A canonical text drawn in this look: every card token (a whole word such as `10H`, `JK`,
    /// either side of `=` in `JK=10H`) and the verdict words; headings (`step …`, `— deal …`) in
    /// bold. Plain leaves the text as it is.
    pub fn paint(&self, text: &str) -> String {
        if !self.symbols && !self.color {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len() + text.len() / 4);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let heading = line.starts_with("step ")
                || line.starts_with("— ")
                || line.starts_with("outcome:")
                || line.starts_with("start:");
            let painted = self.paint_line(line);
            if heading && self.color {
                let b = Style::new().effects(Effects::BOLD);
                // Re-open bold after every reset inside the line.
                let reopened = painted.replace(
                    &format!("{}", b.render_reset()),
                    &format!("{}{}", b.render_reset(), b.render()),
                );
                out.push_str(&format!("{}{reopened}{}", b.render(), b.render_reset()));
            } else {
                out.push_str(&painted);
            }
        }
        out
    }

    fn paint_line(&self, line: &str) -> String {
        let mut out = String::new();
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            if !word.is_empty() {
                match self.card(word).or_else(|| self.word(word)) {
                    Some(s) => out.push_str(&s),
                    None => out.push_str(word),
                }
                word.clear();
            }
        };
        for c in line.chars() {
            if c.is_ascii_alphanumeric() {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }
}

/// The table of a game as text, in the canonical card notation (paint it with a [`Look`]): the
/// hands, the melds on the table with what their wilds stand for, the stock and the discard pile,
/// and the totals per side.
pub fn table_view(s: &State, heading: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  ┌ {heading}: deal {}, dealer {}, seat {} to {}",
        s.round,
        s.dealer,
        s.turn,
        match s.stage {
            "draw" => "draw",
            "play" => "play",
            other => other,
        }
    );
    for (seat, h) in s.hands.iter().enumerate() {
        let met = match s.contract.get(seat) {
            Some(c) if c.met => ", contract met",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  │ seat {seat} ({} card{}{met}): {}",
            h.len(),
            if h.len() == 1 { "" } else { "s" },
            if h.is_empty() {
                "—".to_string()
            } else {
                h.join(" ")
            }
        );
    }
    if s.table.is_empty() {
        let _ = writeln!(out, "  │ melds: none");
    }
    for (i, m) in s.table.iter().enumerate() {
        let _ = writeln!(
            out,
            "  │ meld #{i} (seat {}): {}",
            m.owner,
            m.readings.join(" | ")
        );
    }
    let _ = writeln!(
        out,
        "  │ stock: {} card{}; discard pile: {}",
        s.stock.count,
        if s.stock.count == 1 { "" } else { "s" },
        if s.discard.is_empty() {
            "empty".to_string()
        } else {
            format!("{} (top first)", s.discard.join(" "))
        }
    );
    let totals: Vec<String> = s
        .totals
        .iter()
        .enumerate()
        .map(|(side, t)| format!("side {side} {t}"))
        .collect();
    let _ = writeln!(out, "  └ totals: {}", totals.join(", "));
    out
}

/// `text` without its colour codes: what [`Look::paint`] left as the text a pipe would get.
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_card_words_are_cards() {
        let look = Look {
            symbols: true,
            color: false,
        };
        assert_eq!(
            look.paint("fnv1a64:886e01e3a5b8d23b, run H 6-9: 6H 7H JK=8H 9H, set 7: JK=7 7S"),
            "fnv1a64:886e01e3a5b8d23b, run H 6-9: 6♥ 7♥ JK=8♥ 9♥, set 7: JK=7 7♠"
        );
        assert_eq!(look.paint("10C AS KD 1S 11H"), "10♣ A♠ K♦ 1S 11H");
    }

    #[test]
    fn colour_wraps_cards_and_verdicts_and_nothing_else() {
        let look = Look::decide(When::Always, false, false);
        let s = look.paint("check hand 0: 4S: held");
        assert!(s.contains("\u{1b}["), "{s:?}");
        // Without the escapes it is the symbol text.
        let stripped: String = strip_ansi(&s);
        assert_eq!(stripped, "check hand 0: 4♠: held");
    }

    #[test]
    fn the_look_follows_the_terminal_and_no_color() {
        assert_eq!(Look::decide(When::Auto, false, false), Look::PLAIN);
        assert_eq!(
            Look::decide(When::Auto, true, true),
            Look {
                symbols: true,
                color: false
            }
        );
        assert!(Look::decide(When::Auto, true, false).color);
        assert!(!Look::decide(When::Never, true, false).color);
    }
}
