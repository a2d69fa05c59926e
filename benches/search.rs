//! Meld and laydown search on fixed-seed random inputs from a Push pack (issue 2; issue 7 adds
//! the rest of the standard workloads). `cargo bench --bench search`.

use criterion::{Criterion, criterion_group, criterion_main};
use push_rummy::card::{Card, Counts, Rank, Suit};
use push_rummy::contract;
use push_rummy::meld::{self, Query};
use push_rummy::rng::Rng;
use push_rummy::rules::load;
use std::hint::black_box;

fn push_pack() -> Vec<Card> {
    let mut v = Vec::new();
    for _ in 0..2 {
        for s in Suit::ALL {
            for r in Rank::ALL {
                v.push(Card::new(r, s));
            }
        }
    }
    v.extend(std::iter::repeat_n(Card::JOKER, 4));
    v
}

/// Random 3–7-card melds; half of them built to be near-valid (a rank group or a suit window).
fn melds(n: usize) -> Vec<Vec<Card>> {
    let mut rng = Rng::new(7);
    let pack = push_pack();
    (0..n)
        .map(|i| {
            let len = 3 + rng.below(5) as usize;
            if i % 2 == 0 {
                (0..len)
                    .map(|_| pack[rng.below(pack.len() as u64) as usize])
                    .collect()
            } else {
                let suit = Suit::from_index(rng.below(4) as usize);
                let start = rng.below(13 - len as u64 + 1) as u8 + 1;
                (0..len)
                    .map(|k| {
                        if rng.below(5) == 0 {
                            Card::JOKER
                        } else {
                            Card::new(Rank::from_number(start + k as u8).unwrap(), suit)
                        }
                    })
                    .collect()
            }
        })
        .collect()
}

fn hands(size: usize, n: usize) -> Vec<Counts> {
    let mut rng = Rng::new(size as u64);
    (0..n)
        .map(|_| {
            let mut pack = push_pack();
            rng.shuffle(&mut pack);
            Counts::from_cards(&pack[..size])
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let rules = load("push", &[]).unwrap().rules;
    let ms = melds(1024);
    c.bench_function("meld-check", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % ms.len();
            black_box(meld::is_valid(&rules, &ms[i], None))
        })
    });
    c.bench_function("meld-all", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % ms.len();
            black_box(meld::interpret(
                &rules,
                &Query {
                    cards: ms[i].clone(),
                    kind: None,
                    declared: vec![],
                },
            ))
        })
    });
    for size in [10, 20, 30] {
        let hs = hands(size, 256);
        c.bench_function(&format!("laydown-{size}"), |b| {
            let mut i = 0;
            b.iter(|| {
                i += 1;
                let contract = &rules.rounds[i % rules.rounds.len()].contract;
                black_box(contract::laydown(&rules, contract, &hs[i % hs.len()]))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
