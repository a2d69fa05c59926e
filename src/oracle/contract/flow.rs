//! The max-flow network that decides whether a hand fills every chosen template at once
//! ([`fill`]), and builds the melds from the flow; [`fill_with_palettes`] in front of it for runs
//! of any suits that may not share one. Knows templates and cards; knows nothing of the search's
//! order or its bounds.
//!
//! Where the first flow along the obvious paths fills every template, the search takes its
//! melds from [`first_flow`] without building the network; the unit test
//! `the_first_flow_is_the_networks_where_it_fills` holds the two together.

use super::one_meld::first_flow;
use super::templates::{RIGID, Template, place_cards, run_natural_at, set_natural};
use crate::base::card::{Card, Counts, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::Component;

/// A tiny max-flow network (augmenting paths found by DFS); graphs here have under 200 edges.
/// Edges are kept in one flat array (a linked list per node), and the space of one network, with
/// `fill`'s bookkeeping, serves every network of the thread's searches (`Scratch`): a network
/// costs no allocation once earlier ones have grown the space.
#[derive(Default)]
pub(super) struct Flow {
    first: Vec<u32>,
    edges: Vec<Edge>,
    /// The DFS of one augmenting path has visited node `v` when `seen[v] == pass`.
    seen: Vec<u32>,
    pub(super) pass: u32,
    /// `fill`'s record of each template's natural edges, as ranges of `naturals`: the card, its
    /// edge into the template (a run: into the place's slot), and the slot's edge into the
    /// template (`NONE` for a set).
    naturals: Vec<(Card, u32, u32)>,
    uses: Vec<Uses>,
}

#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    next: u32,
    cap: i32,
}

/// One template's edges in `fill`'s network, for reading the flow back into cards.
#[derive(Clone, Copy)]
struct Uses {
    /// Its natural edges: `Flow::naturals[naturals.0..naturals.1]`.
    naturals: (usize, usize),
    wild_edge: u32,
    joker_only: bool,
    /// Its edges to the sink: for natural cards only (`NONE` unless all-wild melds are
    /// forbidden), and from its natural node on, through its node of all cards.
    nat_sink: u32,
    nat_all: u32,
    all_sink: u32,
}

const NONE: u32 = u32::MAX;

impl Flow {
    /// Empties the network for another with `n` nodes and no edges, keeping the space.
    fn reset(&mut self, n: usize) {
        self.first.clear();
        self.first.resize(n, NONE);
        self.edges.clear();
        self.naturals.clear();
        self.uses.clear();
    }

    fn node(&mut self) -> u32 {
        self.first.push(NONE);
        (self.first.len() - 1) as u32
    }

    /// Adds an edge; returns its index (the reverse edge is `index ^ 1`).
    fn edge(&mut self, a: u32, b: u32, c: i32) -> u32 {
        let e = self.edges.len() as u32;
        let (a, b) = (a as usize, b as usize);
        self.edges.push(Edge {
            to: b as u32,
            next: self.first[a],
            cap: c,
        });
        self.first[a] = e;
        self.edges.push(Edge {
            to: a as u32,
            next: self.first[b],
            cap: 0,
        });
        self.first[b] = e + 1;
        e
    }

    fn flow_on(&self, e: u32) -> i32 {
        self.edges[(e ^ 1) as usize].cap
    }

    /// Pushes `f` along the edges of `path`, a stretch of a path from the source to the sink (the
    /// caller pushes the rest of it too).
    fn push_path(&mut self, path: &[u32], f: i32) {
        for &e in path {
            self.edges[e as usize].cap -= f;
            self.edges[(e ^ 1) as usize].cap += f;
        }
    }

    fn residual(&self, e: u32) -> i32 {
        self.edges[e as usize].cap
    }

