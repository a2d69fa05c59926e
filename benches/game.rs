//! Whole games and the whole suite (the standard workloads `game-greedy` and `replay-suite`), on
//! the inputs of `push_rummy::suite::bench`. `cargo bench --bench game`.

use criterion::{Criterion, criterion_group, criterion_main};
use push_rummy::rules::load;
use push_rummy::suite::bench::{greedy_game, replay_suite};
use push_rummy::suite::scenario::find_scenarios;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

/// The same allocator as the `push-rummy` binary, so that these numbers match `push-rummy bench`.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let rules = Arc::new(load("push", &[]).unwrap().rules);
    let mut seed = 0u64;
    c.bench_function("game-greedy", |b| {
        b.iter(|| {
            seed += 1;
            black_box(greedy_game(&rules, seed))
        })
    });
    let files = find_scenarios(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")).unwrap();
    let mut group = c.benchmark_group("suite");
    group.sample_size(10);
    group.bench_function("replay-suite", |b| {
        b.iter(|| black_box(replay_suite(&files).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
