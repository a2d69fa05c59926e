//! Compiled rules: [`Rules`], the checked form of a rule set that the meld oracle and the engine
//! read, and [`load`], which turns a built-in name or a file path (with `extends` and
//! `--reading` overrides) into it or into diagnostics.
//!
//! Invariant: a `Rules` value always describes a playable game: every deal fits the pack for every
//! allowed player count, and every contract meld is one the pack can make.

pub mod disputes;
pub mod spec;

use crate::base::card::{Card, Rank};
use crate::base::diag::{Diagnostic, Diagnostics};
use crate::base::yaml::{self, Pos};
use crate::rules::disputes::{DisputeId, Readings, list_readings, reading};
use spec::{Component, Leaf, MeldKind, Origin, RawRules, RoundSpec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The built-in games, the first rule sets of [`BUILT_IN`] (the others are house presets that
/// extend them).
pub const GAMES: [&str; 3] = ["push", "cap-it", "six-to-ten"];

/// The rule sets embedded in the binary, by name, with their file in the repository.
pub const BUILT_IN: &[(&str, &str, &str)] = &[
    (
        "push",
        "spec/push.yaml",
        include_str!("../../spec/push.yaml"),
    ),
    (
        "cap-it",
        "spec/cap-it.yaml",
        include_str!("../../spec/cap-it.yaml"),
    ),
    (
        "six-to-ten",
        "spec/six-to-ten.yaml",
        include_str!("../../spec/six-to-ten.yaml"),
    ),
    (
        "source-000",
        "spec/house/source-000.yaml",
        include_str!("../../spec/house/source-000.yaml"),
    ),
    (
        "source-001",
        "spec/house/source-001.yaml",
        include_str!("../../spec/house/source-001.yaml"),
    ),
    (
        "source-002",
        "spec/house/source-002.yaml",
        include_str!("../../spec/house/source-002.yaml"),
    ),
    (
        "source-003",
        "spec/house/source-003.yaml",
        include_str!("../../spec/house/source-003.yaml"),
    ),
    (
        "club-marathon",
        "spec/house/club-marathon.yaml",
        include_str!("../../spec/house/club-marathon.yaml"),
    ),
];

/// Who receives a push.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The next player in turn order.
    Left,
    /// The previous player.
    Right,
}

/// What happens when a player wants to draw from an empty stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhenEmpty {
    /// The hand ends; `stock-out` decides who scores.
    EndHand,
    /// The discard pile but its top card is shuffled into a new stock.
    ReshuffleDiscards,
}

/// Cards added at a large table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LargeTable {
    /// `None`: the dispute `capit-third-deck` decides.
    pub from_players: Option<u8>,
    pub standard_decks: u8,
    pub jokers: u8,
}

/// One deal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Round {
    pub deal: u8,
    pub contract: Vec<Component>,
}

/// A place on the line of ranks that runs are laid along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub rank: Rank,
    /// An ace placed above the king (rather than below the 2).
    pub high: bool,
}

/// A checked rule set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub game: String,
    pub name: String,
    pub players: (u8, u8),
    pub standard_decks: u8,
    pub jokers: u8,
    pub large_table: Option<LargeTable>,
    pub twos_wild: bool,
    pub set_min: u8,
    pub run_min: u8,
    pub two_in_sequence: bool,
    pub wrap_around: bool,
    pub rounds: Vec<Round>,
    pub push_stock_cards: u8,
    pub push_to: Direction,
    pub discard_wilds: bool,
    pub when_empty: WhenEmpty,
    pub stall_limit: u32,
    /// Points by rank number (index 1 = ace … 13 = king); index 0 is the joker.
    pub points: [u16; 14],
    pub readings: Readings,
    /// The places of the rank line, low to high (circular when `wrap_around`).
    pub line: Vec<Place>,
    /// The places of each rank on `line`, as bit masks by place (index: rank number - 1): an
    /// ace may have two, a rank off the line none. Derived from `line` (`refresh`).
    pub rank_places: [u32; 13],
    /// The places a run of `n` cards covers, one mask per start (index: `n`, up to the line's
    /// length). Derived from `line` and `wrap_around` (`refresh`); read through
    /// [`Rules::windows`].
    pub run_windows: Vec<Vec<u32>>,
    /// The places a run of `n` cards may cover together with a card of each rank: the union of
    /// the windows of `n` that hold one of the rank's places (index: `n`, then rank number - 1).
    /// Derived from `run_windows` and `rank_places` (`refresh`); read through [`Rules::reach`].
    pub run_reach: Vec<[u32; 13]>,
    /// Per rank (number - 1), the ranks at the places just below and just above its places on
    /// the line (around the corner under wrap-around), as bit masks by rank number: the ranks
    /// that may extend a run ending in it. Derived from `line` and `wrap_around` (`refresh`).
    pub rank_neighbours: [[u16; 2]; 13],
    /// [`Rules::places_of`] by table: the places of every set of the first seven ranks, and of
    /// the last six (index: the rank mask's low seven bits, then the six above them). Derived
    /// from `rank_places` (`refresh`).
    pub places_by_halves: [[u32; 128]; 2],
    /// The ranks with a place on the line, as a mask by rank number - 1 (`rank_places` not
    /// empty). Derived from `rank_places` (`refresh`).
    pub placed_ranks: u64,
}

impl Rules {
    /// Whether `card` is wild in this game (it may still stand for itself where the rules allow).
    pub fn is_wild(&self, card: Card) -> bool {
        card.is_joker() || (self.twos_wild && card.is_two())
    }

