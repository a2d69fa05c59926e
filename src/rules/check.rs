//! The semantic checks of a compiled rule set: every deal fits the pack for every allowed number
//! of players, every contract fits the pack, every contract meld is one the rules and the pack
//! can make (a set no larger than sets go, a run no longer than the rank line), and the
//! players and the large table make sense. A problem found in an inherited rule points at the
//! user's own rule that caused it ([`relocate`]). The messages are part of the snapshot tests.

use super::Rules;
use super::spec::{Component, MeldKind, RawRules, RoundSpec};
use crate::base::diag::Diagnostic;
use crate::base::yaml::Pos;

const DEAL_RELATED: [&str; 7] = [
    "players.count",
    "decks.by-players",
    "decks.standard-decks",
    "decks.jokers",
    "decks.large-table.standard-decks",
    "decks.large-table.jokers",
    "decks.large-table.from-players",
];
const SET_RELATED: [&str; 5] = [
    "sets.min-size",
    "readings.set-max-size",
    "readings.set-duplicate-suits",
    "readings.wild-in-set-represents",
    "wilds.twos",
];
const RUN_RELATED: [&str; 5] = [
    "runs.min-length",
    "runs.two-in-sequence",
    "runs.wrap-around",
    "readings.ace-position",
    "readings.ace-both-ends",
];

/// A problem found in an inherited rule (say a deal of `spec/push.yaml`) is usually caused by a
/// rule the user's own file changed: point there, and name the inherited rule in the message.
fn relocate(raw: &RawRules, top: &str, d: Diagnostic, related: &[&str]) -> Diagnostic {
    if d.file == top {
        return d;
    }
    let Some((path, e)) = related
        .iter()
        .filter_map(|p| raw.get(p).map(|e| (*p, e)))
        .find(|(_, e)| e.origin.file == top)
    else {
        return d;
    };
    Diagnostic {
        file: e.origin.file.clone(),
        line: e.origin.pos.line,
        column: e.origin.pos.column,
        path: path.to_string(),
        message: format!(
            "{} ({} is inherited from {}:{})",
            d.message, d.path, d.file, d.line
        ),
        hint: d.hint,
    }
}

/// The semantic checks of a compiled rule set, in the order their problems are reported: each
/// round's deal and contract against the pack, then the large table's `from-players`, then the
/// number of players.
pub(super) fn meaning(
    raw: &RawRules,
    top: &str,
    rules: &Rules,
    rounds_spec: &[RoundSpec],
    diags: &mut Vec<Diagnostic>,
) {
    let (pf, pp) = origin(raw, "players.count");
    let rounds_origin = origin(raw, "rounds");
    let mut checks = Checks {
        raw,
        top,
        rules,
        diags,
        naturals_said: false,
    };
    for (i, r) in rounds_spec.iter().enumerate() {
        checks.round(i, r, &rounds_origin.0);
        if r.all_at_once {
            checks.all_at_once(i, r, &rounds_origin.0);
        }
    }
    if let Some(lt) = rules.large_table
        && let Some(f) = lt.from_players
        && f <= rules.players.0
    {
        let (file, pos) = origin(raw, "decks.large-table.from-players");
        checks.diags.push(Diagnostic::new(
            &file,
            pos,
            "decks.large-table.from-players",
            format!("large-table cards from {f} players would apply to every game (players start at {})", rules.players.0),
        ));
    }
    partnerships(raw, top, rules, checks.diags);
    if rules.contract_pooled
        && rules.readings.contract_in_one_turn
            == crate::rules::disputes::reading::ContractInOneTurn::Piecemeal
    {
        let (file, pos) = origin(raw, "contract.check");
        checks.diags.push(
            Diagnostic::new(
                &file,
                pos,
                "contract.check",
                "a pooled contract is found among the cards laid down in one turn, and contract-in-one-turn=piecemeal lays it down over several",
            )
            .with_hint("use contract.check: each-meld, or the reading contract-in-one-turn=required"),
        );
    }
    if rules.players.0 < 2 {
        checks.diags.push(Diagnostic::new(
            &pf,
            pp,
            "players.count",
            "a game needs at least 2 players",
        ));
    }
}

