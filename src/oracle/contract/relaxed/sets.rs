//! The sets part of the relaxed check: whether the contract's sets fit in the wilds the runs
//! leave ([`sets_fit`]), by the cheapest steps of equal sets ([`SetsShape::cost`]) or over a few
//! candidate ranks, and whether a set and a run would have to share a card ([`SetAndRun`]).

use super::super::hand::anchored_windows;
use super::runs::{RunPools, RunsNeed};
use crate::base::card::Counts;
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};

/// Whether the contract's sets fit in the wilds the runs leave (`need`), every set taking a rank:
/// by [`SetsShape::cost`] where the sets are of one size, otherwise over a few candidate ranks
/// ([`candidate_ranks`]); a set and a run at exactly the hand's wilds are asked whether they
/// would share a card ([`SetAndRun::collide`]).
#[inline]
pub(super) fn sets_fit(
    contract: &[Component],
    hand: &Counts,
    runs: &RunPools,
    need: &RunsNeed,
    wilds: usize,
    forbid_dup: bool,
) -> bool {
    let rules = runs.rules;
    let all_wild = runs.all_wild;
    let (r, run_sizes, need) = (need.count, need.sizes, need.wilds);
    // Sets: every assignment of the set components to the candidate ranks.
    let m = contract.iter().filter(|c| c.kind == MeldKind::Set).count();
    if m == 0 {
        return true;
    }
    if m > 4 {
        // Too many to enumerate cheaply; the full search decides.
        return true;
    }
    // Straight from the counts by card index (suit * 13 + rank number - 1, the joker last): this
    // runs before most laydown searches, most of which it ends.
    let counts = hand.by_index();
    let distinct = rules.readings.same_rank_sets == reading::SameRankSets::Forbidden;
    let twos = rules.natural_two_in_sets();
    let size = contract
        .iter()
        .find(|c| c.kind == MeldKind::Set)
        .map_or(0, |c| usize::from(c.size));
    let equal = contract
        .iter()
        .all(|c| c.kind != MeldKind::Set || usize::from(c.size) == size);
    if equal && size < SET_STEPS {
        let shape = SetsShape {
            sets: m,
            size,
            distinct,
            forbid_dup,
            all_wild,
            twos,
        };
        let Some(sets) = shape.cost(counts, hand.present(), hand.holds_copies()) else {
            return false;
        };
        // One set and one run at exactly the hand's wilds: below, whether they would share a
        // card and need one more.
        if !(need + sets == wilds && m == 1 && r == 1 && contract.len() == 2) {
            return need + sets <= wilds;
        }
    }
    let (nat, usable_by) = naturals_by_rank(counts, m, forbid_dup);
    let (candidates, k) = candidate_ranks(&usable_by, m, distinct || !forbid_dup, twos);
    let candidates = &candidates[..k];
    let sizes = contract
        .iter()
        .filter(|c| c.kind == MeldKind::Set)
        .map(|c| c.size);
    let first = usize::from(sizes.clone().next().unwrap_or(0));
    if sizes.clone().all(|x| usize::from(x) == first) {
        let least = equal_sets_least(candidates, &usable_by, m, first, distinct, all_wild, need);
        // One set and one run at exactly the hand's wilds: one more where they would share a card.
        if least == wilds && m == 1 && r == 1 && contract.len() == 2 {
            let set_and_run = SetAndRun {
                sizes: (first, run_sizes[0]),
                nat: &nat,
                usable: &usable_by[1],
                pools: runs.pools,
                anchors: runs.anchors,
                totals: runs.totals,
                same_suit: runs.same_suit,
                all_wild,
                forbid_dup,
                twos,
            };
            return !set_and_run.collide(rules);
        }
        return least <= wilds;
    }
    sets_by_every_choice(
        contract, candidates, &usable_by, distinct, all_wild, need, wilds,
    )
}

/// The hand's natural cards per rank and suit (`counts` by card index), and the naturals of each
/// rank that `j` sets of it can hold between them (`usable_by[j]`, for `j` from 1 to `m`; where
/// suits may not repeat, `j` of each suit at most).
fn naturals_by_rank(
    counts: &[u8; crate::base::card::KINDS],
    m: usize,
    forbid_dup: bool,
) -> ([[usize; 4]; 13], [[usize; 13]; 5]) {
    // Natural cards per rank and suit. The twos are counted too: where they cannot be natural in
    // a set, no set takes their rank.
    let mut nat = [[0usize; 4]; 13];
    for (si, suit) in counts[..52].chunks_exact(13).enumerate() {
        for (r, &k) in suit.iter().enumerate() {
            nat[r][si] += usize::from(k);
        }
    }
    // The naturals of rank `r` that `j` sets of it can hold between them (`j <= m`), counted
    // once here: the choices of ranks ask again and again.
    let mut usable_by = [[0usize; 13]; 5];
    for (j, row) in usable_by.iter_mut().enumerate().take(m + 1).skip(1) {
        for (slot, counts) in row.iter_mut().zip(&nat) {
            *slot = counts
                .iter()
                .map(|&c| if forbid_dup { c.min(j) } else { c })
                .sum();
        }
    }
    (nat, usable_by)
}