    /// Every card [`Rules::is_wild`] accepts (the joker, and the twos where they are wild), as a
    /// mask by [`Card::index`]: for counting a hand's wilds without visiting every card in it.
    pub fn wild_mask(&self) -> u64 {
        // The joker, and the four twos (rank index 1 of each suit) where twos are wild.
        const TWOS: u64 = 1 << 1 | 1 << 14 | 1 << 27 | 1 << 40;
        let twos = if self.twos_wild { TWOS } else { 0 };
        1 << Card::JOKER.index() | twos
    }

    /// Points for `card` left in a hand.
    pub fn points(&self, card: Card) -> u32 {
        match card.rank() {
            Some(r) => u32::from(self.points[usize::from(r.number())]),
            None => u32::from(self.points[0]),
        }
    }

    /// Standard decks and jokers in the pack for `players`.
    pub fn pack(&self, players: u8) -> (u8, u8) {
        let mut decks = self.standard_decks;
        let mut jokers = self.jokers;
        if let Some(lt) = self.large_table {
            let from = lt
                .from_players
                .unwrap_or(match self.readings.capit_third_deck {
                    reading::CapitThirdDeck::FiveOrMore => 5,
                    reading::CapitThirdDeck::SixOnly => 6,
                });
            if players >= from {
                decks += lt.standard_decks;
                jokers += lt.jokers;
            }
        }
        (decks, jokers)
    }

    pub fn pack_size(&self, players: u8) -> usize {
        let (d, j) = self.pack(players);
        usize::from(d) * 52 + usize::from(j)
    }

    /// The masks of the places a run of `n` cards can cover, one per start
    /// ([`Rules::run_windows`]), starting at place 0, 1, …: every place on a circular line (one
    /// window when the run takes the whole circle), else every place from which `n` places fit;
    /// none for a run longer than the line.
    pub fn windows(&self, n: usize) -> &[u32] {
        self.run_windows.get(n).map_or(&[], Vec::as_slice)
    }

    /// The places of the ranks of `ranks` on the line ([`Rules::rank_places`]), given as a mask
    /// by rank number - 1 (bits above the 13th are not read).
    pub fn places_of(&self, ranks: u64) -> u32 {
        let [low, high] = &self.places_by_halves;
        low[(ranks & 0x7F) as usize] | high[(ranks >> 7 & 0x3F) as usize]
    }

    /// The places that can share a run of `n` cards with a card of `rank` ([`Rules::run_reach`]):
    /// none where no such run fits on the line.
    pub fn reach(&self, n: usize, rank: Rank) -> u32 {
        self.run_reach
            .get(n)
            .map_or(0, |r| r[usize::from(rank.number()) - 1])
    }

    /// The longest run the rank line allows.
    pub fn max_run(&self) -> usize {
        if self.wrap_around {
            return self.line.len();
        }
        let both = self.readings.ace_both_ends == reading::AceBothEnds::Allowed;
        let has_low = self.line.first().is_some_and(|p| p.rank == Rank::Ace);
        if has_low && !both {
            self.line.len() - 1
        } else {
            self.line.len()
        }
    }

    /// The largest set the rules allow, before counting the pack.
    pub fn max_set(&self, copies_per_card: usize, wilds_in_pack: usize) -> usize {
        let cap = match self.readings.set_max_size {
            reading::SetMaxSize::V4 => 4,
            reading::SetMaxSize::Unlimited => usize::MAX,
        };
        let forbid = self.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
        let naturals = if forbid { 4 } else { 4 * copies_per_card };
        let exact = self.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
        let by_pack = if forbid && exact {
            4
        } else {
            naturals + wilds_in_pack
        };
        cap.min(by_pack)
    }
}

/// The fields of [`Rules`] derived from the rank line.
struct LineMasks {
    rank_places: [u32; 13],
    run_windows: Vec<Vec<u32>>,
    run_reach: Vec<[u32; 13]>,
    rank_neighbours: [[u16; 2]; 13],
    places_by_halves: [[u32; 128]; 2],
    placed_ranks: u64,
}

