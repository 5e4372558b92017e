//! The input policy of every door (D-180, docs/integration.md "Input
//! policy"): one cap on an input's length in bytes, checked before a byte of
//! it is parsed; nesting bounded by the parser ([`MAX_NESTING`]); and, where
//! a document is read into a `serde_json::Value` (a format-1 state, the
//! `before`/`after` of a `tableSynced` event), a streaming count of its
//! values first, so that no `Value` is built from more than
//! [`MAX_JSON_VALUES`] values.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::model::error::ApplyError;

/// The longest input (in bytes of UTF-8) any door reads: 16 MiB. A longer
/// one is `decode/input_too_large`, refused before it is parsed (D-180).
pub const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// The deepest nesting of arrays and objects any door reads (serde_json's
/// recursion limit, met while parsing, before anything is built for the
/// level past it) (D-180).
pub const MAX_NESTING: usize = 128;

/// The most JSON values (scalars, arrays and objects, each counted once) a
/// document read into a `serde_json::Value` may hold: a format-1 state or an
/// event list. Counted by a streaming pass that builds nothing (D-180); far
/// above any document the engine writes (a game's state holds a few
/// thousand).
pub const MAX_JSON_VALUES: usize = 1 << 18;

/// Refuse `text` when it is longer than [`MAX_INPUT_BYTES`] (D-180).
pub(crate) fn check_len(text: &str, what: &'static str) -> Result<(), ApplyError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(ApplyError::InputTooLarge { what, len: text.len() });
    }
    Ok(())
}

/// What a streaming pass over a document found wrong.
#[derive(Debug)]
pub(crate) enum Shape {
    /// Not JSON (or nested past [`MAX_NESTING`]): serde_json's message.
    Syntax(String),
    /// More than [`MAX_JSON_VALUES`] values.
    TooManyValues,
    /// An object names one member twice (the member's name, cut short).
    Duplicate(String),
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Syntax(m) => f.write_str(m),
            Shape::TooManyValues => write!(f, "more than {MAX_JSON_VALUES} JSON values (docs/RULES.md D-180)"),
            Shape::Duplicate(name) => write!(f, "duplicate member `{name}`"),
        }
    }
}

/// Walk `text` once, building nothing but each object's member names (to
/// refuse a duplicate when `unique_members`): the syntax, the nesting, the
/// count of values (at most [`MAX_JSON_VALUES`]).
pub(crate) fn scan(text: &str, unique_members: bool) -> Result<(), Shape> {
    let budget = Cell::new(MAX_JSON_VALUES);
    let found = Cell::new(None);
    let walk = Walk {
        budget: &budget,
        unique_members,
        found: &found,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let outcome = walk.deserialize(&mut de).and_then(|()| de.end());
    match (found.take(), outcome) {
        (Some(shape), _) => Err(shape),
        (None, Ok(())) => Ok(()),
        (None, Err(e)) => Err(Shape::Syntax(e.to_string())),
    }
}

/// One value of [`scan`]'s walk.
#[derive(Clone, Copy)]
struct Walk<'a> {
    budget: &'a Cell<usize>,
    unique_members: bool,
    /// The first budget or duplicate failure (serde's error text alone
    /// cannot tell it from a syntax error).
    found: &'a Cell<Option<Shape>>,
}

impl Walk<'_> {
    fn fail<E: de::Error>(self, shape: Shape) -> E {
        let message = shape.to_string();
        self.found.set(Some(shape));
        E::custom(message)
    }

    fn count<E: de::Error>(self) -> Result<(), E> {
        match self.budget.get().checked_sub(1) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(self.fail(Shape::TooManyValues)),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.count()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.count()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.count()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.count()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.count()
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.count()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.count()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.count()?;
        // Member names of this object (bounded: each member is a value
        // counted against the budget).
        // A set: one look-up per member, so an object of many members is
        // scanned in n log n, never n² (the fuzzer's slow-options input).
        let mut names: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        while let Some(name) = map.next_key::<String>()? {
            if self.unique_members && !names.insert(name.clone()) {
                return Err(self.fail(Shape::Duplicate(crate::model::error::bounded_message(name))));
            }
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

/// The `version` member of a state document as found, read without keeping
/// anything but a number or a short description (D-181).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Version {
    /// No `version` member (or the document is not an object).
    Missing,
    /// A non-negative integer.
    Number(u64),
    /// Anything else, described in a few words (a string: a prefix of it).
    Other(String),
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Missing => f.write_str("none"),
            Version::Number(n) => write!(f, "{n}"),
            Version::Other(d) => f.write_str(d),
        }
    }
}

/// The longest prefix of a found string a [`Version`] quotes.
const QUOTED: usize = 32;

/// The `version` member of `text` (a JSON object), read with nothing else
/// kept: every other member is skipped unbuilt.
pub(crate) fn version_of(text: &str) -> Version {
    #[derive(serde::Deserialize)]
    struct Probe {
        #[serde(default)]
        version: Option<Version>,
    }
    serde_json::from_str::<Probe>(text)
        .ok()
        .and_then(|p| p.version)
        .unwrap_or(Version::Missing)
}

impl<'de> serde::Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Describe)
    }
}

/// Reads any JSON value into a [`Version`], skipping the insides of arrays
/// and objects unbuilt.
struct Describe;

impl<'de> Visitor<'de> for Describe {
    type Value = Version;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Version, E> {
        Ok(Version::Other(b.to_string()))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Version, E> {
        Ok(Version::Other(n.to_string()))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Version, E> {
        Ok(Version::Number(n))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Version, E> {
        Ok(Version::Other(n.to_string()))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Version, E> {
        let prefix: String = s.chars().take(QUOTED).collect();
        let more = if prefix.len() < s.len() { "…" } else { "" };
        Ok(Version::Other(format!("the string {prefix:?}{more}")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Version, E> {
        Ok(Version::Other("null".into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Version, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Version::Other("an array".into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Version, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Version::Other("an object".into()))
    }
}

/// An item of a JSON array that must be an object, skipped unbuilt.
pub(crate) struct AnObject;

impl<'de> serde::Deserialize<'de> for AnObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Only;
        impl<'de> Visitor<'de> for Only {
            type Value = AnObject;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnObject, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(AnObject)
            }
        }
        deserializer.deserialize_map(Only)
    }
}
