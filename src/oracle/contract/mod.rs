//! Contracts: whether given melds meet a deal's contract ([`check`]), and whether a hand can meet
//! it at all, with which melds ([`laydown`]).
//!
//! # What makes a contract
//!
//! A deal's contract is a list of contract melds (`Component`: a kind and a size, e.g. a set of 3
//! and a run of 4, and for a set perhaps a rank: a set of 2 aces). Melds laid down together meet
//! it when each contract meld is filled by one of them, a different one each. The plain rule is
//! [`check`], in this file:
//!
//! - a meld fills a contract meld when one of its interpretations ([`meld::interpret`]) is of the
//!   contract meld's kind, of its rank where it names one, and its size is right ([`size_ok`]: at
//!   least the stated size, or exactly it under `contract-sizes=exact`) ([`fills`]);
//! - a set of a fixed rank may be smaller than `sets.min-size` (`set of 2 aces` where sets are
//!   three cards): the melds laid are read with sets from [`set_floor`] cards on, and a set below
//!   `sets.min-size` is a meld only as such a contract meld, never as an extra ([`ordinary`]);
//! - melds beyond the contract are extras; under `contract-turn-extras=next-turn` they must wait;
//! - under `same-rank-sets=forbidden` no two sets laid down share a rank, and under
//!   `same-suit-runs-in-contract=forbidden` no two of the contract's runs share a suit (runs of
//!   any suits: no suit of a natural card repeats) (`constraints_hold`).
//!
//! `check` tries every way of giving the melds, in each of their interpretations, to the contract
//! melds (`search_assignment`); where none works, `why_not` says why.
//!
//! # The laydown search, in layers
//!
//! Whether a *hand* can meet the contract is asked far more often (every legal-action listing,
//! every bot turn), so it has a plain search and fast paths in front of it, each of which must
//! give the plain search's answer:
//!
//! 1. [`search_laydown`] (`search.rs`): the exhaustive search. It chooses a *template* for each
//!    contract meld (a set rank, or a run suit and window: `templates.rs`) and decides whether the
//!    hand can fill all templates at once as a small max-flow problem (`flow.rs`): cards flow from
//!    the hand to the places of the templates, natural cards only to places they fit, wild cards
//!    anywhere a wild may stand. With `all-wild-melds=forbidden` each template also has a one-card
//!    "anchor" that only a natural card can fill. A contract meld of exactly the stated size exists
//!    whenever a larger one does, so templates have exactly the stated size. Branches are pruned by
//!    an upper bound on the naturals the templates can hold (`naturals_added`). Under limits on
//!    wild cards (`wilds.*`) each template's wild edge carries at most what the limits leave
//!    (`WildLimits::wild_cap`), a run is also tried longer than the contract says where a limit
//!    on the share of naturals may need it (`search::sizes`), and where wilds may not stand side
//!    by side each way of placing them apart is a template of its own (fixed `gaps`); the
//!    shortcuts of layer 3 are skipped.
//! 2. `may_meet` (`relaxed/`): a relaxed check, run before the search, that turns most hands
//!    away without searching: the runs' part (`relaxed/runs.rs`), then the sets'
//!    (`relaxed/sets.rs`). It only ever says "no" where no laydown exists.
//! 3. `first_flow` and `one_meld` (`one_meld.rs`): the flow's first pass without building the
//!    network (the search takes its melds where it fills every template), and a contract of one
//!    meld answered without the search (the bots' run or set after their contract).
//! 4. [`laydown`] (`search.rs`) = `one_meld`'s answer where it has one, else [`search_laydown`].
//! 5. [`may_hold`] and [`Reach`] (`reach.rs`): whether a meld of a contract meld could hold a card
//!    or the hand could hold any; necessary conditions the bots ask between searches.
//!
//! What the hand offers runs and the wilds, read once for the relaxed check and the search, is in
//! `hand.rs`.
//!
//! # What holds the fast paths to the plain rule
//!
//! - `tests/integration/laydown.rs` (the crate's integration tests): `laydown_search_agrees_with_brute_force`
//!   cuts small hands into groups of the contract's sizes every way and checks them with [`check`]
//!   (the brute force), against [`laydown`] (so against the relaxed check, the pruning bound, the
//!   first flow and the network at once); `one_meld_is_laid_down_as_the_search_lays_it_down`
//!   compares [`laydown`] with [`search_laydown`] card for card;
//!   `may_hold_passes_every_card_of_every_meld` holds [`may_hold`] and [`Reach::may_hold_any`] to
//!   every meld the hand makes.
//! - This module's unit tests (`contract/tests/`): `relaxed.rs` holds `may_meet` to the search
//!   exactly where it relaxes nothing, and its cost of equal sets to every choice of ranks;
//!   `flow.rs` holds `first_flow` to the network and `one_meld` to the search; `search.rs` holds
//!   the template lists to a plain sort and checks the pruning bound's counts.

