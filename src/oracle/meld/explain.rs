//! Why cards form no meld: the first rule or reading a refused set or run breaks, in words.
//! Read only where the search found nothing; the messages reach the transcripts and the
//! conformance goldens word for word.

use super::{NO_KINDS, Parts, all_wild_ok, parts};
use crate::base::card::{Card, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::MeldKind;

/// Why the cards form no meld, in words, naming the rule or reading at fault.
pub fn explain(rules: &Rules, cards: &[Card], kind: Option<MeldKind>) -> String {
    let (mut naturals, mut wilds) = (NO_KINDS, NO_KINDS);
    let p = parts(rules, cards, &mut naturals, &mut wilds);
    let set = || explain_set(rules, &p);
    let run = || explain_run(rules, &p);
    match kind {
        Some(MeldKind::Set) => set(),
        Some(MeldKind::Run) => run(),
        None => {
            let (s, r) = (set(), run());
            if s == r {
                s
            } else {
                format!("not a set ({s}) and not a run ({r})")
            }
        }
    }
}

/// Where a 2 is natural under `natural-twos` (twos wild and no set of twos natural), in words.
fn two_natural_where(rules: &Rules) -> String {
    let reading = rules.readings.natural_twos;
    match reading {
        reading::NaturalTwos::Never => {
            format!("a 2 is never natural (natural-twos={})", reading.name())
        }
        _ => format!(
            "a 2 is natural only in a run (natural-twos={})",
            reading.name()
        ),
    }
}

/// Why no set has rank 2, where none does: twos are wild and not natural in sets
/// (`natural-twos=runs-only` or `never`), so a set of twos would hold only wilds, and no set of
/// twos is made, of twos or of other wilds. `None` where a set of twos may exist.
pub fn no_set_of_twos(rules: &Rules) -> Option<String> {
    (!rules.natural_two_in_sets()).then(|| {
        let reading = rules.readings.natural_twos;
        let where_natural = match reading {
            reading::NaturalTwos::Never => "a 2 is never natural",
            _ => "a 2 is natural only in a run",
        };
        format!(
            "there is no set of twos under natural-twos={} ({where_natural}, and a set of twos would hold only wilds): wild cards make sets of the other ranks only",
            reading.name()
        )
    })
}

/// Why cards that make a meld make none under the limits on wild cards (`wilds.*`): the first
/// interpretation without the limits, and the limit it breaks. `None` where no limit is set or the
/// cards make no meld even without them.
pub fn beyond_limits(rules: &Rules, cards: &[Card], kind: Option<MeldKind>) -> Option<String> {
    let l = rules.wild_limits;
    if !l.active() {
        return None;
    }
    let mut unlimited = rules.clone();
    unlimited.wild_limits = crate::rules::WildLimits::default();
    let mut first = None;
    super::for_each(&unlimited, cards, kind, &mut |i| {
        first = Some(i);
        false
    });
    let i = first?;
    let wilds = i.wilds().count();
    let naturals = i.roles.len() - wilds;
    let broken = if l.max.is_some_and(|m| wilds > usize::from(m)) {
        format!(
            "at most {} wild card(s) in a meld (wilds.max-per-meld)",
            l.max.unwrap_or(0)
        )
    } else if l.not_outnumbering && wilds > naturals {
        "no more wild cards than natural ones (wilds.may-outnumber-naturals=false)".to_string()
    } else if naturals < usize::from(l.min_naturals) {
        format!(
            "at least {} natural card(s) in a meld (wilds.min-naturals)",
            l.min_naturals
        )
    } else {
        "no two wild cards side by side in a run (wilds.side-by-side-in-runs=false)".to_string()
    };
    Some(format!(
        "read as a meld ({}: {naturals} natural, {wilds} wild) it breaks a limit on wild cards: {broken}",
        i.describe()
    ))
}

fn plural(rank: Rank) -> String {
    match rank {
        Rank::Ace => "aces".into(),
        Rank::Jack => "jacks".into(),
        Rank::Queen => "queens".into(),
        Rank::King => "kings".into(),
        r => format!("{}s", r.name()),
    }
}

fn explain_set(rules: &Rules, p: &Parts<'_>) -> String {
    let n = p.n;
    if n < usize::from(rules.set_min) {
        return format!("a set needs at least {} cards; this has {n}", rules.set_min);
    }
    if rules.readings.set_max_size == reading::SetMaxSize::V4 && n > 4 {
        return format!(
            "a set holds at most 4 cards, wilds included (set-max-size=4); this has {n}"
        );
    }
    // The rank most naturals share; name a card that differs.
    let mut by_rank = [0usize; 14];
    for (c, k) in p.naturals {
        by_rank[usize::from(c.rank().expect("suited").number())] += usize::from(*k);
    }
    if let Some(main) = (1..14)
        .max_by_key(|&r| (by_rank[r], std::cmp::Reverse(r)))
        .filter(|&r| by_rank[r] > 0)
    {
        let main = Rank::from_number(main as u8).expect("1..=13");
        if let Some((odd, _)) = p.naturals.iter().find(|(c, _)| c.rank() != Some(main)) {
            return format!(
                "a set needs one rank: {} among {}",
                odd.pretty(),
                plural(main)
            );
        }
        if rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden
            && let Some((dup, _)) = p.naturals.iter().find(|(_, k)| *k > 1)
        {
            return format!(
                "a set may not repeat a suit: two {} (set-duplicate-suits=forbidden)",
                dup.pretty()
            );
        }
    } else {
        // No naturals but wild-capable cards.
        if !all_wild_ok(rules) {
            let twos = p.wilds.iter().any(|(c, _)| c.is_two());
            return if twos && !rules.natural_two_in_sets() {
                format!(
                    "a meld needs at least one natural card (all-wild-melds=forbidden), and {}",
                    two_natural_where(rules)
                )
            } else {
                "a meld needs at least one natural card (all-wild-melds=forbidden)".into()
            };
        }
    }
    // Natural or wild, each card of such a set has a suit of its own: four at most.
    if rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard
        && rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden
        && n > 4
    {
        return "each wild in a set stands for a card of its own suit, so a set holds at most 4 cards (wild-in-set-represents=exact-card, set-duplicate-suits=forbidden)".into();
    }
    // Not reached by any refused set that `tests/integration/mutants.rs::a_refused_set_says_why` tries; kept
    // so that a rule the checks above miss still gets an answer.
    "these cards form no set under these rules".into()
}

fn explain_run(rules: &Rules, p: &Parts<'_>) -> String {
    let n = p.n;
    if n < usize::from(rules.run_min) {
        return format!("a run needs at least {} cards; this has {n}", rules.run_min);
    }
    if n > rules.max_run() {
        return format!(
            "a run holds at most {} cards under these rules; this has {n}",
            rules.max_run()
        );
    }
    let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
    if same_suit {
        let mut by_suit = [0usize; 4];
        for (c, k) in p.naturals {
            by_suit[c.suit().expect("suited") as usize] += usize::from(*k);
        }
        let main = (0..4)
            .max_by_key(|&s| (by_suit[s], std::cmp::Reverse(s)))
            .map(Suit::from_index);
        if let Some(main) = main
            && let Some((odd, _)) = p.naturals.iter().find(|(c, _)| c.suit() != Some(main))
        {
            return format!(
                "a run needs one suit: {} among {} (run-suits=same-suit)",
                odd.pretty(),
                suit_plural(main)
            );
        }
    }
    // Two naturals of one rank (other than aces, which may sit at both ends).
    let mut by_rank = [0usize; 14];
    for (c, k) in p.naturals {
        by_rank[usize::from(c.rank().expect("suited").number())] += usize::from(*k);
    }
    for (r, &count) in by_rank.iter().enumerate().skip(2) {
        if count > 1 {
            let rank = Rank::from_number(r as u8).expect("2..=13");
            let card = p
                .naturals
                .iter()
                .find(|(c, _)| c.rank() == Some(rank))
                .map(|(c, _)| *c);
            return match (same_suit, card) {
                (true, Some(c)) => format!("a run cannot hold two {}", c.pretty()),
                _ => format!("a run cannot hold two {}", plural(rank)),
            };
        }
    }
    if by_rank[1] > 1 && rules.readings.ace_both_ends == reading::AceBothEnds::Forbidden {
        return "a run may not have an ace at both ends (ace-both-ends=forbidden)".into();
    }
    if by_rank[2] > 0 && !rules.two_in_sequence {
        return "2 is not a rank in a sequence in this game (runs.two-in-sequence=false)".into();
    }
    let ranks: Vec<String> = p
        .naturals
        .iter()
        .map(|(c, _)| c.rank().expect("suited").name().to_string())
        .collect();
    if by_rank[1] > 0 && rules.readings.ace_position == reading::AcePosition::HighOnly {
        return format!(
            "the ranks {} do not fit one run of {n} with the ace high only (ace-position=high-only)",
            ranks.join(" ")
        );
    }
    if !all_wild_ok(rules) && p.naturals.is_empty() {
        return "a meld needs at least one natural card (all-wild-melds=forbidden)".into();
    }
    format!(
        "the ranks {} do not fit one run of {n} cards (a run is consecutive; an ace ends it, and it cannot turn the corner K-A-2)",
        ranks.join(" ")
    )
}

fn suit_plural(s: Suit) -> &'static str {
    ["spades", "hearts", "diamonds", "clubs"][s as usize]
}
