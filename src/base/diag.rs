//! Diagnostics: what is wrong with an input file, and where (file, line, column, field path).
//!
//! Every input error that reaches a person goes through [`Diagnostic`]; [`render`] prints them the
//! way rustc does, with the offending line and a caret.

use crate::base::yaml::Pos;
use std::fmt;

/// One problem found in an input file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// The file as the user named it, or `<built-in push>` for embedded files.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The field path, like `sets.min-size` or `rounds[2].contract[0]`; empty for the whole file.
    pub path: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn new(file: &str, pos: Pos, path: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            line: pos.line,
            column: pos.column,
            path: path.to_string(),
            message: message.into(),
            hint: None,
        }
    }

    /// A YAML text of `file` that could not be read at all, with the parser's hint.
    pub fn from_syntax(file: &str, e: crate::base::yaml::SyntaxError) -> Diagnostic {
        let d = Diagnostic::new(file, e.pos, "", e.message);
        match e.hint {
            Some(h) => d.with_hint(h),
            None => d,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }
}

/// `file:line:column: path: message` on one line (hint after ` (hint: …)`).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if !self.path.is_empty() {
            write!(f, ": {}", self.path)?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(h) = &self.hint {
            write!(f, " (hint: {h})")?;
        }
        Ok(())
    }
}

/// A list of diagnostics; the error type of every input that can have several problems.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The most diagnostics kept for one input: past it, one more says how many were left out (a file
/// with a hundred thousand mistakes is answered as quickly as one with ten).
pub const MAX_DIAGNOSTICS: usize = 100;

