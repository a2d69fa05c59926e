//! Loading a rule set: the built-in rule sets embedded in the binary, [`load`] (a built-in name
//! or a path) and [`load_text`], the `extends` chain read and merged file by file, and
//! `--reading` overrides; the result is compiled (`compile.rs`). The only place here that reads
//! files.

use super::compile::compile;
use super::{Rules, spec};
use crate::base::diag::{Diagnostic, Diagnostics};
use crate::base::yaml::{self, Pos};
use crate::rules::disputes::{DisputeId, list_readings};
use spec::{Leaf, Origin, RawRules};
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
pub(super) fn normalize(p: &Path) -> String {
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