/// The ranks [`sets_fit`] weighs for `m` sets, and how many: for each group size `j` (only 1
/// where `one_group`: sets may not share a rank, or `j` sets of a rank hold its every natural
/// alike), the `m` ranks whose `j` sets hold the most naturals (`usable_by[j]`; ties: lower rank
/// first), each rank once; never the 2 where a set of twos may not be made.
fn candidate_ranks(
    usable_by: &[[usize; 13]; 5],
    m: usize,
    one_group: bool,
    twos: bool,
) -> ([usize; 16], usize) {
    let usable = |r: usize, j: usize| -> usize { usable_by[j][r] };
    let mut candidates = [0usize; 16];
    let mut k = 0;
    let group_sizes = if one_group { 1 } else { m };
    for j in 1..=group_sizes {
        // The `m` ranks whose `j` sets hold the most naturals (ties: lower rank first).
        let mut key = [0usize; 13];
        let mut taken = [false; 13];
        for (r, slot) in key.iter_mut().enumerate() {
            *slot = usable(r, j);
        }
        taken[1] = !twos;
        for _ in 0..m {
            // The first of the best (a plain loop: this runs for most laydown searches).
            let mut pick = None;
            for r in 0..13 {
                if !taken[r] && pick.is_none_or(|p: usize| key[r] > key[p]) {
                    pick = Some(r);
                }
            }
            let Some(r) = pick else {
                break;
            };
            taken[r] = true;
            if !candidates[..k].contains(&r) {
                candidates[k] = r;
                k += 1;
            }
        }
    }
    (candidates, k)
}

/// The fewest wilds `m` equal sets of `size` need among the `candidates` ranks, beside the runs'
/// `need`. A group is just a count, so choose how many sets each candidate takes (least wilds for
/// `t` sets among the first candidates, one candidate at a time); `usize::MAX` where none.
fn equal_sets_least(
    candidates: &[usize],
    usable_by: &[[usize; 13]; 5],
    m: usize,
    size: usize,
    distinct: bool,
    all_wild: bool,
    need: usize,
) -> usize {
    let usable = |r: usize, j: usize| -> usize { usable_by[j][r] };
    let mut dp = [usize::MAX; 5];
    dp[0] = need;
    for &r in candidates {
        let mut next = dp;
        for t in 0..m {
            if dp[t] == usize::MAX {
                continue;
            }
            let most = if distinct { 1 } else { m - t };
            for j in 1..=most {
                if usable(r, 1) == 0 && !all_wild {
                    break;
                }
                let cost = dp[t] + (j * size).saturating_sub(usable(r, j));
                next[t + j] = next[t + j].min(cost);
            }
        }
        dp = next;
    }
    dp[m]
}

/// Whether sets of several sizes fit in `wilds` beside the runs' `need`: every assignment of the
/// contract's sets to the `candidates` ranks.
fn sets_by_every_choice(
    contract: &[Component],
    candidates: &[usize],
    usable_by: &[[usize; 13]; 5],
    distinct: bool,
    all_wild: bool,
    need: usize,
    wilds: usize,
) -> bool {
    let usable = |r: usize, j: usize| -> usize { usable_by[j][r] };
    let k = candidates.len();
    let m = contract.iter().filter(|c| c.kind == MeldKind::Set).count();
    let combos = k.pow(u32::try_from(m).unwrap_or(u32::MAX));
    'combo: for code in 0..combos {
        let mut group = [(0usize, 0usize); 16];
        let mut c = code;
        for comp in contract.iter().filter(|c| c.kind == MeldKind::Set) {
            let slot = c % k;
            c /= k;
            if distinct && group[slot].1 > 0 {
                continue 'combo;
            }
            group[slot].0 += usize::from(comp.size);
            group[slot].1 += 1;
        }
        let mut cost = need;
        for (slot, &(g, j)) in group.iter().enumerate().take(k) {
            if j == 0 {
                continue;
            }
            let r = candidates[slot];
            if usable(r, 1) == 0 && !all_wild {
                continue 'combo;
            }
            cost += g.saturating_sub(usable(r, j));
        }
        if cost <= wilds {
            return true;
        }
    }
    false
}

/// A set's size below which [`SetsShape::cost`] applies: the most wilds one more set can need,
/// plus one.
pub(in crate::oracle::contract) const SET_STEPS: usize = 16;

