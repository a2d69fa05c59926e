//! Complete 5-deal Push games with the greedy players (issue 3 target: well over 5,000 games/s on
//! one core). `cargo bench --bench game`.

use criterion::{Criterion, criterion_group, criterion_main};
use push_rummy::bots::{self, Bot};
use push_rummy::game::Game;
use push_rummy::rules::load;
use std::hint::black_box;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let rules = Arc::new(load("push", &[]).unwrap().rules);
    let mut seed = 0u64;
    c.bench_function("game-greedy", |b| {
        b.iter(|| {
            seed += 1;
            let g = Game::new(rules.clone(), 4, (seed % 4) as u8, seed, vec![]).unwrap();
            black_box(bots::play(g, &[Bot::Greedy], seed, false))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