mod flow;
mod hand;
mod one_meld;
mod reach;
mod relaxed;
mod search;
mod templates;
#[cfg(test)]
mod tests;

pub use reach::{Reach, may_hold};
pub use search::{Laydown, laydown, search_laydown};

use crate::base::card::Card;
use crate::oracle::meld::{self, Interpretation, Query};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};

/// The result of checking melds against a contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractCheck {
    pub satisfied: bool,
    /// For each meld given, the contract meld it fills (`None`: an extra meld).
    pub assignment: Vec<Option<Component>>,
    pub reason: String,
    /// The contract is met, but melds beyond it must wait (contract-turn-extras=next-turn).
    pub extras_wait: bool,
    /// Under `contract.check: pooled`, where it is met: the contract melds found among all the
    /// cards laid (every meld laid then counts as the contract's, and `assignment` is all `None`).
    pub regrouped: Option<Vec<(Component, Vec<Card>)>>,
}

/// Whether a meld of `n` cards is the right size for contract meld `c` (`contract-sizes`).
pub fn size_ok(rules: &Rules, c: Component, n: usize) -> bool {
    match rules.readings.contract_sizes {
        reading::ContractSizes::Minimum => n >= usize::from(c.size),
        reading::ContractSizes::Exact => n == usize::from(c.size),
    }
}

/// The fewest cards a set laid towards `contract` may have: `sets.min-size`, or less where the
/// contract names a set of a fixed rank smaller than that (`set of 2 aces`). A set below
/// `sets.min-size` is then a meld only as such a contract meld ([`fills`], [`ordinary`]).
pub fn set_floor(rules: &Rules, contract: &[Component]) -> u8 {
    contract
        .iter()
        .filter(|c| c.rank.is_some())
        .fold(rules.set_min, |m, c| m.min(c.size))
}

/// Whether a meld of `n` cards read as `x` fills contract meld `c`: its kind, its rank where `c`
/// names one, and a size [`size_ok`] takes. (A set of no fixed rank is at least `sets.min-size`:
/// `rules check` refuses a smaller one, so the size decides.)
pub fn fills(rules: &Rules, c: Component, n: usize, x: &Interpretation) -> bool {
    x.kind == c.kind && size_ok(rules, c, n) && c.rank.is_none_or(|r| x.rank == Some(r))
}

/// Whether a meld of `n` cards read as `x` is a meld outside the contract too: a run, or a set of
/// at least `sets.min-size` (a smaller set is one only as a contract meld of a fixed rank).
pub fn ordinary(rules: &Rules, n: usize, x: &Interpretation) -> bool {
    x.kind == MeldKind::Run || n >= usize::from(rules.set_min)
}

/// Checks whether `melds` (with their queries' declarations) meet `contract` in one laydown.
pub fn check(rules: &Rules, contract: &[Component], melds: &[Query]) -> ContractCheck {
    let mut interps: Vec<Vec<Interpretation>> = Vec::new();
    let floor = set_floor(rules, contract);
    for (i, q) in melds.iter().enumerate() {
        let v = meld::interpret_at(rules, q, floor);
        if !v.is_valid() {
            return ContractCheck {
                satisfied: false,
                assignment: vec![None; melds.len()],
                reason: format!(
                    "meld {} ({}) is not valid: {}",
                    i + 1,
                    crate::base::card::pretty_cards(&q.cards),
                    v.reason
                ),
                extras_wait: false,
                regrouped: None,
            };
        }
        interps.push(v.interpretations);
    }
    let cards: Vec<&[Card]> = melds.iter().map(|q| &q.cards[..]).collect();
    check_interpreted(rules, contract, &cards, &interps)
}