/// Equal sets as [`may_meet`] weighs them: how many, their size, and the readings that decide
/// which ranks they may take and how many naturals a rank gives them.
///
/// [`may_meet`]: super::may_meet
pub(in crate::oracle::contract) struct SetsShape {
    pub(in crate::oracle::contract) sets: usize,
    pub(in crate::oracle::contract) size: usize,
    /// No two sets of one rank (`same-rank-sets=forbidden`).
    pub(in crate::oracle::contract) distinct: bool,
    /// No suit twice in a set: `j` sets of a rank hold at most `j` naturals of each suit.
    pub(in crate::oracle::contract) forbid_dup: bool,
    /// A set may be all wild: ranks the hand holds none of count too.
    pub(in crate::oracle::contract) all_wild: bool,
    /// A set of twos may be made (twos may be natural in sets).
    pub(in crate::oracle::contract) twos: bool,
}

impl SetsShape {
    /// The fewest wilds the sets need beside the hand's naturals (by card index, as
    /// [`Counts::by_index`] gives them), their ranks chosen as well as can be; `None` where no
    /// choice of ranks can hold them. `size < SET_STEPS`; `copies`: whether some card is counted
    /// more than once ([`Counts::holds_copies`]).
    ///
    /// What `j` sets of one rank need, `max(0, j * size - usable(j))`, grows by steps that never
    /// shrink (`usable(j)` grows by the suits with `j` copies or more, fewer and fewer), so
    /// the cheapest choice of ranks takes the `sets` cheapest steps among all ranks: a rank's
    /// second set never comes cheaper than its first.
    ///
    /// Read by groups of ranks: where no card is held three times or more, a rank's steps
    /// depend only on how many suits it holds once or more (`u1`) and twice (`u2`), so the ranks
    /// with each pair of counts are counted at once, from the hand's masks by suit
    /// ([`suits_per_rank`]). Otherwise rank by rank ([`SetsShape::cost_by_ranks`]).
    pub(in crate::oracle::contract) fn cost(
        &self,
        counts: &[u8; crate::base::card::KINDS],
        present: u64,
        copies: bool,
    ) -> Option<usize> {
        // The cards held twice: none where no card is held more than once.
        let mut twice = 0u64;
        let mut bits = if copies { present & ((1 << 52) - 1) } else { 0 };
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match counts[i] {
                0 | 1 => {}
                2 => twice |= 1 << i,
                _ => return self.cost_by_ranks(counts),
            }
        }
        let (once, two) = (suits_per_rank(present), suits_per_rank(twice));
        let per_rank = if self.distinct { 1 } else { self.sets };
        let ranks: u16 = if self.twos { 0x1FFF } else { 0x1FFF & !0b10 };
        let mut steps = [0usize; SET_STEPS];
        for u1 in 0..=4 {
            let with_u1 = ranks & lanes_equal(once, u1);
            if with_u1 == 0 {
                continue;
            }
            // No card held twice: every rank's `u2` is 0.
            let most_twice = if twice == 0 { 0 } else { u1 };
            for u2 in 0..=most_twice {
                let n = (with_u1 & lanes_equal(two, u2)).count_ones() as usize;
                let total = u1 + u2;
                if n == 0 || (total == 0 && !self.all_wild) {
                    continue;
                }
                // Each copy of a suit beyond the first serves a second set of the rank only.
                let mut before = 0;
                for j in 1..=per_rank {
                    let usable = if self.forbid_dup && j == 1 { u1 } else { total };
                    let cost = (j * self.size).saturating_sub(usable);
                    steps[cost - before] += n;
                    before = cost;
                }
            }
        }
        self.cheapest(&steps)
    }

    /// [`SetsShape::cost`] rank by rank, for any number of copies of a card.
    pub(in crate::oracle::contract) fn cost_by_ranks(
        &self,
        counts: &[u8; crate::base::card::KINDS],
    ) -> Option<usize> {
        let per_rank = if self.distinct { 1 } else { self.sets };
        // How many steps there are of each cost (a step adds one set: at most `size` wilds).
        let mut steps = [0usize; SET_STEPS];
        for r in 0..13 {
            if r == 1 && !self.twos {
                continue;
            }
            let k = [0, 13, 26, 39].map(|suit| usize::from(counts[suit + r]));
            let total: usize = k.iter().sum();
            if total == 0 && !self.all_wild {
                continue;
            }
            let (mut usable, mut before) = (0, 0);
            for j in 1..=per_rank {
                usable = if self.forbid_dup {
                    usable + k.iter().filter(|&&c| c >= j).count()
                } else {
                    total
                };
                let cost = (j * self.size).saturating_sub(usable);
                steps[cost - before] += 1;
                before = cost;
            }
        }
        self.cheapest(&steps)
    }

    /// The cost of the `sets` cheapest steps, given how many steps there are of each cost;
    /// `None` where there are fewer steps than sets.
    fn cheapest(&self, steps: &[usize; SET_STEPS]) -> Option<usize> {
        let (mut left, mut cost) = (self.sets, 0);
        for (c, &n) in steps.iter().enumerate() {
            let t = n.min(left);
            cost += t * c;
            left -= t;
            if left == 0 {
                break;
            }
        }
        (left == 0).then_some(cost)
    }
}

