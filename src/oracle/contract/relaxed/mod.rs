//! The relaxed check [`may_meet`]: a quick necessary condition for a laydown, asked before every
//! search, which turns most hands away without searching. It says "no" only where the search
//! finds nothing: `tests/integration/laydown.rs` holds [`laydown`] (which asks it first) to a brute force,
//! and the unit tests in `contract/tests/relaxed.rs` hold it to the search exactly where it
//! relaxes nothing, and its cost of equal sets ([`SetsShape::cost`]) to every choice of ranks.
//! Reads the hand and the rules; knows nothing of templates or the flow.
//!
//! In two parts: the runs' (`runs.rs`), the fewest wilds the runs need; then the sets'
//! (`sets.rs`), whether the sets fit in the wilds the runs leave.
//!
//! [`laydown`]: super::laydown
//! [`SetsShape::cost`]: sets::SetsShape::cost

use super::hand::RunNaturals;
use crate::base::card::Counts;
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::Component;

mod runs;
mod sets;

use runs::RunPools;
use sets::sets_fit;
#[cfg(test)]
pub(super) use sets::{SET_STEPS, SetsShape, lanes_equal, suits_per_rank};

/// A quick necessary condition for [`laydown`], without allocating: the contract relaxed so that
/// one natural card may count towards several contract melds and per-meld limits on wilds are
/// ignored. Each set takes a rank and each run a window, and the wild cards must fill what the
/// naturals leave open. `false` means no laydown exists; `true` decides nothing.
///
/// Sets of one size cost what their cheapest steps cost ([`SetsShape::cost`]). Sets of several
/// sizes (and a set and a run at exactly the hand's wilds, which may share a card) take the
/// enumeration, which needs only a few candidate ranks: a group of `j` sets on one rank can move
/// to any unused rank whose `j` sets would hold at least as many naturals without needing more
/// wilds, so for `m` sets the `m` best ranks for each group size `j` suffice.
///
/// In steps: the pools of runs read from the hand ([`RunPools`]), the wilds the runs need at
/// least ([`RunPools::need`]), then whether the sets fit in what is left ([`sets_fit`]).
///
/// `naturals` and `wilds` are the hand's, as [`read_hand`] reads them (the search reads them
/// once for both).
///
/// [`laydown`]: super::laydown
/// [`SetsShape::cost`]: sets::SetsShape::cost
/// [`read_hand`]: super::hand::read_hand
pub(super) fn may_meet(
    rules: &Rules,
    contract: &[Component],
    hand: &Counts,
    naturals: &RunNaturals,
    wilds: usize,
) -> bool {
    let all_wild = rules.readings.all_wild_melds == reading::AllWildMelds::Allowed;
    let forbid_dup = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    // Runs: per suit (one pool under any-suits), the places a hand card can fill naturally and
    // how many such cards there are. Runs sharing a pool share its cards: together they hold at
    // most the pool's cards, and each at most its best window's places.
    //
    // A wild 2 that may stand for itself in a run is already counted among the wilds, so it is
    // not counted again as a natural (as a wild it could fill its own place anyway: `plain`); it
    // still anchors a window where melds need a natural card (`anchors`).
    let (masks, anchors, totals) = (naturals.plain, naturals.places, naturals.plain_cards);
    let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
    let any = [masks.iter().fold(0, |a, m| a | m)];
    let any_anchor = [anchors.iter().fold(0, |a, m| a | m)];
    let any_total = [totals.iter().sum::<usize>()];
    let (pools, pool_anchors, pool_totals): (&[u32], &[u32], &[usize]) = if same_suit {
        (&masks, &anchors, &totals)
    } else {
        (&any, &any_anchor, &any_total)
    };
    let runs = RunPools {
        rules,
        naturals,
        pools,
        anchors: pool_anchors,
        totals: pool_totals,
        same_suit,
        all_wild,
    };
    let Some(need) = runs.need(contract, wilds) else {
        return false;
    };
    if need.wilds > wilds {
        return false;
    }
    sets_fit(contract, hand, &runs, &need, wilds, forbid_dup)
}