/// [`check`] for melds already interpreted: `interps[i]` is every interpretation of the meld of
/// cards `melds[i]` (as [`meld::interpret_at`] gives them, sets from [`set_floor`] cards on), and
/// none is empty.
pub fn check_interpreted(
    rules: &Rules,
    contract: &[Component],
    melds: &[&[Card]],
    interps: &[Vec<Interpretation>],
) -> ContractCheck {
    if rules.contract_pooled {
        return pooled(rules, contract, melds);
    }
    let mut best: Option<Vec<Option<Component>>> = None;
    let mut assign = vec![None; melds.len()];
    let mut filled = vec![false; contract.len()];
    let mut chosen: Vec<Option<&Interpretation>> = vec![None; melds.len()];
    search_assignment(
        rules,
        contract,
        melds,
        interps,
        0,
        &mut assign,
        &mut filled,
        &mut chosen,
        &mut best,
    );
    match best {
        Some(a) => {
            let extras = a.iter().filter(|x| x.is_none()).count();
            if extras > 0
                && rules.readings.contract_turn_extras == reading::ContractTurnExtras::NextTurn
            {
                return ContractCheck {
                    satisfied: false,
                    assignment: a,
                    reason: format!(
                        "{extras} meld(s) beyond the contract must wait for the next turn (contract-turn-extras=next-turn)"
                    ),
                    extras_wait: true,
                    regrouped: None,
                };
            }
            ContractCheck {
                satisfied: true,
                assignment: a,
                reason: String::new(),
                extras_wait: false,
                regrouped: None,
            }
        }
        None => ContractCheck {
            satisfied: false,
            assignment: vec![None; melds.len()],
            reason: why_not(rules, contract, melds, interps),
            extras_wait: false,
            regrouped: None,
        },
    }
}

