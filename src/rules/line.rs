//! The rank line runs are laid along, and the masks [`Rules`] derives from it
//! (`rank_places`, `run_windows`, `run_reach`, `rank_neighbours`, `places_by_halves`,
//! `placed_ranks`): built here, through [`from_line`] alone, by `compile` and `refresh` alike.

use super::Place;
#[cfg(doc)]
use super::Rules;
use crate::base::card::Rank;

/// The fields of [`Rules`] derived from the rank line.
pub(super) struct LineMasks {
    pub(super) rank_places: [u32; 13],
    pub(super) run_windows: Vec<Vec<u32>>,
    pub(super) run_reach: Vec<[u32; 13]>,
    pub(super) rank_neighbours: [[u16; 2]; 13],
    pub(super) places_by_halves: [[u32; 128]; 2],
    pub(super) placed_ranks: u64,
}

/// The fields derived from the rank line, for `compile` and `refresh` alike.
pub(super) fn from_line(line: &[Place], wrap: bool) -> LineMasks {
    let rank_places = places_on(line);
    let run_windows = windows_on(line.len(), wrap);
    LineMasks {
        run_reach: reach_on(&run_windows, &rank_places),
        rank_neighbours: neighbours_on(line, wrap, &rank_places),
        places_by_halves: places_by_halves(&rank_places),
        placed_ranks: (0..13)
            .filter(|&r| rank_places[r] != 0)
            .fold(0, |m, r| m | 1 << r),
        rank_places,
        run_windows,
    }
}

/// For each rank, the ranks just below and just above its places ([`Rules::rank_neighbours`]).
fn neighbours_on(line: &[Place], wrap: bool, places: &[u32; 13]) -> [[u16; 2]; 13] {
    let len = line.len();
    places.map(|own| {
        let mut ends = [0u16; 2];
        let mut left = own;
        while left != 0 {
            let pl = left.trailing_zeros() as usize;
            left &= left - 1;
            let (below, above) = if wrap {
                (Some((pl + len - 1) % len), Some((pl + 1) % len))
            } else {
                (pl.checked_sub(1), (pl + 1 < len).then_some(pl + 1))
            };
            for (end, next) in ends.iter_mut().zip([below, above]) {
                if let Some(next) = next {
                    *end |= 1 << line[next].rank.number();
                }
            }
        }
        ends
    })
}

/// The places of a run of `n` starting at place `start`, as a bit mask (wrapping past the end of
/// a line of `len` places).
fn window(start: usize, n: usize, len: usize) -> u32 {
    if start + n <= len {
        ((1u32 << n) - 1) << start
    } else {
        (0..n).fold(0u32, |w, k| w | 1 << ((start + k) % len))
    }
}

/// Every run's places on a line of `len` places ([`Rules::run_windows`]).
fn windows_on(len: usize, wrap: bool) -> Vec<Vec<u32>> {
    (0..=len)
        .map(|n| {
            let starts = match (wrap, n == len) {
                (true, true) => 1,
                (true, false) => len,
                (false, _) => len + 1 - n,
            };
            (0..starts).map(|start| window(start, n, len)).collect()
        })
        .collect()
}

/// For each run size and rank, the union of the windows that hold a place of the rank
/// ([`Rules::run_reach`]).
fn reach_on(windows: &[Vec<u32>], places: &[u32; 13]) -> Vec<[u32; 13]> {
    windows
        .iter()
        .map(|ws| {
            places.map(|own| {
                ws.iter()
                    .filter(|&&w| w & own != 0)
                    .fold(0, |reach, &w| reach | w)
            })
        })
        .collect()
}

/// [`Rules::places_by_halves`] of `rank_places`.
fn places_by_halves(rank_places: &[u32; 13]) -> [[u32; 128]; 2] {
    let places_of = |ranks: usize, first: usize| {
        (0..7)
            .filter(|&bit| ranks >> bit & 1 == 1 && first + bit < 13)
            .fold(0, |places, bit| places | rank_places[first + bit])
    };
    [
        std::array::from_fn(|ranks| places_of(ranks, 0)),
        std::array::from_fn(|ranks| places_of(ranks, 7)),
    ]
}

/// The places of each rank on `line` ([`Rules::rank_places`]).
fn places_on(line: &[Place]) -> [u32; 13] {
    let mut places = [0u32; 13];
    for (pl, place) in line.iter().enumerate() {
        places[usize::from(place.rank.number()) - 1] |= 1 << pl;
    }
    places
}

/// The rank line: A (low, where `ace_low`) 2 3 … K A (high), the 2 only where `twos_in_sequence`;
/// one ace, low, on a circular line (`wrap`).
pub(super) fn build_line(twos_in_sequence: bool, wrap: bool, ace_low: bool) -> Vec<Place> {
    let mut line = Vec::new();
    let middle = Rank::ALL[1..]
        .iter()
        .filter(|r| twos_in_sequence || **r != Rank::Two);
    if wrap {
        line.push(Place {
            rank: Rank::Ace,
            high: false,
        });
        line.extend(middle.map(|&rank| Place { rank, high: false }));
        return line;
    }
    if ace_low {
        line.push(Place {
            rank: Rank::Ace,
            high: false,
        });
    }
    line.extend(middle.map(|&rank| Place { rank, high: false }));
    line.push(Place {
        rank: Rank::Ace,
        high: true,
    });
    line
}