    /// The largest flow from `s` to `t`, stopping once `limit` flows: no last search for a path
    /// that cannot be needed (a network of `fill` carries at most its demand, the limit).
    fn max_flow(&mut self, s: u32, t: u32, limit: i32) -> i32 {
        if self.seen.len() < self.first.len() {
            self.seen.resize(self.first.len(), self.pass);
        }
        let mut total = 0;
        while total < limit {
            // A new pass number marks every node unvisited; at the wrap, start the marks again.
            self.pass = self.pass.wrapping_add(1);
            if self.pass == 0 {
                self.seen.fill(0);
                self.pass = 1;
            }
            let f = self.augment(s, t, i32::MAX);
            if f == 0 {
                return total;
            }
            total += f;
        }
        total
    }

    fn augment(&mut self, u: u32, t: u32, f: i32) -> i32 {
        if u == t {
            return f;
        }
        self.seen[u as usize] = self.pass;
        let mut e = self.first[u as usize];
        while e != NONE {
            let Edge { to: v, next, cap } = self.edges[e as usize];
            if cap > 0 && self.seen[v as usize] != self.pass {
                let got = self.augment(v, t, f.min(cap));
                if got > 0 {
                    self.edges[e as usize].cap -= got;
                    self.edges[(e ^ 1) as usize].cap += got;
                    return got;
                }
            }
            e = next;
        }
        0
    }
}

/// Under `any-suits` with `same-suit-runs-in-contract=forbidden`, the runs of a contract may not
/// share a suit among their natural cards: try each way of giving every suit to one run.
pub(super) fn fill_with_palettes(
    rules: &Rules,
    hand: &Counts,
    chosen: &[(Component, Template)],
    g: &mut Flow,
) -> Option<Vec<(Component, Vec<Card>)>> {
    let runs: Vec<usize> = (0..chosen.len())
        .filter(|&i| matches!(chosen[i].1, Template::Run { suit: None, .. }))
        .collect();
    let split =
        rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::Forbidden;
    if !split || runs.len() < 2 {
        if rules.wild_limits.active() {
            // The first flow knows nothing of limits on wild cards.
            return fill(rules, hand, chosen, None, g);
        }
        // Mostly the first flow fills every template, and the network is not built.
        return first_flow(rules, hand, chosen).or_else(|| fill(rules, hand, chosen, None, g));
    }
    let r = runs.len();
    for code in 0..r.pow(4) {
        let mut palette = [usize::MAX; 4];
        let mut c = code;
        for slot in &mut palette {
            *slot = runs[c % r];
            c /= r;
        }
        if let Some(m) = fill(rules, hand, chosen, Some(&palette), g) {
            return Some(m);
        }
    }
    None
}

/// Decides whether the hand fills every chosen template at once, and if so builds the melds.
/// `palette[s]`, when given, is the one template whose natural cards may be of suit `s`. `g` is
/// scratch space, reused by every network of one search.
///
/// In steps: the network's source side ([`Network::source_side`]), each template's nodes and edges
/// ([`Network::add_template`]), a first flow along the obvious paths
/// ([`Network::push_obvious_paths`]), the augmenting paths for the rest ([`Flow::max_flow`]), and
/// the melds read back from the flow ([`Network::read_melds`]).
pub(super) fn fill(
    rules: &Rules,
    hand: &Counts,
    chosen: &[(Component, Template)],
    palette: Option<&[usize; 4]>,
    g: &mut Flow,
) -> Option<Vec<(Component, Vec<Card>)>> {
    let mut net = Network::source_side(rules, hand, g);
    // Per template: natural edges (kind, edge) and wild edges, for reading the flow back.
    let mut demand = 0i32;
    for (ti, (comp, t)) in chosen.iter().enumerate() {
        demand += i32::from(comp.size);
        net.add_template(ti, *comp, t, palette);
    }
    // A first flow along the obvious paths, so the search for augmenting paths below has little
    // left to find. Any flow is a valid start for the search.
    let flowed = net.push_obvious_paths();
    if flowed + net.g.max_flow(SRC, SINK, demand - flowed) != demand {
        return None;
    }
    Some(net.read_melds(chosen))
}

