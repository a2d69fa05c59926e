//! The runs part of the relaxed check: the fewest wilds a contract's runs need beside the hand's
//! naturals, each run in the best window of some pool, runs of one pool sharing its cards
//! ([`RunPools::need`]).

use super::super::hand::{RunNaturals, anchored_windows, pair_naturals};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};

/// The pools of runs as [`may_meet`] weighs them: per pool (a suit, or one pool of every suit
/// where runs may mix suits), the places its plain naturals fill, the places that anchor a window,
/// and how many plain naturals it has.
///
/// [`may_meet`]: super::may_meet
pub(super) struct RunPools<'a> {
    pub(super) rules: &'a Rules,
    pub(super) naturals: &'a RunNaturals,
    pub(super) pools: &'a [u32],
    pub(super) anchors: &'a [u32],
    pub(super) totals: &'a [usize],
    pub(super) same_suit: bool,
    pub(super) all_wild: bool,
}

/// What the runs of a contract need, as [`RunPools::need`] counts it.
pub(super) struct RunsNeed {
    /// How many runs the contract has.
    pub(super) count: usize,
    /// The sizes of its first four runs.
    pub(super) sizes: [usize; 4],
    /// The fewest wilds the runs need beside the naturals.
    pub(super) wilds: usize,
}

/// The most naturals one window of each of the first four runs can take, per pool (`None`: the
/// run cannot lie there).
type BestWindows = [[Option<usize>; 4]; 4];

