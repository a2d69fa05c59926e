//! Meld and laydown search on the fixed-seed inputs of `push_rummy::suite::bench` (the standard
//! workloads `meld-check`, `meld-all`, `laydown-10/20/30`). `cargo bench --bench search`.

use criterion::{Criterion, criterion_group, criterion_main};
use push_rummy::oracle::meld::{self, Query};
use push_rummy::rules::load;
use push_rummy::suite::bench::{hands, laydown_op, melds};
use std::hint::black_box;

/// The same allocator as the `push-rummy` binary, so that these numbers match `push-rummy bench`.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let rules = load("push", &[]).unwrap().rules;
    let ms = melds(&rules, 1024);
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
        let hs = hands(&rules, size, 256);
        c.bench_function(&format!("laydown-{size}"), |b| {
            let mut i = 0;
            b.iter(|| {
                i += 1;
                black_box(laydown_op(&rules, &hs, i))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