/// The source and the sink of `fill`'s network: its first two nodes.
const SRC: u32 = 0;
const SINK: u32 = 1;

/// `fill`'s network as it is built: the flow's space, the readings that shape the templates'
/// edges, and the nodes and edges on the source's side that every template draws from.
struct Network<'a> {
    rules: &'a Rules,
    hand: &'a Counts,
    g: &'a mut Flow,
    anchored: bool,
    forbid: bool,
    exact: bool,
    /// The pool every wild card passes through (jokers and wild 2s), but into a joker-only
    /// template, which jokers reach directly.
    pool: u32,
    jokers: u32,
    src_jokers: u32,
    jokers_pool: u32,
    /// Supply nodes for the cards in hand (created on demand), with their edges from the source
    /// and (wild twos) into the pool.
    supply: [(u32, u32, u32); crate::base::card::KINDS],
    /// Per suit, a wild 2's edges from the source and into the pool (`NONE`: none in hand).
    twos: [(u32, u32); 4],
}

impl<'a> Network<'a> {
    /// The network's source side: the source, the sink, the wild pool, the jokers, and the supply
    /// of each wild 2 in hand.
    fn source_side(rules: &'a Rules, hand: &'a Counts, g: &'a mut Flow) -> Network<'a> {
        g.reset(2);
        let pool = g.node();
        let jokers = g.node();
        let jk = i32::from(hand.count(Card::JOKER));
        let src_jokers = g.edge(SRC, jokers, jk);
        let jokers_pool = g.edge(jokers, pool, jk);
        let mut net = Network {
            rules,
            hand,
            g,
            anchored: rules.readings.all_wild_melds == reading::AllWildMelds::Forbidden,
            forbid: rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden,
            exact: rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard,
            pool,
            jokers,
            src_jokers,
            jokers_pool,
            supply: [(NONE, NONE, NONE); crate::base::card::KINDS],
            twos: [(NONE, NONE); 4],
        };
        net.feed_wild_twos();
        net
    }

    /// Wild-capable twos feed the pool even when no template names them.
    #[inline]
    fn feed_wild_twos(&mut self) {
        for (i, s) in Suit::ALL.into_iter().enumerate() {
            let two = Card::new(Rank::Two, s);
            if self.rules.is_wild(two) && self.hand.count(two) > 0 {
                let (_, from_src, to_pool) = self.supply_node(two);
                self.twos[i] = (from_src, to_pool);
            }
        }
    }

    /// Card `c`'s supply node, its edge from the source and (a wild 2) into the pool: made the
    /// first time it is asked for.
    #[inline]
    fn supply_node(&mut self, c: Card) -> (u32, u32, u32) {
        let (rules, hand, g) = (self.rules, self.hand, &mut *self.g);
        if self.supply[c.index()].0 != NONE {
            return self.supply[c.index()];
        }
        let n = g.node();
        let from_src = g.edge(SRC, n, i32::from(hand.count(c)));
        let to_pool = if rules.is_wild(c) && !c.is_joker() {
            g.edge(n, self.pool, i32::from(hand.count(c)))
        } else {
            NONE
        };
        self.supply[c.index()] = (n, from_src, to_pool);
        self.supply[c.index()]
    }

    /// Template `t` (the `ti`th chosen) for contract meld `comp`: its node of natural cards and
    /// its node of all cards, their edges to the sink, the natural cards' edges into it, its
    /// wild edge, and its record in `Flow::uses`.
    #[inline]
    fn add_template(
        &mut self,
        ti: usize,
        comp: Component,
        t: &Template,
        palette: Option<&[usize; 4]>,
    ) {
        let n = i32::from(comp.size);
        let g = &mut *self.g;
        let node_nat = g.node();
        let node_all = g.node();
        let (nat_sink, nat_all, all_sink) = if self.anchored {
            let nat_sink = g.edge(node_nat, SINK, 1);
            let nat_all = g.edge(node_nat, node_all, n);
            (nat_sink, nat_all, g.edge(node_all, SINK, n - 1))
        } else {
            let nat_all = g.edge(node_nat, node_all, n);
            (NONE, nat_all, g.edge(node_all, SINK, n))
        };
        let from_natural = g.naturals.len();
        let mut joker_only = false;
        match t {
            Template::Set { rank } => {
                let twos_set_rank_only = *rank == Rank::Two && !self.exact && self.rules.twos_wild;
                joker_only = twos_set_rank_only;
                self.set_edges(comp, *rank, node_nat);
            }
            Template::Run { suit, start, gaps } => {
                self.run_edges(ti, comp, (*suit, *start, *gaps), node_nat, palette);
            }
        }
        let g = &mut *self.g;
        // Under limits on the wild cards of a meld, at most `wild_cap` of the template's `n`
        // places take a wild, the rest naturals; a run whose wilds' places are fixed takes
        // exactly those (its other places have only natural edges).
        let wilds = match t {
            Template::Run { gaps, .. } if gaps & RIGID != 0 => (gaps & !RIGID).count_ones() as i32,
            _ if self.rules.wild_limits.active() => {
                self.rules.wild_limits.wild_cap(comp.size.into()) as i32
            }
            _ => n,
        };
        let wild_edge = if joker_only {
            g.edge(self.jokers, node_all, wilds)
        } else {
            g.edge(self.pool, node_all, wilds)
        };
        let naturals = (from_natural, g.naturals.len());
        g.uses.push(Uses {
            naturals,
            wild_edge,
            joker_only,
            nat_sink,
            nat_all,
            all_sink,
        });
    }

    /// A set of `rank`'s natural edges: each card of the rank in hand that is natural in the set,
    /// straight into the template (once per suit where suits may not repeat).
    #[inline]
    fn set_edges(&mut self, comp: Component, rank: Rank, node_nat: u32) {
        let n = i32::from(comp.size);
        for s in Suit::ALL {
            let c = Card::new(rank, s);
            if self.hand.count(c) == 0 || !set_natural(self.rules, c) {
                continue;
            }
            let (from, _, _) = self.supply_node(c);
            let cap = if self.forbid { 1 } else { n };
            let e = self.g.edge(from, node_nat, cap);
            self.g.naturals.push((c, e, NONE));
        }
    }

    /// A run's natural edges: a slot node per place, which takes at most one natural card, and
    /// each card in hand that may stand there naturally (of the palette's suits, where given)
    /// into its slot.
    #[inline]
    fn run_edges(
        &mut self,
        ti: usize,
        comp: Component,
        (suit, start, gaps): (Option<Suit>, usize, u16),
        node_nat: u32,
        palette: Option<&[usize; 4]>,
    ) {
        let rules = self.rules;
        let len = rules.line.len();
        for i in 0..usize::from(comp.size) {
            if gaps & RIGID != 0 && gaps & (1 << i) != 0 {
                // A wild's place: no natural card.
                continue;
            }
            let pl = (start + i) % len;
            let rank = rules.line[pl].rank;
            let cands = place_cards(rank, suit);
            // One slot node per place: at most one natural card per place.
            let slot = self.g.node();
            let slot_nat = self.g.edge(slot, node_nat, 1);
            for c in cands {
                let in_palette = match (palette, suit, c.suit()) {
                    (Some(p), None, Some(cs)) => p[cs as usize] == ti,
                    _ => true,
                };
                if in_palette && self.hand.count(c) > 0 && run_natural_at(rules, pl, c) {
                    let (from, _, _) = self.supply_node(c);
                    let e = self.g.edge(from, slot, 1);
                    self.g.naturals.push((c, e, slot_nat));
                }
            }
        }
    }

    /// A first flow along the obvious paths, template by template: each natural card into its
    /// template, then wilds into what is left open (twos first, as read back in
    /// [`Network::read_melds`]). How much it carries.
    fn push_obvious_paths(&mut self) -> i32 {
        let g = &mut *self.g;
        let mut flowed = 0;
        for ti in 0..g.uses.len() {
            let u = g.uses[ti];
            for k in u.naturals.0..u.naturals.1 {
                let (c, e, slot_nat) = g.naturals[k];
                // From the source to the template's natural node (a run: through the place's slot).
                let via = [self.supply[c.index()].1, e, slot_nat];
                let path = &via[..if slot_nat == NONE { 2 } else { 3 }];
                let mut f = path.iter().map(|&x| g.residual(x)).min().unwrap_or(0);
                // The one natural card an anchored template must hold first.
                if f > 0 && u.nat_sink != NONE && g.residual(u.nat_sink) > 0 {
                    g.push_path(path, 1);
                    g.push_path(&[u.nat_sink], 1);
                    f -= 1;
                    flowed += 1;
                }
                let f = f.min(g.residual(u.nat_all)).min(g.residual(u.all_sink));
                if f > 0 {
                    g.push_path(path, f);
                    g.push_path(&[u.nat_all, u.all_sink], f);
                    flowed += f;
                }
            }
            let mut open = g.residual(u.wild_edge).min(g.residual(u.all_sink));
            if !u.joker_only {
                for &(from_src, to_pool) in &self.twos {
                    if open == 0 || from_src == NONE {
                        continue;
                    }
                    let f = open.min(g.residual(from_src)).min(g.residual(to_pool));
                    if f > 0 {
                        g.push_path(&[from_src, to_pool, u.wild_edge, u.all_sink], f);
                        open -= f;
                        flowed += f;
                    }
                }
            }
            // Jokers reach a joker-only template directly, any other through the pool.
            let jokers_in: &[u32] = if u.joker_only {
                &[self.src_jokers]
            } else {
                &[self.src_jokers, self.jokers_pool]
            };
            let f = jokers_in.iter().fold(open, |f, &x| f.min(g.residual(x)));
            if f > 0 {
                g.push_path(jokers_in, f);
                g.push_path(&[u.wild_edge, u.all_sink], f);
                flowed += f;
            }
        }
        flowed
    }

    /// Reads the flow back into cards. Wilds: jokers for joker-only templates first, then twos
    /// and jokers from what the pool passed on.
    fn read_melds(&self, chosen: &[(Component, Template)]) -> Vec<(Component, Vec<Card>)> {
        let g = &*self.g;
        let mut wild_left: Vec<(Card, i32)> = Vec::with_capacity(5);
        for (s, &(from_src, to_pool)) in Suit::ALL.into_iter().zip(&self.twos) {
            if from_src != NONE {
                wild_left.push((Card::new(Rank::Two, s), g.flow_on(to_pool)));
            }
        }
        wild_left.push((Card::JOKER, g.flow_on(self.jokers_pool)));
        let mut out = Vec::with_capacity(chosen.len());
        for ((comp, _), u) in chosen.iter().zip(&g.uses) {
            let mut cards = Vec::with_capacity(usize::from(comp.size));
            for &(c, e, _) in &g.naturals[u.naturals.0..u.naturals.1] {
                for _ in 0..g.flow_on(e) {
                    cards.push(c);
                }
            }
            let w = g.flow_on(u.wild_edge);
            if u.joker_only {
                cards.extend(std::iter::repeat_n(Card::JOKER, w as usize));
            } else {
                let mut need = w;
                for (card, left) in wild_left.iter_mut() {
                    while need > 0 && *left > 0 {
                        cards.push(*card);
                        *left -= 1;
                        need -= 1;
                    }
                }
            }
            cards.sort();
            out.push((*comp, cards));
        }
        out
    }
}