/// The fields derived from the rank line, for `compile` and `refresh` alike.
fn from_line(line: &[Place], wrap: bool) -> LineMasks {
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

fn build_line(twos_in_sequence: bool, wrap: bool, ace_low: bool) -> Vec<Place> {
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

/// A failed load: every problem found, and the texts of the files involved (for carets).
#[derive(Clone, Debug)]
pub struct LoadError {
    pub diagnostics: Diagnostics,
    pub sources: BTreeMap<String, String>,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.diagnostics.fmt(f)
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    /// The diagnostics rendered with source lines and carets.
    pub fn render(&self) -> String {
        self.render_styled(false)
    }

    /// [`LoadError::render`], in colour when `color` is set.
    pub fn render_styled(&self, color: bool) -> String {
        crate::base::diag::render_styled(
            &self.diagnostics,
            &|f| self.sources.get(f).cloned(),
            color,
        )
    }
}

/// A loaded rule set: the checked rules and the resolved raw form (for `rules show`).
#[derive(Clone, Debug)]
pub struct Loaded {
    pub rules: Rules,
    pub raw: RawRules,
    /// The files read, the requested one first, then what it extends.
    pub chain: Vec<String>,
}

impl Loaded {
    /// The resolved rules as canonical YAML in the rules language.
    pub fn show(&self) -> String {
        let header = format!(
            "# Resolved rules of `{}` (from {}).\n# Every rule is given; `extends` and command-line readings are applied.\n",
            self.rules.game,
            self.chain.join(" <- ")
        );
        spec::render(&self.raw, &header)
    }
}

/// Parses `ID=READING` as given to `--reading`.
///
/// # Errors
/// A diagnostic naming the valid dispute ids or readings.
pub fn parse_reading_arg(arg: &str) -> Result<(DisputeId, String), Diagnostic> {
    let Some((id, name)) = arg.split_once('=') else {
        return Err(Diagnostic::new(
            "--reading",
            Pos::default(),
            "",
            format!("`{arg}` is not ID=READING"),
        )
        .with_hint("for example --reading two-penalty-value=15"));
    };
    let (id, name) = (id.trim(), name.trim());
    let Some(dispute) = DisputeId::from_id(id) else {
        let ids: Vec<&str> = DisputeId::ALL.iter().map(|d| d.id()).collect();
        let hint = match crate::base::diag::did_you_mean(id, ids.iter().copied()) {
            Some(m) => format!("did you mean `{m}`? the disputes are: {}", ids.join(", ")),
            None => format!("the disputes are: {}", ids.join(", ")),
        };
        return Err(Diagnostic::new(
            "--reading",
            Pos::default(),
            "",
            format!("unknown dispute `{id}`"),
        )
        .with_hint(hint));
    };
    if !dispute.reading_names().contains(&name) {
        return Err(Diagnostic::new(
            "--reading",
            Pos::default(),
            &format!("readings.{id}"),
            format!("`{name}` is not a reading of dispute `{id}`"),
        )
        .with_hint(format!("the readings are {}", list_readings(dispute))));
    }
    Ok((dispute, name.to_string()))
}

/// Loads a rule set by built-in name or path, applies `extends`, then `readings` (in order).
///
/// # Errors
/// Every problem found: unreadable file, YAML syntax, unknown keys, wrong types, unknown
/// disputes or readings, a missing or cyclic `extends`, missing rules, and semantic errors.
pub fn load(name_or_path: &str, readings: &[(DisputeId, String)]) -> Result<Loaded, LoadError> {
    let mut sources = BTreeMap::new();
    let mut chain = Vec::new();
    let mut diags = Vec::new();
    let raw = resolve(
        name_or_path,
        None,
        &mut Vec::new(),
        &mut chain,
        &mut sources,
        &mut diags,
    );
    let mut raw = match raw {
        Some(r) if diags.is_empty() => r,
        _ => {
            return Err(LoadError {
                diagnostics: Diagnostics::capped(diags),
                sources,
            });
        }
    };
    for (id, name) in readings {
        let origin = Origin {
            file: "--reading".into(),
            pos: Pos::default(),
        };
        raw.set_reading(*id, name, origin, Some("set on the command line"));
    }
    // Resolved rules stand alone: what was extended is in `chain`, not an `extends` rule.
    raw.entries.remove("extends");
    let top = chain.first().cloned().unwrap_or_default();
    match compile(&raw, &top) {
        Ok(rules) => Ok(Loaded { rules, raw, chain }),
        Err(d) => Err(LoadError {
            diagnostics: Diagnostics::capped(d),
            sources,
        }),
    }
}

/// Loads rules from YAML text (for scenarios with inline rules and for tests).
///
/// # Errors
/// As [`load`]; `extends` paths are relative to `base_dir`.
pub fn load_text(label: &str, text: &str, base_dir: &Path) -> Result<Loaded, LoadError> {
    let mut sources = BTreeMap::new();
    let mut chain = Vec::new();
    let mut diags = Vec::new();
    let raw = resolve_text(
        label,
        text,
        base_dir,
        &mut Vec::new(),
        &mut chain,
        &mut sources,
        &mut diags,
    );
    let top = label.to_string();
    let mut raw = match raw {
        Some(r) if diags.is_empty() => r,
        _ => {
            return Err(LoadError {
                diagnostics: Diagnostics::capped(diags),
                sources,
            });
        }
    };
    raw.entries.remove("extends");
    match compile(&raw, &top) {
        Ok(rules) => Ok(Loaded { rules, raw, chain }),
        Err(d) => Err(LoadError {
            diagnostics: Diagnostics::capped(d),
            sources,
        }),
    }
}

/// A path with `.` and `..` parts folded away, for messages.
fn normalize(p: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if parts.last().is_some_and(|l| l != "..") => {
                parts.pop();
            }
            c => parts.push(c.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/").replace("//", "/")
}

/// An I/O error in words, without the OS error number.
fn io_reason(e: &std::io::Error) -> String {
    let t = e.to_string();
    match t.find(" (os error") {
        Some(i) => t[..i].to_lowercase(),
        None => t.to_lowercase(),
    }
}

fn is_path(s: &str) -> bool {
    s.contains('/') || s.contains('\\') || s.ends_with(".yaml") || s.ends_with(".yml")
}

/// Reads one rules file (built-in or path), decodes it and resolves what it extends.
fn resolve(
    name_or_path: &str,
    from: Option<(&str, Pos, &Path)>,
    stack: &mut Vec<String>,
    chain: &mut Vec<String>,
    sources: &mut BTreeMap<String, String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<RawRules> {
    let builtin = (!is_path(name_or_path))
        .then(|| BUILT_IN.iter().find(|(n, _, _)| *n == name_or_path))
        .flatten();
    let (label, text, base_dir) = if let Some((_, file, text)) = builtin {
        (file.to_string(), text.to_string(), PathBuf::from("spec"))
    } else {
        let path = match from {
            Some((_, _, dir)) if Path::new(name_or_path).is_relative() => dir.join(name_or_path),
            _ => PathBuf::from(name_or_path),
        };
        let label = path.display().to_string();
        let place = |what: String| match from {
            Some((file, pos, _)) => Diagnostic::new(file, pos, "extends", what),
            None => Diagnostic::new(&label, Pos::default(), "", what),
        };
        let text = match yaml::read_text(&path) {
            Ok(t) => t,
            Err(yaml::ReadError::Io(_)) if !is_path(name_or_path) => {
                let names: Vec<&str> = BUILT_IN.iter().map(|(n, _, _)| *n).collect();
                let hint =
                    match crate::base::diag::did_you_mean(name_or_path, names.iter().copied()) {
                        Some(m) => format!(
                            "did you mean `{m}`? built-in rule sets: {}",
                            names.join(", ")
                        ),
                        None => format!(
                            "built-in rule sets: {}; a path ends in .yaml",
                            names.join(", ")
                        ),
                    };
                diags.push(
                    place(format!(
                        "no built-in rule set or file named `{name_or_path}`"
                    ))
                    .with_hint(hint),
                );
                return None;
            }
            Err(yaml::ReadError::Io(e)) => {
                let shown = normalize(&path);
                let what = if e.kind() == std::io::ErrorKind::NotFound {
                    format!("rules file `{shown}` does not exist")
                } else {
                    format!("cannot read rules file `{shown}`: {}", io_reason(&e))
                };
                let mut d = place(what);
                if from.is_some() {
                    d = d.with_hint("a relative `extends` path starts from the folder of the file that names it");
                }
                diags.push(d);
                return None;
            }
            Err(e) => {
                let mut d = Diagnostic::new(&label, e.pos(), "", e.message("the rules file"));
                if matches!(e, yaml::ReadError::TooLarge(_)) {
                    d = d.with_hint("a rules file is a few kilobytes; see docs/LIMITS.md");
                }
                diags.push(d);
                return None;
            }
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        (label, text, dir)
    };
    resolve_text_inner(&label, &text, &base_dir, from, stack, chain, sources, diags)
}

fn resolve_text(
    label: &str,
    text: &str,
    base_dir: &Path,
    stack: &mut Vec<String>,
    chain: &mut Vec<String>,
    sources: &mut BTreeMap<String, String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<RawRules> {
    resolve_text_inner(label, text, base_dir, None, stack, chain, sources, diags)
}

#[allow(clippy::too_many_arguments)]
fn resolve_text_inner(
    label: &str,
    text: &str,
    base_dir: &Path,
    from: Option<(&str, Pos, &Path)>,
    stack: &mut Vec<String>,
    chain: &mut Vec<String>,
    sources: &mut BTreeMap<String, String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<RawRules> {
    if stack.iter().any(|s| s == label) {
        let cycle = format!("{} -> {label}", stack.join(" -> "));
        let d = match from {
            Some((file, pos, _)) => Diagnostic::new(
                file,
                pos,
                "extends",
                format!("`extends` forms a cycle: {cycle}"),
            ),
            None => Diagnostic::new(
                label,
                Pos::default(),
                "",
                format!("`extends` forms a cycle: {cycle}"),
            ),
        };
        diags.push(d);
        return None;
    }
    if stack.len() >= 16 {
        // Where the chain went one file too deep: the `extends:` line that asked for this one.
        let (file, pos) = from.map_or((label, Pos::default()), |(file, pos, _)| (file, pos));
        diags.push(Diagnostic::new(
            file,
            pos,
            "extends",
            format!("`extends` is nested more than 16 deep (here it asks for {label})"),
        ));
        return None;
    }
    sources.insert(label.to_string(), text.to_string());
    chain.push(label.to_string());
    let node = match yaml::parse(text) {
        Ok(n) => n,
        Err(e) => {
            diags.push(Diagnostic::from_syntax(label, e));
            return None;
        }
    };
    let raw = spec::decode(label, &node, diags);
    let Some(ext) = raw.get("extends") else {
        return Some(raw);
    };
    let Leaf::Text(parent_name) = &ext.value else {
        return Some(raw);
    };
    let parent_name = parent_name.clone();
    let pos = ext.origin.pos;
    stack.push(label.to_string());
    let parent = resolve(
        &parent_name,
        Some((label, pos, base_dir)),
        stack,
        chain,
        sources,
        diags,
    );
    stack.pop();
    parent.map(|p| raw.over(&p))
}

fn int(raw: &RawRules, path: &str) -> i64 {
    match raw.get(path).map(|e| &e.value) {
        Some(Leaf::Int(n)) => *n,
        _ => 0,
    }
}

fn flag(raw: &RawRules, path: &str) -> bool {
    matches!(raw.get(path).map(|e| &e.value), Some(Leaf::Bool(true)))
}

fn choice<'a>(raw: &'a RawRules, path: &str) -> &'a str {
    match raw.get(path).map(|e| &e.value) {
        Some(Leaf::Choice(s)) => s.as_str(),
        _ => "",
    }
}

const DEAL_RELATED: [&str; 6] = [
    "players.count",
    "decks.standard-decks",
    "decks.jokers",
    "decks.large-table.standard-decks",
    "decks.large-table.jokers",
    "decks.large-table.from-players",
];
const SET_RELATED: [&str; 5] = [
    "sets.min-size",
    "readings.set-max-size",
    "readings.set-duplicate-suits",
    "readings.wild-in-set-represents",
    "wilds.twos",
];
const RUN_RELATED: [&str; 5] = [
    "runs.min-length",
    "runs.two-in-sequence",
    "runs.wrap-around",
    "readings.ace-position",
    "readings.ace-both-ends",
];

/// A problem found in an inherited rule (say a deal of `spec/push.yaml`) is usually caused by a
/// rule the user's own file changed: point there, and name the inherited rule in the message.
fn relocate(raw: &RawRules, top: &str, d: Diagnostic, related: &[&str]) -> Diagnostic {
    if d.file == top {
        return d;
    }
    let Some((path, e)) = related
        .iter()
        .filter_map(|p| raw.get(p).map(|e| (*p, e)))
        .find(|(_, e)| e.origin.file == top)
    else {
        return d;
    };
    Diagnostic {
        file: e.origin.file.clone(),
        line: e.origin.pos.line,
        column: e.origin.pos.column,
        path: path.to_string(),
        message: format!(
            "{} ({} is inherited from {}:{})",
            d.message, d.path, d.file, d.line
        ),
        hint: d.hint,
    }
}

/// Checks a resolved raw rule set for completeness and meaning, and compiles it.
fn compile(raw: &RawRules, top: &str) -> Result<Rules, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let missing: Vec<&str> = spec::rule_defs()
        .iter()
        .filter(|d| d.required && raw.get(&d.path).is_none())
        .map(|d| d.path.as_str())
        .collect();
    if !missing.is_empty() {
        let hint = if missing.len() > 3 {
            "a standalone rules file gives every rule; a house file starts with `extends: push` and lists only what it changes"
        } else if missing.contains(&"game") {
            "every rules file names its own game (`game: our-house`): a house file's id is not inherited"
        } else {
            "give these rules, or inherit them with `extends:`"
        };
        diags.push(
            Diagnostic::new(
                top,
                Pos::default(),
                "",
                format!(
                    "{} rule(s) are not set: {}",
                    missing.len(),
                    missing.join(", ")
                ),
            )
            .with_hint(hint),
        );
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let at = |path: &str| {
        let o = &raw.get(path).expect("checked above").origin;
        (o.file.clone(), o.pos)
    };
    let text = |path: &str| match raw.get(path).map(|e| &e.value) {
        Some(Leaf::Text(s)) => s.clone(),
        _ => String::new(),
    };
    let mut readings = Readings::first();
    for id in DisputeId::ALL {
        let name = choice(raw, &format!("readings.{}", id.id()));
        let ok = readings.set(id, name);
        debug_assert!(ok, "reading names are checked when decoding");
    }
    let players = match raw.get("players.count").map(|e| &e.value) {
        Some(Leaf::Range(a, b)) => (*a, *b),
        _ => (4, 4),
    };
    let large_table = match (
        raw.get("decks.large-table.standard-decks"),
        raw.get("decks.large-table.jokers"),
    ) {
        (None, None) => {
            if let Some(e) = raw.get("decks.large-table.from-players") {
                diags.push(
                    Diagnostic::new(
                        &e.origin.file,
                        e.origin.pos,
                        "decks.large-table.from-players",
                        "`decks.large-table` names `from-players` but not the cards to add",
                    )
                    .with_hint("add `standard-decks` and `jokers`, e.g. 1 and 2"),
                );
            }
            None
        }
        _ => Some(LargeTable {
            from_players: raw
                .get("decks.large-table.from-players")
                .map(|_| int(raw, "decks.large-table.from-players") as u8),
            standard_decks: int(raw, "decks.large-table.standard-decks") as u8,
            jokers: int(raw, "decks.large-table.jokers") as u8,
        }),
    };
    let rounds_spec: Vec<RoundSpec> = match raw.get("rounds").map(|e| &e.value) {
        Some(Leaf::Rounds(r)) => r.clone(),
        _ => Vec::new(),
    };
    let mut points = [0u16; 14];
    points[0] = int(raw, "scoring.points.JK") as u16;
    for (i, key) in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        .iter()
        .enumerate()
    {
        points[i + 3] = int(raw, &format!("scoring.points.{key}")) as u16;
    }
    points[1] = match readings.ace_penalty_value {
        reading::AcePenaltyValue::V15 => 15,
    };
    points[2] = match readings.two_penalty_value {
        reading::TwoPenaltyValue::V20 => 20,
        reading::TwoPenaltyValue::V15 => 15,
    };
    let two_in_sequence = flag(raw, "runs.two-in-sequence");
    let wrap_around = flag(raw, "runs.wrap-around");
    let ace_low = readings.ace_position == reading::AcePosition::HighOrLow;
    let line = build_line(two_in_sequence, wrap_around, ace_low);
    let LineMasks {
        rank_places,
        run_windows,
        run_reach,
        rank_neighbours,
        places_by_halves,
        placed_ranks,
    } = from_line(&line, wrap_around);
    let rules = Rules {
        game: text("game"),
        name: text("name"),
        players,
        standard_decks: int(raw, "decks.standard-decks") as u8,
        jokers: int(raw, "decks.jokers") as u8,
        large_table,
        twos_wild: flag(raw, "wilds.twos"),
        set_min: int(raw, "sets.min-size") as u8,
        run_min: int(raw, "runs.min-length") as u8,
        two_in_sequence,
        wrap_around,
        rounds: rounds_spec
            .iter()
            .map(|r| Round {
                deal: r.deal,
                contract: r.contract.clone(),
            })
            .collect(),
        push_stock_cards: int(raw, "push.stock-cards") as u8,
        push_to: if choice(raw, "push.to") == "right" {
            Direction::Right
        } else {
            Direction::Left
        },
        discard_wilds: choice(raw, "discard.wilds") != "forbidden",
        when_empty: if choice(raw, "stock.when-empty") == "reshuffle-discards" {
            WhenEmpty::ReshuffleDiscards
        } else {
            WhenEmpty::EndHand
        },
        stall_limit: int(raw, "stock.stall-limit") as u32,
        points,
        readings,
        run_reach,
        rank_places,
        run_windows,
        rank_neighbours,
        places_by_halves,
        placed_ranks,
        line,
    };

    // Meaning.
    let (pf, pp) = at("players.count");
    let rounds_origin = at("rounds");
    for (i, r) in rounds_spec.iter().enumerate() {
        let file = &rounds_origin.0;
        for n in rules.players.0..=rules.players.1 {
            let need = usize::from(n) * usize::from(r.deal) + 1;
            let have = rules.pack_size(n);
            if need > have {
                diags.push(relocate(raw, top, Diagnostic::new(
                    file,
                    r.deal_pos,
                    &format!("rounds[{i}].deal"),
                    format!(
                        "dealing {} cards to {n} players needs {need} cards with the upcard; the pack for {n} players has {have}",
                        r.deal
                    ),
                ), &DEAL_RELATED));
                break;
            }
        }
        let (decks, jokers) = rules.pack(rules.players.0);
        let wilds = usize::from(jokers)
            + if rules.twos_wild {
                4 * usize::from(decks)
            } else {
                0
            };
        let total: usize = r.contract.iter().map(|c| usize::from(c.size)).sum();
        if total > rules.pack_size(rules.players.0) {
            diags.push(relocate(
                raw,
                top,
                Diagnostic::new(
                    file,
                    r.deal_pos,
                    &format!("rounds[{i}].contract"),
                    format!(
                        "the contract needs {total} cards; the pack has {}",
                        rules.pack_size(rules.players.0)
                    ),
                ),
                &DEAL_RELATED,
            ));
        }
        for (j, c) in r.contract.iter().enumerate() {
            let path = format!("rounds[{i}].contract[{j}]");
            let pos = r.contract_pos[j];
            match c.kind {
                MeldKind::Set => {
                    if c.size < rules.set_min {
                        diags.push(relocate(raw, top, Diagnostic::new(
                            file,
                            pos,
                            &path,
                            format!(
                                "a set of {} is smaller than the smallest set (sets.min-size {})",
                                c.size, rules.set_min
                            ),
                        ), &SET_RELATED));
                    }
                    let max = rules.max_set(usize::from(decks), wilds);
                    if usize::from(c.size) > max {
                        diags.push(relocate(raw, top,
                            Diagnostic::new(
                                file,
                                pos,
                                &path,
                                format!("a contract {c} cannot be made: a set holds at most {max} cards under these rules"),
                            )
                            .with_hint("readings set-max-size, set-duplicate-suits and wild-in-set-represents limit sets")
                        , &SET_RELATED));
                    }
                }
                MeldKind::Run => {
                    if c.size < rules.run_min {
                        diags.push(relocate(raw, top, Diagnostic::new(
                            file,
                            pos,
                            &path,
                            format!(
                                "a run of {} is shorter than the shortest run (runs.min-length {})",
                                c.size, rules.run_min
                            ),
                        ), &RUN_RELATED));
                    }
                    if usize::from(c.size) > rules.max_run() {
                        diags.push(relocate(raw, top,
                            Diagnostic::new(
                                file,
                                pos,
                                &path,
                                format!(
                                    "a run of {} is longer than the rank order allows ({} cards)",
                                    c.size,
                                    rules.max_run()
                                ),
                            )
                            .with_hint("see runs.two-in-sequence, runs.wrap-around and the readings ace-position and ace-both-ends")
                        , &RUN_RELATED));
                    }
                }
            }
        }
    }
    if let Some(lt) = rules.large_table
        && let Some(f) = lt.from_players
        && f <= rules.players.0
    {
        let (file, pos) = at("decks.large-table.from-players");
        diags.push(Diagnostic::new(
            &file,
            pos,
            "decks.large-table.from-players",
            format!("large-table cards from {f} players would apply to every game (players start at {})", rules.players.0),
        ));
    }
    if rules.players.0 < 2 {
        diags.push(Diagnostic::new(
            &pf,
            pp,
            "players.count",
            "a game needs at least 2 players",
        ));
    }
    if diags.is_empty() {
        Ok(rules)
    } else {
        Err(diags)
    }
}

impl Rules {
    /// Sets the reading of one dispute by name (and recomputes what depends on readings);
    /// `false` if `name` is not one of its readings.
    pub fn set_reading(&mut self, id: DisputeId, name: &str) -> bool {
        let ok = self.readings.set(id, name);
        self.refresh();
        ok
    }

    /// Recomputes the derived fields (the rank line, the points of aces and twos) after a
    /// reading or a structural field was changed in place.
    pub fn refresh(&mut self) {
        let ace_low = self.readings.ace_position == reading::AcePosition::HighOrLow;
        self.line = build_line(self.two_in_sequence, self.wrap_around, ace_low);
        LineMasks {
            rank_places: self.rank_places,
            run_windows: self.run_windows,
            run_reach: self.run_reach,
            rank_neighbours: self.rank_neighbours,
            places_by_halves: self.places_by_halves,
            placed_ranks: self.placed_ranks,
        } = from_line(&self.line, self.wrap_around);
        self.points[1] = match self.readings.ace_penalty_value {
            reading::AcePenaltyValue::V15 => 15,
        };
        self.points[2] = match self.readings.two_penalty_value {
            reading::TwoPenaltyValue::V20 => 20,
            reading::TwoPenaltyValue::V15 => 15,
        };
    }

    /// Whether a 2 may stand for itself in a set (a set of twos): always when twos are not wild.
    pub fn natural_two_in_sets(&self) -> bool {
        !self.twos_wild || self.readings.natural_twos == reading::NaturalTwos::RunsAndSets
    }

    /// Whether a 2 may stand for itself in a run, at its own place.
    pub fn natural_two_in_runs(&self) -> bool {
        !self.twos_wild || self.readings.natural_twos != reading::NaturalTwos::Never
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_messages_fold_dot_parts() {
        assert_eq!(
            normalize(Path::new("spec/house/../push.yaml")),
            "spec/push.yaml"
        );
        assert_eq!(normalize(Path::new("./spec/./push.yaml")), "spec/push.yaml");
        // A `..` with nothing before it to fold stays.
        assert_eq!(normalize(Path::new("../../x.yaml")), "../../x.yaml");
    }

    /// `wild_mask` holds exactly the cards `is_wild` accepts, and `placed_ranks` exactly the
    /// ranks with a place on the line, in every game, with twos wild and not, and with and
    /// without wrap-around and a 2 in sequence.
    #[test]
    fn the_wild_mask_and_the_placed_ranks_are_what_they_stand_for() {
        for game in GAMES {
            for twos in [false, true] {
                for (wrap, two_in_sequence) in [(false, false), (false, true), (true, true)] {
                    let mut rules = load(game, &[]).unwrap().rules;
                    rules.twos_wild = twos;
                    rules.wrap_around = wrap;
                    rules.two_in_sequence = two_in_sequence;
                    rules.refresh();
                    let wild = Card::all()
                        .filter(|&c| rules.is_wild(c))
                        .fold(0u64, |m, c| m | 1 << c.index());
                    assert_eq!(rules.wild_mask(), wild, "{game}, twos wild: {twos}");
                    let placed = (0..13)
                        .filter(|&r| {
                            rules
                                .line
                                .iter()
                                .any(|p| usize::from(p.rank.number()) == r + 1)
                        })
                        .fold(0u64, |m, r| m | 1 << r);
                    assert_eq!(
                        rules.placed_ranks, placed,
                        "{game}, wrap {wrap}, 2 in sequence {two_in_sequence}"
                    );
                }
            }
        }
    }

    /// `places_of` by its tables is the union of the ranks' places, for every set of ranks on
    /// every line (bits above the thirteenth ignored).
    #[test]
    fn places_of_is_the_union_of_the_ranks_places() {
        for game in GAMES {
            for wrap in [false, true] {
                let mut rules = load(game, &[]).unwrap().rules;
                rules.wrap_around = wrap;
                rules.refresh();
                for ranks in 0u64..1 << 13 {
                    let want = (0..13)
                        .filter(|&r| ranks >> r & 1 == 1)
                        .fold(0, |p, r| p | rules.rank_places[r]);
                    assert_eq!(rules.places_of(ranks), want, "{game}, ranks {ranks:#b}");
                    assert_eq!(
                        rules.places_of(ranks | 0b101 << 13),
                        want,
                        "{game}, high bits"
                    );
                }
            }
        }
    }

    /// A rank's neighbours are the ranks of the places next to one of its places: read here
    /// from every pair of neighbouring places on the line, for every game with and without
    /// wrap-around and under both ace positions.
    #[test]
    fn rank_neighbours_are_the_ranks_of_neighbouring_places() {
        for game in GAMES {
            for wrap in [false, true] {
                for ace in [
                    reading::AcePosition::HighOrLow,
                    reading::AcePosition::HighOnly,
                ] {
                    let mut rules = load(game, &[]).unwrap().rules;
                    rules.wrap_around = wrap;
                    rules.readings.ace_position = ace;
                    rules.refresh();
                    let len = rules.line.len();
                    let mut want = [[0u16; 2]; 13];
                    for lo in 0..len {
                        let hi = lo + 1;
                        if hi == len && !wrap {
                            continue;
                        }
                        let (a, b) = (rules.line[lo].rank, rules.line[hi % len].rank);
                        want[usize::from(b.number()) - 1][0] |= 1 << a.number();
                        want[usize::from(a.number()) - 1][1] |= 1 << b.number();
                    }
                    assert_eq!(rules.rank_neighbours, want, "{game}, wrap {wrap}, {ace:?}");
                }
            }
        }
    }

    /// The games are the first built-in rule sets, and extend nothing; every other built-in
    /// extends one of them.
    #[test]
    fn the_games_lead_the_built_ins_and_the_presets_extend_them() {
        let names: Vec<&str> = BUILT_IN.iter().map(|(n, _, _)| *n).collect();
        assert_eq!(names[..GAMES.len()], GAMES);
        for (name, _, _) in BUILT_IN {
            let chain = load(name, &[]).unwrap().chain;
            assert_eq!(chain.len() == 1, GAMES.contains(name), "{name}: {chain:?}");
        }
    }

    #[test]
    fn every_built_in_compiles() {
        for (name, _, _) in BUILT_IN {
            if let Err(e) = load(name, &[]) {
                panic!("{name}: {}", e.render());
            }
        }
    }

    #[test]
    fn show_round_trips() {
        for (name, _, _) in BUILT_IN {
            let loaded = load(name, &[]).unwrap();
            let text = loaded.show();
            let again = load_text("shown.yaml", &text, Path::new("."))
                .unwrap_or_else(|e| panic!("{name}: {}\n{text}", e.render()));
            assert_eq!(again.rules, loaded.rules, "{name}");
            assert_eq!(
                again.show().lines().skip(2).collect::<Vec<_>>(),
                text.lines().skip(2).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn rank_lines() {
        let push = load("push", &[]).unwrap().rules;
        assert_eq!(push.line.len(), 14);
        assert_eq!(push.max_run(), 13);
        let both = load("push", &[(DisputeId::AceBothEnds, "allowed".into())])
            .unwrap()
            .rules;
        assert_eq!(both.max_run(), 14);
        let six = load("six-to-ten", &[]).unwrap().rules;
        assert_eq!(six.line.len(), 12, "{:?}", six.line);
    }

    #[test]
    fn rank_places_follow_the_line_as_readings_change_it() {
        let places_of = |r: &Rules, rank: Rank| -> Vec<usize> {
            let mask = r.rank_places[usize::from(rank.number()) - 1];
            (0..32).filter(|pl| mask & 1 << pl != 0).collect()
        };
        let mut push = load("push", &[]).unwrap().rules;
        // A 2 3 … K A: the ace at both ends, the 2 just above the low ace.
        assert_eq!(places_of(&push, Rank::Ace), vec![0, 13]);
        assert_eq!(places_of(&push, Rank::Two), vec![1]);
        assert_eq!(places_of(&push, Rank::King), vec![12]);
        push.set_reading(DisputeId::AcePosition, "high-only");
        assert_eq!(places_of(&push, Rank::Ace), vec![12]);
        assert_eq!(places_of(&push, Rank::King), vec![11]);
        for r in [&push, &load("six-to-ten", &[]).unwrap().rules] {
            for (pl, place) in r.line.iter().enumerate() {
                assert!(places_of(r, place.rank).contains(&pl), "{pl} {:?}", r.line);
            }
        }
        let six = load("six-to-ten", &[]).unwrap().rules;
        assert_eq!(places_of(&six, Rank::Two), Vec::<usize>::new());
    }

    /// `places_of` is the union of the ranks' places: an ace has two on Push's line, no rank none,
    /// and a bit past the 13 ranks (a suit's next rank, in a hand's mask) adds nothing.
    #[test]
    fn places_of_joins_the_places_of_the_ranks() {
        let push = load("push", &[]).unwrap().rules;
        let p = push.rank_places;
        assert_eq!(push.places_of(0), 0);
        assert_eq!(push.places_of(1), p[0]);
        assert_eq!(p[0].count_ones(), 2, "the ace, low and high");
        assert_eq!(push.places_of(1 | 1 << 6 | 1 << 12), p[0] | p[6] | p[12]);
        assert_eq!(push.places_of(0x1FFF), p.iter().fold(0, |a, m| a | m));
        assert_eq!(push.places_of(1 << 13 | 1 << 40 | 1 << 4), p[4]);
    }

    /// A run of `n` may hold two places together exactly when they lie fewer than `n` places
    /// apart (the short way round where runs wrap), and no run longer than the line exists; the
    /// reach follows the line and the wrap.
    #[test]
    fn reach_is_every_place_within_a_run_of_a_ranks_places() {
        let mut push = load("push", &[]).unwrap().rules;
        for wrap in [false, true] {
            push.wrap_around = wrap;
            push.refresh();
            let len = push.line.len();
            for n in 0..=len + 1 {
                for rank in Rank::ALL {
                    let own = push.rank_places[usize::from(rank.number()) - 1];
                    let mut expected = 0u32;
                    for p in (0..len).filter(|p| own & 1 << p != 0) {
                        for q in 0..len {
                            let apart = p.abs_diff(q);
                            let apart = if wrap { apart.min(len - apart) } else { apart };
                            if n <= len && apart < n {
                                expected |= 1 << q;
                            }
                        }
                    }
                    assert_eq!(
                        push.reach(n, rank),
                        expected,
                        "{rank:?}, run of {n}, wrap {wrap}"
                    );
                }
            }
        }
        assert_ne!(push.reach(4, Rank::Seven), 0);
    }

    /// A run's windows are its places for each start: every place from which it fits, or every
    /// place around the corner where runs wrap (one for the whole circle); they follow the line
    /// when a reading or the wrap changes.
    #[test]
    fn run_windows_follow_the_line_and_the_wrap() {
        let mut push = load("push", &[]).unwrap().rules;
        // A 2 3 … K A: fourteen places, a run of 4 starts at eleven of them.
        assert_eq!(push.windows(4).len(), 11);
        assert_eq!(push.windows(4)[0], 0b1111);
        assert_eq!(push.windows(4)[10], 0b1111 << 10);
        assert_eq!(push.windows(15), &[] as &[u32]);
        push.set_reading(DisputeId::AcePosition, "high-only");
        assert_eq!(push.windows(4).len(), 10);
        push.wrap_around = true;
        push.refresh();
        let len = push.line.len();
        assert_eq!(push.windows(4).len(), len);
        assert_eq!(
            push.windows(4)[len - 1],
            1 << (len - 1) | 0b111,
            "past the corner"
        );
        assert_eq!(
            push.windows(len),
            &[(1u32 << len) - 1],
            "the full circle once"
        );
        for n in 1..=len {
            let starts = if n == len { 1 } else { len };
            assert_eq!(push.windows(n).len(), starts, "{n} cards around the circle");
            for &w in push.windows(n) {
                assert_eq!(w.count_ones() as usize, n);
            }
        }
    }
}
