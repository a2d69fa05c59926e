//! YAML text → a tree of [`Node`]s that remember their line and column.
//!
//! Every input file (rules, scenarios) is read through here, so the limits on input live here too:
//! size, nesting depth, alias expansion, duplicate keys. Typed decoding with field paths and
//! "did you mean" hints is in [`crate::rules::spec`] (rules) and [`crate::suite::scenario`] (scenarios).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;
use std::fmt;

/// The largest YAML input accepted, in bytes.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// The deepest nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// The most YAML nodes one input may produce, aliases expanded.
pub const MAX_NODES: usize = 250_000;

/// Why an input file could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file is larger than [`MAX_INPUT_BYTES`]: its size when known (`None` for a stream that
    /// went on past the limit, like `/dev/zero`).
    TooLarge(Option<u64>),
    /// The bytes are not UTF-8; the position of the first bad byte.
    NotUtf8(Pos),
}

impl ReadError {
    /// The problem in words (for the I/O case, `what` names the file's role: "the scenario").
    pub fn message(&self, what: &str) -> String {
        match self {
            ReadError::Io(e) => {
                let t = e.to_string();
                let t = t.split(" (os error").next().unwrap_or(&t).to_lowercase();
                format!("cannot read {what}: {t}")
            }
            ReadError::TooLarge(Some(n)) => {
                format!("the file is {n} bytes; the limit is {MAX_INPUT_BYTES} bytes")
            }
            ReadError::TooLarge(None) => {
                format!("the file is larger than the limit of {MAX_INPUT_BYTES} bytes")
            }
            ReadError::NotUtf8(_) => "the file is not valid UTF-8 text".into(),
        }
    }

    /// Where the problem is, when it is inside the file.
    pub fn pos(&self) -> Pos {
        match self {
            ReadError::NotUtf8(p) => *p,
            _ => Pos::default(),
        }
    }
}

/// Reads an input file as text, never more than [`MAX_INPUT_BYTES`] + 1 bytes of it (a huge file
/// or an endless stream costs no more memory than the limit).
///
/// # Errors
/// The file cannot be read, is over the limit, or is not UTF-8.
pub fn read_text(path: &std::path::Path) -> Result<String, ReadError> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let known = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    if let Some(n) = known
        && n > MAX_INPUT_BYTES as u64
    {
        return Err(ReadError::TooLarge(Some(n)));
    }
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge(None));
    }
    String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let column =
            (upto.len() - upto.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)) as u32 + 1;
        ReadError::NotUtf8(Pos { line, column })
    })
}

/// A position in a file, 1-based. `line == 0` means unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// A YAML value with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Entries in file order; keys are kept as nodes so their positions can be reported.
    Map(Vec<(Node, Node)>),
}

impl Node {
    pub fn kind_name(&self) -> &'static str {
        match self.value {
            Value::Null => "nothing (null)",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a map",
        }
    }

    /// The scalar as text (strings, numbers and booleans), for keys and names.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Float(f) => Some(f.to_string()),
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.scalar_text().as_deref() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Why a YAML text could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub pos: Pos,
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Parses one YAML document into a [`Node`] tree.
///
/// # Errors
/// Invalid YAML, a duplicate key, more than one document, or input beyond the limits above
/// ([`MAX_INPUT_BYTES`], [`MAX_DEPTH`], [`MAX_NODES`], alias expansion).
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(SyntaxError {
            pos: Pos::default(),
            message: format!(
                "the file is {} bytes; the limit is {} bytes",
                text.len(),
                MAX_INPUT_BYTES
            ),
            hint: None,
        });
    }
    if let Some(i) = text.find('\0') {
        let line = text[..i].matches('\n').count() as u32 + 1;
        return Err(SyntaxError {
            pos: Pos { line, column: 1 },
            message: "the file contains a NUL byte; a YAML file is text".into(),
            hint: None,
        });
    }
    if text.trim().is_empty() {
        return Ok(Node {
            value: Value::Null,
            pos: Pos { line: 1, column: 1 },
        });
    }
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: MAX_DEPTH,
            max_nodes: MAX_NODES,
            max_documents: 1,
            max_reader_input_bytes: Some(MAX_INPUT_BYTES),
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: MAX_NODES,
            max_replay_stack_depth: 16,
            max_alias_expansions_per_anchor: 1_000,
        },
        // Duplicates reach the tree and are reported below with both positions.
        duplicate_keys: serde_saphyr::options::DuplicateKeyPolicy::PassThrough,
        with_snippet: false,
        leading_zero_numbers_as_strings: true,
        strict_booleans: true,
    };
    let spanned: Spanned<Value> =
        serde_saphyr::from_str_with_options(text, options).map_err(|e| {
            let pos = e
                .location()
                .map(|l| Pos {
                    line: l.line() as u32,
                    column: l.column() as u32,
                })
                .unwrap_or_default();
            explain(pos, &first_line(&e.to_string()))
        })?;
    let node = spanned_node(spanned);
    if node.value == Value::Null {
        // Only comments: report the empty document at the top.
        return Ok(Node {
            value: Value::Null,
            pos: Pos { line: 1, column: 1 },
        });
    }
    check_duplicates(&node)?;
    Ok(node)
}