/// `contract.check: pooled`: the melds (each a legal meld, checked by the caller) meet the
/// contract when all their cards together hold a laydown of it ([`laydown`]), however they are
/// grouped. There are no extras: every meld laid belongs to the contract laydown.
fn pooled(rules: &Rules, contract: &[Component], melds: &[&[Card]]) -> ContractCheck {
    let mut all = crate::base::card::Counts::new();
    for c in melds.iter().flat_map(|m| m.iter()) {
        all.add(*c);
    }
    match laydown(rules, contract, &all) {
        Some(l) => ContractCheck {
            satisfied: true,
            assignment: vec![None; melds.len()],
            reason: String::new(),
            extras_wait: false,
            regrouped: Some(l.melds),
        },
        None => {
            let parts: Vec<String> = contract.iter().map(ToString::to_string).collect();
            ContractCheck {
                satisfied: false,
                assignment: vec![None; melds.len()],
                reason: format!(
                    "the {} card(s) laid down do not hold {} in any grouping (contract.check: pooled)",
                    all.len(),
                    parts.join(" + ")
                ),
                extras_wait: false,
                regrouped: None,
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn search_assignment<'a>(
    rules: &Rules,
    contract: &[Component],
    melds: &[&[Card]],
    interps: &'a [Vec<Interpretation>],
    i: usize,
    assign: &mut Vec<Option<Component>>,
    filled: &mut Vec<bool>,
    chosen: &mut Vec<Option<&'a Interpretation>>,
    best: &mut Option<Vec<Option<Component>>>,
) {
    if best.is_some() {
        return;
    }
    if i == melds.len() {
        if filled.iter().all(|&f| f) && constraints_hold(rules, assign, chosen) {
            *best = Some(assign.clone());
        }
        return;
    }
    let n = melds[i].len();
    for (j, &c) in contract.iter().enumerate() {
        if filled[j] || !size_ok(rules, c, n) {
            continue;
        }
        for interp in interps[i].iter().filter(|x| fills(rules, c, n, x)) {
            filled[j] = true;
            assign[i] = Some(c);
            chosen[i] = Some(interp);
            search_assignment(
                rules,
                contract,
                melds,
                interps,
                i + 1,
                assign,
                filled,
                chosen,
                best,
            );
            filled[j] = false;
            assign[i] = None;
            chosen[i] = None;
            if best.is_some() {
                return;
            }
        }
    }
    // An extra meld, beyond the contract: a meld of its own (no set below `sets.min-size`).
    if melds.len() - i > filled.iter().filter(|&&f| !f).count()
        && let Some(x) = interps[i].iter().find(|x| ordinary(rules, n, x))
    {
        chosen[i] = Some(x);
        search_assignment(
            rules,
            contract,
            melds,
            interps,
            i + 1,
            assign,
            filled,
            chosen,
            best,
        );
        chosen[i] = None;
    }
}

fn constraints_hold(
    rules: &Rules,
    assign: &[Option<Component>],
    chosen: &[Option<&Interpretation>],
) -> bool {
    let in_contract = || {
        assign
            .iter()
            .zip(chosen.iter())
            .filter(|(a, _)| a.is_some())
            .filter_map(|(_, c)| *c)
    };
    if rules.readings.same_rank_sets == reading::SameRankSets::Forbidden {
        let mut seen = [false; 14];
        for i in chosen.iter().flatten().filter(|i| i.kind == MeldKind::Set) {
            let r = usize::from(i.rank.expect("sets have a rank").number());
            if seen[r] {
                return false;
            }
            seen[r] = true;
        }
    }
    if rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::DifferentRuns {
        // No two contract runs are the same run: the same ranks in the same suit (any suits:
        // the same ranks).
        let runs: Vec<&Interpretation> =
            in_contract().filter(|i| i.kind == MeldKind::Run).collect();
        for (k, a) in runs.iter().enumerate() {
            if runs[k + 1..].iter().any(|b| same_run(a, b)) {
                return false;
            }
        }
    }
    if rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::Forbidden {
        let mut seen = [false; 4];
        for i in in_contract().filter(|i| i.kind == MeldKind::Run) {
            match i.suit {
                Some(s) => {
                    if seen[s as usize] {
                        return false;
                    }
                    seen[s as usize] = true;
                }
                None => {
                    // Under any-suits, runs are "different" when no suit of a natural card repeats.
                    for r in i.roles.iter().filter(|r| r.natural) {
                        let s = r.card.suit().expect("naturals are suited") as usize;
                        if seen[s] {
                            return false;
                        }
                    }
                    for r in i.roles.iter().filter(|r| r.natural) {
                        seen[r.card.suit().expect("naturals are suited") as usize] = true;
                    }
                }
            }
        }
    }
    true
}

/// Whether two runs are the same run (`same-suit-runs-in-contract=different-runs`): the same
/// suit (both `None` under any suits) and the same ranks, place by place.
fn same_run(a: &Interpretation, b: &Interpretation) -> bool {
    a.suit == b.suit
        && a.roles.len() == b.roles.len()
        && a.roles
            .iter()
            .zip(&b.roles)
            .all(|(x, y)| x.stands_for.rank() == y.stands_for.rank())
}

fn why_not(
    rules: &Rules,
    contract: &[Component],
    melds: &[&[Card]],
    interps: &[Vec<Interpretation>],
) -> String {
    let want: Vec<String> = contract.iter().map(Component::to_string).collect();
    let want = want.join(" + ");
    if melds.len() < contract.len() {
        return format!("the contract is {want}; {} meld(s) given", melds.len());
    }
    for (i, cards) in melds.iter().enumerate() {
        let n = cards.len();
        let fits = contract
            .iter()
            .any(|&c| interps[i].iter().any(|x| fills(rules, c, n, x)));
        if !fits {
            let kinds: Vec<&str> = interps[i].iter().map(|x| x.kind.name()).collect();
            let what = if kinds.contains(&"set") { "set" } else { "run" };
            let exact = if rules.readings.contract_sizes == reading::ContractSizes::Exact {
                " (contract-sizes=exact)"
            } else {
                ""
            };
            return format!(
                "meld {} ({}) is a {what} of {n}, which fills no part of the contract {want}{exact}",
                i + 1,
                crate::base::card::pretty_cards(cards)
            );
        }
    }
    let small = melds
        .iter()
        .zip(interps)
        .filter(|(cards, v)| !v.iter().any(|x| ordinary(rules, cards.len(), x)))
        .count();
    let fixed_small = contract
        .iter()
        .filter(|c| c.rank.is_some() && c.size < rules.set_min)
        .count();
    if small > fixed_small {
        return format!(
            "{small} of the melds are sets below {} cards, which are melds only as a contract set of one rank ({fixed_small} in {want})",
            rules.set_min
        );
    }
    if rules.readings.same_rank_sets == reading::SameRankSets::Forbidden {
        return format!(
            "the melds cannot fill {want} with sets of different ranks (same-rank-sets=forbidden)"
        );
    }
    if rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::DifferentRuns {
        return format!(
            "the melds cannot fill {want} with runs that differ from each other (same-suit-runs-in-contract=different-runs)"
        );
    }
    if rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::Forbidden {
        return format!(
            "the melds cannot fill {want} with runs of different suits (same-suit-runs-in-contract=forbidden)"
        );
    }
    format!("the melds do not fill the contract {want}")
}