impl RunPools<'_> {
    /// The fewest wilds the contract's runs need; `None` where no choice of pools and windows
    /// can hold them (`may_meet` says no).
    #[inline]
    pub(super) fn need(&self, contract: &[Component], wilds: usize) -> Option<RunsNeed> {
        let r = contract.iter().filter(|c| c.kind == MeldKind::Run).count();
        let (best, run_sizes) = self.best_windows(contract)?;
        let mut need = 0usize;
        if r > 4 {
            // Too many to pair up cheaply: each run on its own.
            for i in 0..4 {
                let most = best[i].iter().flatten().max().copied().unwrap_or(0);
                need += run_sizes[i] - most;
            }
        } else if r > 0 {
            need = self.cheapest(r, &best, run_sizes, wilds)?;
        }
        Some(RunsNeed {
            count: r,
            sizes: run_sizes,
            wilds: need,
        })
    }

    /// The most naturals one window of each run can take, per pool, and the runs' sizes (of the
    /// first four); `None` where a run is longer than the line or (one of the first four) fits
    /// in no pool.
    #[inline]
    fn best_windows(&self, contract: &[Component]) -> Option<(BestWindows, [usize; 4])> {
        let rules = self.rules;
        let mut best = [[None::<usize>; 4]; 4];
        let mut run_sizes = [0usize; 4];
        for (i, c) in contract
            .iter()
            .filter(|c| c.kind == MeldKind::Run)
            .enumerate()
        {
            let n = usize::from(c.size);
            if n > rules.max_run() {
                return None;
            }
            if i >= 4 {
                continue;
            }
            run_sizes[i] = n;
            // A run of a size already weighed has the same best windows.
            if let Some(j) = run_sizes[..i].iter().position(|&k| k == n) {
                best[i] = best[j];
                continue;
            }
            for (p, &pool) in self.pools.iter().enumerate() {
                best[i][p] = anchored_windows(rules, n, self.anchors[p], self.all_wild)
                    .map(|w| (pool & w).count_ones() as usize)
                    .max();
            }
            if best[i].iter().all(Option::is_none) {
                return None;
            }
        }
        Some((best, run_sizes))
    }

    /// The fewest wilds `r` runs (one to four) need over the choices of pools for them; `None`
    /// where even the bound below is more than `wilds`, or no choice can hold them.
    #[inline]
    fn cheapest(
        &self,
        r: usize,
        best: &BestWindows,
        run_sizes: [usize; 4],
        wilds: usize,
    ) -> Option<usize> {
        // No way of giving the runs pools needs fewer wilds than each run in its own best pool
        // (runs sharing a pool share its cards, which only adds to it): where even that is too
        // many, nothing is met; with one run, it is the answer.
        let lower: usize = (0..r)
            .map(|i| {
                let most = best[i]
                    .iter()
                    .zip(self.totals)
                    .filter_map(|(b, &t)| b.map(|b| b.min(t)))
                    .max()
                    .unwrap_or(0);
                run_sizes[i] - most
            })
            .sum();
        if lower > wilds {
            return None;
        }
        let split = self.rules.readings.same_suit_runs_in_contract
            == reading::SameSuitRunsInContract::Forbidden
            && self.same_suit;
        let mut cheapest = if r == 1 { lower } else { usize::MAX };
        // Two runs are weighed on their own; three or four by every choice of pools.
        if r == 2 {
            cheapest = self.two_runs(best, run_sizes, split, wilds, cheapest);
        }
        cheapest = cheapest.min(self.by_every_choice(r, best, run_sizes, split));
        if cheapest == usize::MAX {
            return None;
        }
        Some(cheapest)
    }

    /// What `size` places of pool `q` need beside the `avail` naturals its windows hold.
    #[inline]
    fn short(&self, q: usize, size: usize, avail: usize) -> usize {
        size - avail.min(self.totals[q]).min(size)
    }

    /// [`RunPools::cheapest`] for two runs, from `cheapest` so far: each run in a pool of its
    /// own, or both in one (where runs may share a suit).
    fn two_runs(
        &self,
        best: &BestWindows,
        run_sizes: [usize; 4],
        split: bool,
        wilds: usize,
        mut cheapest: usize,
    ) -> usize {
        let p = self.pools.len();
        // Two runs in one pool, where the bound above lets the hand through: they can hold at
        // most what the best pair of windows holds, a place twice only where the pool has two
        // cards for it (`pair_naturals`). Asked last and only then, once per pool.
        let mut pairs = [None::<Option<usize>>; 4];
        let mut pair_in = |q: usize| {
            *pairs[q].get_or_insert_with(|| {
                let naturals = self.naturals;
                let (one, twice) = if self.same_suit {
                    (naturals.plain[q], naturals.plain_twice[q])
                } else {
                    naturals.plain_twice_any()
                };
                pair_naturals(
                    self.rules,
                    run_sizes,
                    one,
                    twice,
                    self.anchors[q],
                    self.all_wild,
                )
            })
        };
        let (s0, s1) = (run_sizes[0], run_sizes[1]);
        for (q1, &b1) in best[1][..p].iter().enumerate() {
            let Some(b1) = b1 else {
                continue;
            };
            for (q0, &b0) in best[0][..p].iter().enumerate() {
                let Some(b0) = b0 else {
                    continue;
                };
                if q0 != q1 {
                    cheapest = cheapest.min(self.short(q0, s0, b0) + self.short(q1, s1, b1));
                    continue;
                }
                if split {
                    continue;
                }
                let mut here = self.short(q0, s0 + s1, b0 + b1);
                if here <= wilds && here < cheapest {
                    let Some(pair) = pair_in(q0) else {
                        continue;
                    };
                    here = self.short(q0, s0 + s1, pair);
                }
                cheapest = cheapest.min(here);
            }
        }
        cheapest
    }

    /// [`RunPools::cheapest`] for three or four runs (`usize::MAX` for fewer): every choice of a
    /// pool for each run, the runs of a pool sharing its cards.
    fn by_every_choice(
        &self,
        r: usize,
        best: &BestWindows,
        run_sizes: [usize; 4],
        split: bool,
    ) -> usize {
        let p = self.pools.len();
        let codes = if r <= 2 {
            0
        } else {
            p.pow(u32::try_from(r).unwrap_or(u32::MAX))
        };
        let mut cheapest = usize::MAX;
        'runs: for code in 0..codes {
            let mut size = [0usize; 4];
            let mut avail = [0usize; 4];
            let mut used = [0usize; 4];
            let mut c = code;
            for i in 0..r {
                let pool = c % p;
                c /= p;
                let Some(b) = best[i][pool] else {
                    continue 'runs;
                };
                if split && used[pool] > 0 {
                    continue 'runs;
                }
                used[pool] += 1;
                size[pool] += run_sizes[i];
                avail[pool] += b;
            }
            cheapest = cheapest.min((0..p).map(|q| self.short(q, size[q], avail[q])).sum());
        }
        cheapest
    }
}