/// `scoring.sides: partnerships` pairs partners opposite each other, so every number of players
/// the rules allow must be even and at least 4. Stated in a file this one extends, the problem
/// points at this file's `players.count` where it gives one ([`relocate`]).
fn partnerships(raw: &RawRules, top: &str, rules: &Rules, diags: &mut Vec<Diagnostic>) {
    if rules.sides != Some(super::Sides::Partnerships) {
        return;
    }
    let (lo, hi) = rules.players;
    let Some(bad) = (lo..=hi).find(|n| *n < 4 || !n.is_multiple_of(2)) else {
        return;
    };
    let (file, pos) = origin(raw, "scoring.sides");
    let allowed = if lo == hi {
        format!("players.count is {lo}")
    } else {
        format!("players.count {lo}-{hi} allows {bad}")
    };
    let d = Diagnostic::new(
        &file,
        pos,
        "scoring.sides",
        format!(
            "partnerships need an even number of players, at least 4 (partners sit opposite); {allowed}"
        ),
    )
    .with_hint(
        "let only an even number of players from 4 play (`players.count: 4` or 6), or write `scoring.sides: individual`",
    );
    diags.push(relocate(raw, top, d, &["players.count"]));
}

/// Where a rule was set: its file and position (the rule is given: `compile` checked it).
fn origin(raw: &RawRules, path: &str) -> (String, Pos) {
    let o = &raw.get(path).expect("checked above").origin;
    (o.file.clone(), o.pos)
}

/// What the checks of the rounds read, and where they put the problems they find.
struct Checks<'a> {
    raw: &'a RawRules,
    top: &'a str,
    rules: &'a Rules,
    diags: &'a mut Vec<Diagnostic>,
    /// A contract meld that cannot hold `wilds.min-naturals` natural cards was reported.
    naturals_said: bool,
}