impl Diagnostics {
    /// `diags`, cut to [`MAX_DIAGNOSTICS`] with a last diagnostic counting the rest.
    pub fn capped(mut diags: Vec<Diagnostic>) -> Diagnostics {
        if diags.len() > MAX_DIAGNOSTICS {
            let more = diags.len() - MAX_DIAGNOSTICS;
            diags.truncate(MAX_DIAGNOSTICS);
            let file = diags.last().map(|d| d.file.clone()).unwrap_or_default();
            diags.push(Diagnostic::new(
                &file,
                Pos::default(),
                "",
                format!("… and {more} more problem(s) not listed"),
            ));
        }
        Diagnostics(diags)
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

/// Renders diagnostics for people, each with the source line and a caret under the field, drawn
/// by `annotate-snippets` (the renderer of rustc and cargo), without colour:
///
/// ```text
/// error: unknown key `min-sise`
///  --> house.yaml:4:3
///   |
/// 4 |   min-sise: 3
///   |   ^^^^^^^^ did you mean `min-size`?
///   |
///   = note: field `sets.min-sise`
/// ```
pub fn render(diags: &Diagnostics, source_of: &dyn Fn(&str) -> Option<String>) -> String {
    render_styled(diags, source_of, false)
}

/// [`render`], in colour when `color` is set (for a terminal).
pub fn render_styled(
    diags: &Diagnostics,
    source_of: &dyn Fn(&str) -> Option<String>,
    color: bool,
) -> String {
    use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    // Each file's lines, split once (a file with thousands of problems is not re-read for each).
    let mut files: std::collections::HashMap<&str, Option<Vec<String>>> =
        std::collections::HashMap::new();
    for (i, d) in diags.0.iter().enumerate() {
        if i == MAX_RENDERED {
            let more = format!(
                "… and {} more problem(s) not shown",
                diags.0.len() - MAX_RENDERED
            );
            out.push_str(&renderer.render(&[Group::with_title(Level::ERROR.primary_title(more))]));
            out.push('\n');
            break;
        }
        let line_text = if d.line > 0 {
            files
                .entry(d.file.as_str())
                .or_insert_with(|| {
                    source_of(&d.file).map(|src| src.lines().map(str::to_string).collect())
                })
                .as_ref()
                .and_then(|lines| lines.get(d.line as usize - 1))
        } else {
            None
        };
        let mut group = Group::with_title(Level::ERROR.primary_title(d.message.as_str()));
        let column = d.column.saturating_sub(1) as usize;
        let shown = line_text.and_then(|text| clip(text, column));
        if let Some(text) = &shown {
            let span = token_span(text, column);
            let mut mark = AnnotationKind::Primary.span(span);
            if let Some(h) = &d.hint {
                mark = mark.label(h.as_str());
            }
            group = group.element(
                Snippet::source(text.as_str())
                    .path(d.file.as_str())
                    .line_start(d.line as usize)
                    .annotation(mark),
            );
        } else {
            let mut origin = Origin::path(d.file.as_str());
            if d.line > 0 {
                origin = origin.line(d.line as usize).char_column(d.column as usize);
            }
            group = group.element(origin);
            if let Some(h) = &d.hint {
                group = group.element(Level::HELP.message(h.as_str()));
            }
            if line_text.is_some() {
                group = group.element(Level::NOTE.message(format!(
                    "the line is not shown: the column is past {MAX_COLUMN_SHOWN}"
                )));
            }
        }
        if !d.path.is_empty() {
            group = group.element(Level::NOTE.message(format!("field `{}`", d.path)));
        }
        out.push_str(&renderer.render(&[group]));
        out.push('\n');
    }
    out
}

/// The byte range of the word that starts at character `column` of `text` (up to a space or a
/// YAML delimiter; a quoted value whole, and a plain word inside one up to its closing quote), at
/// least one character; empty at the end of the line.
fn token_span(text: &str, column: usize) -> std::ops::Range<usize> {
    let Some((start, first)) = text.char_indices().nth(column) else {
        return text.len()..text.len();
    };
    // A quoted value, with its quotes; inside one, a word ends at its closing quote too.
    if let q @ ('"' | '\'') = first
        && let Some(end) = text[start + 1..].find(q)
    {
        return start..start + end + 2;
    }
    let word = text[start..]
        .char_indices()
        .find(|&(i, c)| {
            i > 0
                && (c.is_whitespace()
                    || ",:[]{}#".contains(c)
                    || (first.is_alphanumeric() && (c == '"' || c == '\'')))
        })
        .map_or(text.len() - start, |(i, _)| i);
    start..start + word
}

/// The most diagnostics [`render`] shows; the rest are counted.
pub const MAX_RENDERED: usize = 50;
/// The furthest column [`render`] shows a source line for: past it (a line of megabytes) it names
/// the place only, so rendering stays cheap whatever the file.
pub const MAX_COLUMN_SHOWN: usize = 4096;
/// How much of a source line past the marked column [`render`] keeps (the renderer then trims
/// the line to the width of a terminal around the mark).
const TAIL_SHOWN: usize = 200;

/// The part of `line` to show for a mark at the 0-based character `column` (control characters,
/// which would reach the terminal, as `�`), or `None` when the column is too far to show.
fn clip(line: &str, column: usize) -> Option<String> {
    if column > MAX_COLUMN_SHOWN {
        return None;
    }
    let mut shown: String = line
        .chars()
        .take(column + TAIL_SHOWN + 1)
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect();
    if line.chars().nth(column + TAIL_SHOWN + 1).is_some() {
        shown.push('…');
    }
    Some(shown)
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    let len = word.chars().count();
    for c in candidates {
        // The distance is at least the difference in length: a candidate that far off is never
        // suggested, and a very long word (a hostile key) costs no quadratic work.
        let clen = c.chars().count();
        if len.abs_diff(clen) > len.max(clen) / 3 + 1 {
            continue;
        }
        let d = edit_distance(word, c);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    let (d, c) = best?;
    let limit = (word.chars().count().max(c.chars().count()) / 3).max(1);
    (d <= limit).then_some(c)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
/// neighbours each cost 1 (typos like `cuont` are one step from `count`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, slot) in d.iter_mut().enumerate().take(w) {
        *slot = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let keys = ["min-size", "max-size", "count"];
        assert_eq!(did_you_mean("min-sise", keys), Some("min-size"));
        assert_eq!(did_you_mean("cuont", keys), Some("count"));
        assert_eq!(did_you_mean("wilds", keys), None);
    }

    #[test]
    fn long_lines_are_cut_around_the_caret_and_many_problems_counted() {
        let line = format!("x: [{}]", "9H ".repeat(2000));
        let d = Diagnostic::new(
            "f.yaml",
            Pos {
                line: 1,
                column: 3000,
            },
            "",
            "bad card",
        );
        let text = render(&Diagnostics(vec![d.clone(); 60]), &|_| Some(line.clone()));
        let first: Vec<&str> = text.lines().take(5).collect();
        assert_eq!(first[1], " --> f.yaml:1:3000", "{first:?}");
        assert!(first[3].starts_with("1 | ..."), "{first:?}");
        assert!(text.lines().all(|l| l.chars().count() <= 160), "{text}");
        // The caret still points at the same character: the 3000th of the line.
        let caret = first[4].find('^').expect("a caret");
        let shown = &first[3][caret..];
        let want: String = line.chars().skip(2999).take(2).collect();
        assert!(shown.starts_with(&want), "{first:?}");
        assert_eq!(text.matches("error: bad card").count(), MAX_RENDERED);
        assert!(
            text.ends_with("error: … and 10 more problem(s) not shown\n"),
            "{text}"
        );
    }

    #[test]
    fn a_column_past_the_shown_part_names_the_place_only() {
        let line = "k".repeat(10 * MAX_COLUMN_SHOWN);
        let d = Diagnostic::new(
            "f.yaml",
            Pos {
                line: 1,
                column: 9 * MAX_COLUMN_SHOWN as u32,
            },
            "",
            "bad key",
        );
        let text = render(&Diagnostics(vec![d]), &|_| Some(line.clone()));
        assert!(
            text.contains(&format!("f.yaml:1:{}", 9 * MAX_COLUMN_SHOWN)),
            "{text}"
        );
        assert!(text.contains("the line is not shown"), "{text}");
        assert!(text.len() < 200, "{text}");
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        let d = Diagnostic::new("f.yaml", Pos { line: 1, column: 1 }, "", "odd");
        let text = render(&Diagnostics(vec![d]), &|_| Some("\u{1b}[31mred: 1".into()));
        assert!(!text.contains('\u{1b}'), "{text:?}");
    }

    #[test]
    fn a_very_long_word_gets_no_suggestion_quickly() {
        let word = "k".repeat(1 << 20);
        assert_eq!(did_you_mean(&word, ["min-size", "count"]), None);
    }

    #[test]
    fn renders_caret_under_column() {
        let d = Diagnostic::new(
            "f.yaml",
            Pos { line: 2, column: 3 },
            "sets.x",
            "unknown key `x`",
        )
        .with_hint("did you mean `y`?");
        let text = render(&Diagnostics(vec![d]), &|_| Some("sets:\n  x: 1\n".into()));
        assert_eq!(
            text,
            "error: unknown key `x`\n --> f.yaml:2:3\n  |\n2 |   x: 1\n  |   ^ did you mean `y`?\n  |\n  = note: field `sets.x`\n"
        );
    }
}