/// Puts the parser's words into ours, with a hint where a usual cause is known.
fn explain(pos: Pos, raw: &str) -> SyntaxError {
    let (message, hint): (String, Option<&str>) = if raw.contains("Documents") {
        (
            "a file holds one YAML document; this one has more".into(),
            Some("remove the `---` line that starts the second document"),
        )
    } else if raw.contains("Depth") || raw.contains("recursion limit") {
        (
            format!("the file nests deeper than {MAX_DEPTH} levels"),
            None,
        )
    } else if raw.contains("Nodes") || raw.contains("Events") || raw.contains("replay") {
        (
            format!(
                "the file expands to more than {MAX_NODES} YAML values (aliases counted in full)"
            ),
            Some("a rules or scenario file is small; check for `*alias` references that multiply"),
        )
    } else if raw.contains("Aliases") || raw.contains("Anchors") || raw.contains("alias") {
        ("the file uses too many anchors or aliases".into(), None)
    } else if raw.contains("did not find expected key") || raw.contains("block mapping") {
        (
            format!("invalid YAML: {raw}"),
            Some("check the indentation of this line against the keys above it"),
        )
    } else if raw.contains("tab") {
        (
            format!("invalid YAML: {raw}"),
            Some("indent with spaces, not tabs"),
        )
    } else if raw.contains("flow")
        || raw.contains("']'")
        || raw.contains("'}'")
        || raw.contains("indicator")
    {
        (
            format!("invalid YAML: {raw}"),
            Some("check for a `[` or `{` that is not closed, or a `:` that needs quotes"),
        )
    } else {
        (format!("invalid YAML: {raw}"), None)
    };
    SyntaxError {
        pos,
        message,
        hint: hint.map(str::to_string),
    }
}

/// YAML forbids a key twice in one map; say where both are. Linear in the size of the tree (a map
/// of many keys is checked through a hash set, not pair by pair).
fn check_duplicates(node: &Node) -> Result<(), SyntaxError> {
    match &node.value {
        Value::Map(entries) => {
            let mut seen: std::collections::HashMap<String, Pos> =
                std::collections::HashMap::with_capacity(entries.len());
            for (k, v) in entries {
                if let Some(name) = k.scalar_text() {
                    if let Some(first) = seen.get(&name) {
                        return Err(SyntaxError {
                            pos: k.pos,
                            message: format!(
                                "`{name}` appears twice in the same map (first at line {})",
                                first.line
                            ),
                            hint: Some("keep one of them".into()),
                        });
                    }
                    seen.insert(name, k.pos);
                }
                check_duplicates(v)?;
            }
            Ok(())
        }
        Value::Seq(items) => items.iter().try_for_each(check_duplicates),
        _ => Ok(()),
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("invalid YAML").trim();
    // serde-saphyr appends " at line N column M"; the position is reported separately.
    match line.find(" at line ") {
        Some(i) => line[..i].to_string(),
        None => line.to_string(),
    }
}

fn spanned_node(s: Spanned<Value>) -> Node {
    Node {
        value: s.value,
        pos: Pos {
            line: s.referenced.line() as u32,
            column: s.referenced.column() as u32,
        },
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        Spanned::<Value>::deserialize(d).map(spanned_node)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::custom("integer too large"))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::custom("integer too large"))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::custom("integer too large"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Value, E> {
        Err(E::custom("binary values are not accepted"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(n) = seq.next_element::<Node>()? {
            v.push(n);
        }
        Ok(Value::Seq(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(k) = map.next_key::<Node>()? {
            let val = map.next_value::<Node>()?;
            v.push((k, val));
        }
        Ok(Value::Map(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_positions_of_keys_and_values() {
        let n = parse("a: 1\nb:\n  - x\n  - \"000\"\n").unwrap();
        let Value::Map(entries) = &n.value else {
            panic!("map expected")
        };
        assert_eq!(entries[1].0.pos, Pos { line: 2, column: 1 });
        let Value::Seq(items) = &entries[1].1.value else {
            panic!("seq expected")
        };
        assert_eq!(items[1].pos.line, 4);
        assert_eq!(items[1].value, Value::Str("000".into()));
    }

    #[test]
    fn leading_zero_numbers_stay_text() {
        let n = parse("s: [000, 003]").unwrap();
        let s = n.get("s").unwrap();
        let Value::Seq(items) = &s.value else {
            panic!()
        };
        assert_eq!(items[1].value, Value::Str("003".into()));
    }

    #[test]
    fn rejects_duplicate_keys_with_position() {
        let e = parse("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(e.pos.line, 3, "{e:?}");
        assert!(e.message.contains("appears twice"), "{e:?}");
    }

    #[test]
    fn rejects_alias_bombs_and_deep_nesting() {
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            bomb.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        assert!(parse(&bomb).is_err());
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert!(parse(&deep).is_err());
    }
}