impl Checks<'_> {
    /// Adds a problem, pointed at the user's own rule among `related` where it was inherited
    /// ([`relocate`]).
    fn push(&mut self, d: Diagnostic, related: &[&str]) {
        self.diags.push(relocate(self.raw, self.top, d, related));
    }

    /// Round `i` (given in `file`): its deal for every allowed number of players, its contract's
    /// total, and each meld of its contract.
    fn round(&mut self, i: usize, r: &RoundSpec, file: &str) {
        let rules = self.rules;
        for n in rules.players.0..=rules.players.1 {
            let need = usize::from(n) * usize::from(r.deal) + 1;
            let have = rules.pack_size(n);
            if need > have {
                self.push(Diagnostic::new(
                    file,
                    r.deal_pos,
                    &format!("rounds[{i}].deal"),
                    format!(
                        "dealing {} cards to {n} players needs {need} cards with the upcard; the pack for {n} players has {have}",
                        r.deal
                    ),
                ), &DEAL_RELATED);
                break;
            }
        }
        // The smallest pack of the allowed player counts (the fewest players' unless
        // `decks.by-players` says otherwise), and the largest set the packs all allow.
        let counts = rules.players.0..=rules.players.1;
        let smallest = counts
            .clone()
            .min_by_key(|&n| rules.pack_size(n))
            .unwrap_or(rules.players.0);
        // Per count: the largest set, and the most natural cards a set may hold (the copies of a
        // rank); the least of each over the counts.
        let (max_set, set_naturals) = counts
            .map(|n| {
                let (decks, jokers) = rules.pack(n);
                let wilds = usize::from(jokers)
                    + if rules.twos_wild {
                        4 * usize::from(decks)
                    } else {
                        0
                    };
                let max = rules.max_set(usize::from(decks), wilds);
                (max, max.min(4 * usize::from(decks)))
            })
            .fold((usize::MAX, usize::MAX), |(a, b), (m, n)| {
                (a.min(m), b.min(n))
            });
        let total: usize = r.contract.iter().map(|c| usize::from(c.size)).sum();
        if total > rules.pack_size(smallest) {
            self.push(
                Diagnostic::new(
                    file,
                    r.deal_pos,
                    &format!("rounds[{i}].contract"),
                    format!(
                        "the contract needs {total} cards; the pack has {}",
                        rules.pack_size(smallest)
                    ),
                ),
                &DEAL_RELATED,
            );
        }
        if rules.readings.same_rank_sets == crate::rules::disputes::reading::SameRankSets::Forbidden
        {
            // Two sets of one fixed rank, where no two sets laid down may share a rank.
            for (j, c) in r.contract.iter().enumerate() {
                if c.rank.is_some() && r.contract[..j].iter().any(|x| x.rank == c.rank) {
                    self.push(
                        Diagnostic::new(
                            file,
                            r.contract_pos[j],
                            &format!("rounds[{i}].contract[{j}]"),
                            format!(
                                "a contract {c} cannot be made beside another set of that rank: same-rank-sets=forbidden"
                            ),
                        )
                        .with_hint("name another rank, or use the reading same-rank-sets=allowed"),
                        &["readings.same-rank-sets"],
                    );
                }
            }
        }
        for (j, c) in r.contract.iter().enumerate() {
            let path = format!("rounds[{i}].contract[{j}]");
            let pos = r.contract_pos[j];
            let most_naturals = match c.kind {
                MeldKind::Set => {
                    self.contract_set(c, file, pos, &path, max_set);
                    set_naturals
                }
                MeldKind::Run => {
                    self.contract_run(c, file, pos, &path);
                    rules.max_run()
                }
            };
            let need = usize::from(rules.wild_limits.min_naturals);
            if need > most_naturals && !self.naturals_said {
                // Once: every contract meld after this one breaks it the same way.
                self.naturals_said = true;
                self.push(
                    Diagnostic::new(
                        file,
                        pos,
                        &path,
                        format!(
                            "a contract {c} cannot be made: every meld must hold {need} natural cards (wilds.min-naturals) and a {} holds at most {most_naturals}",
                            c.kind.name()
                        ),
                    )
                    .with_hint("lower wilds.min-naturals"),
                    &["wilds.min-naturals"],
                );
            }
        }
    }

    /// A deal played all at once is won only by going out as the contract goes down, without a
    /// discard: the rules that forbid that would leave the deal with no way out.
    fn all_at_once(&mut self, i: usize, r: &RoundSpec, file: &str) {
        let path = format!("rounds[{i}].all-at-once");
        if self.rules.readings.going_out == crate::rules::disputes::reading::GoingOut::DiscardOnly {
            self.push(
                Diagnostic::new(
                    file,
                    r.deal_pos,
                    &path,
                    "a deal played all at once goes out as the contract goes down, without a discard, and going-out=discard-only lets a player go out only by discarding",
                )
                .with_hint("drop `all-at-once`, or use the reading going-out=meld-or-discard"),
                &["readings.going-out"],
            );
        }
        if self.rules.no_going_out_on_contract_turn {
            self.push(
                Diagnostic::new(
                    file,
                    r.deal_pos,
                    &path,
                    "a deal played all at once goes out on the turn the contract goes down, and going-out.not-on-contract-turn forbids that",
                )
                .with_hint("drop `all-at-once`, or `going-out.not-on-contract-turn`"),
                &["going-out.not-on-contract-turn"],
            );
        }
    }

    /// A set of a contract at `path`: no smaller than the smallest set, no larger than `max`,
    /// the largest the rules and the pack allow.
    fn contract_set(&mut self, c: &Component, file: &str, pos: Pos, path: &str, max: usize) {
        let rules = self.rules;
        if c.rank.is_some() {
            self.fixed_rank_set(c, file, pos, path);
        } else if c.size < rules.set_min {
            self.push(
                Diagnostic::new(
                    file,
                    pos,
                    path,
                    format!(
                        "a set of {} is smaller than the smallest set (sets.min-size {})",
                        c.size, rules.set_min
                    ),
                ),
                &SET_RELATED,
            );
        }
        if usize::from(c.size) > max {
            let message = format!(
                "a contract {c} cannot be made: a set holds at most {max} cards under these rules"
            );
            let hint =
                "readings set-max-size, set-duplicate-suits and wild-in-set-represents limit sets";
            self.push(
                Diagnostic::new(file, pos, path, message).with_hint(hint),
                &SET_RELATED,
            );
        }
    }

    /// A set of a fixed rank (`set of 2 aces`): a rank the rules make sets of, and, where it is
    /// smaller than `sets.min-size`, not in a pooled contract (which regroups the cards laid
    /// into any melds, and where a set that small would be no meld).
    fn fixed_rank_set(&mut self, c: &Component, file: &str, pos: Pos, path: &str) {
        let rules = self.rules;
        if c.rank == Some(crate::base::card::Rank::Two) && !rules.natural_two_in_sets() {
            self.push(
                Diagnostic::new(
                    file,
                    pos,
                    path,
                    format!(
                        "a contract {c} cannot be made: twos are wild and a 2 is natural in no set (natural-twos={}), so no set has rank 2",
                        rules
                            .readings
                            .name(crate::rules::disputes::DisputeId::NaturalTwos)
                    ),
                )
                .with_hint("use the reading natural-twos=runs-and-sets, `wilds.twos: false`, or another rank"),
                &["wilds.twos", "readings.natural-twos"],
            );
        }
        if c.size < rules.set_min && rules.contract_pooled {
            self.push(
                Diagnostic::new(
                    file,
                    pos,
                    path,
                    format!(
                        "a contract {c} is smaller than the smallest set (sets.min-size {}), which only a contract checked meld by meld allows: contract.check: pooled regroups the cards laid into melds of their own",
                        rules.set_min
                    ),
                )
                .with_hint("use contract.check: each-meld, or a set of at least sets.min-size"),
                &["contract.check", "sets.min-size"],
            );
        }
    }

    /// A run of a contract at `path`: no shorter than the shortest run, no longer than the rank
    /// line allows.
    fn contract_run(&mut self, c: &Component, file: &str, pos: Pos, path: &str) {
        let rules = self.rules;
        if c.size < rules.run_min {
            self.push(
                Diagnostic::new(
                    file,
                    pos,
                    path,
                    format!(
                        "a run of {} is shorter than the shortest run (runs.min-length {})",
                        c.size, rules.run_min
                    ),
                ),
                &RUN_RELATED,
            );
        }
        if usize::from(c.size) > rules.max_run() {
            self.push(
                Diagnostic::new(
                    file,
                    pos,
                    path,
                    format!(
                        "a run of {} is longer than the rank order allows ({} cards)",
                        c.size,
                        rules.max_run()
                    ),
                )
                .with_hint("see runs.two-in-sequence, runs.wrap-around and the readings ace-position and ace-both-ends")
            , &RUN_RELATED);
        }
    }
}

/// How many cards more than the deal a contract may ask for before `rules check` warns: a hand
/// gains a card or two a turn from taken discards and pushes, and melds what it can.
pub const CONTRACT_SLACK: usize = 4;

/// What `rules check` warns of in rules that load: deals whose contract takes far more cards
/// than a hand is dealt (more than [`CONTRACT_SLACK`] more), which a hand would have to gain by
/// taking discards and pushes before it could meet it. Legal, but rarely a game anyone finishes.
pub fn warnings(rules: &Rules) -> Vec<String> {
    rules
        .rounds
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let needs: usize = r.contract.iter().map(|c| usize::from(c.size)).sum();
            let dealt = usize::from(r.deal);
            (needs > dealt + CONTRACT_SLACK).then(|| {
                let parts: Vec<String> = r.contract.iter().map(ToString::to_string).collect();
                format!(
                    "deal {}: the contract ({}) takes {needs} cards and a hand is dealt {dealt}: \
                     a player must first gain {} cards from discards and pushes",
                    i + 1,
                    parts.join(", "),
                    needs - dealt
                )
            })
        })
        .collect()
}