/// For each rank, how many of the four suits `cards` (a mask by card index) holds, as three bit
/// masks by rank number - 1: the count's bits 0, 1 and 2 (a sum of the four suits' 13-bit
/// lanes, added bit by bit).
pub(in crate::oracle::contract) fn suits_per_rank(cards: u64) -> [u16; 3] {
    let lane = |s: u32| (cards >> (13 * s)) as u16 & 0x1FFF;
    let (a, b, c, d) = (lane(0), lane(1), lane(2), lane(3));
    let (ab, ab_carry) = (a ^ b, a & b);
    let (cd, cd_carry) = (c ^ d, c & d);
    // A carry from the sums' sum comes only where neither pair carried (a pair that carries sums
    // to 0): two carries make 4, one makes 2.
    let carry = ab & cd;
    [ab ^ cd, ab_carry ^ cd_carry ^ carry, ab_carry & cd_carry]
}

/// The ranks whose count in `lanes` ([`suits_per_rank`]) is `v`, as a mask by rank number - 1.
pub(in crate::oracle::contract) fn lanes_equal(lanes: [u16; 3], v: usize) -> u16 {
    let bit = |k: usize| {
        if v >> k & 1 == 1 { lanes[k] } else { !lanes[k] }
    };
    bit(0) & bit(1) & bit(2) & 0x1FFF
}

/// What [`may_meet`] reads from a hand for a contract of one set and one run.
///
/// [`may_meet`]: super::may_meet
struct SetAndRun<'a> {
    /// The set's size, the run's.
    sizes: (usize, usize),
    /// Natural cards per rank and suit (twos too).
    nat: &'a [[usize; 4]; 13],
    /// The naturals one set of each rank can hold.
    usable: &'a [usize; 13],
    /// Per pool of runs: the places its plain naturals fill, the places that anchor a window,
    /// how many cards it has.
    pools: &'a [u32],
    anchors: &'a [u32],
    totals: &'a [usize],
    same_suit: bool,
    all_wild: bool,
    forbid_dup: bool,
    /// Whether a set of twos may be made.
    twos: bool,
}

impl SetAndRun<'_> {
    /// Whether every cheapest choice of the set's rank and the run's window wants one natural
    /// card for both: the run's card of the set's rank, which the set needs too (it has none to
    /// spare, and where suits may not repeat no second copy stands in). Then the contract needs
    /// one wild more than the relaxed count. A run holds one card of any rank (its windows are
    /// shorter than the line), so no choice needs two more; and a choice that is not cheapest
    /// already needs one more. `false` wherever a cheapest choice shares nothing.
    fn collide(&self, rules: &Rules) -> bool {
        let (n_set, n_run) = self.sizes;
        let set_cost = |rank: usize| n_set.saturating_sub(self.usable[rank]);
        let ranks = || {
            (0..13).filter(|&rank| {
                (rank != 1 || self.twos) && (self.usable[rank] > 0 || self.all_wild)
            })
        };
        let Some(best_set) = ranks().map(set_cost).min() else {
            return false;
        };
        let windows = || {
            self.pools.iter().enumerate().flat_map(move |(q, &pool)| {
                anchored_windows(rules, n_run, self.anchors[q], self.all_wild).map(move |w| {
                    let avail = ((pool & w).count_ones() as usize).min(self.totals[q]);
                    (q, w, n_run - avail.min(n_run))
                })
            })
        };
        let Some(best_run) = windows().map(|(.., cost)| cost).min() else {
            return false;
        };
        let shared = |rank: usize, q: usize, w: u32| {
            if self.pools[q] & rules.rank_places[rank] & w == 0 || self.usable[rank] > n_set {
                return false;
            }
            // Where suits may not repeat, a second copy of a suit the set holds goes to the run.
            let spare_copy = if self.same_suit {
                self.nat[rank][q] >= 2
            } else {
                self.nat[rank].iter().any(|&c| c >= 2)
            };
            !(self.forbid_dup && spare_copy)
        };
        windows()
            .filter(|&(.., cost)| cost == best_run)
            .all(|(q, w, _)| {
                ranks()
                    .filter(|&rank| set_cost(rank) == best_set)
                    .all(|rank| shared(rank, q, w))
            })
    }
}
