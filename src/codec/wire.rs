//! The shared code behind `#[derive(WireDeserialize)]` (crate `ecaz-derive`).
//!
//! D-150 (the WASM module's size; docs/ARCHITECTURE.md, "Why the engine
//! keeps its own JSON reader and writer"): serde's derived `Deserialize` of an internally tagged enum
//! buffers the object into serde's private `Content` and visits it again with
//! one visitor per variant, every unit-only enum carries its own identifier
//! visitor, and every struct its own field and map/sequence visitors, each
//! compiled once per deserializer; that was most of the WASM module. The
//! derive emits, per type, only a name table and the field reads; the
//! visitors here are shared by every type. An object's members are kept as
//! raw JSON text and each field is read with the same text deserializer as
//! the rest of the document, so every type is compiled for one deserializer
//! only. The wire format, the accepted documents and the error codes are
//! serde's; docs/RULES.md D-150 lists the few corners that differ.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess, VariantAccess, Visitor};

/// Reads a variant name (or, as serde's derive allows, its index) against a
/// name table; the result is the index in the table.
struct VariantIndex {
    names: &'static [&'static str],
}

/// What `VariantIndex` expects of an index (serde's wording).
struct IndexRange(usize);

impl de::Expected for IndexRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "variant index 0 <= i < {}", self.0)
    }
}

impl VariantIndex {
    fn find<E: de::Error>(&self, name: &str) -> Result<usize, E> {
        self.names
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| E::unknown_variant(name, self.names))
    }
}

impl<'de> Visitor<'de> for VariantIndex {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<usize, E> {
        usize::try_from(index)
            .ok()
            .filter(|i| *i < self.names.len())
            .ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(index), &IndexRange(self.names.len())))
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<usize, E> {
        self.find(name)
    }

    fn visit_bytes<E: de::Error>(self, name: &[u8]) -> Result<usize, E> {
        self.find(&String::from_utf8_lossy(name))
    }
}

impl<'de> DeserializeSeed<'de> for VariantIndex {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

/// Visits a unit-only enum as serde's derive does (`deserialize_enum`, then
/// a unit variant).
struct UnitEnum {
    name: &'static str,
    names: &'static [&'static str],
}

impl<'de> Visitor<'de> for UnitEnum {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (index, variant) = data.variant_seed(VariantIndex { names: self.names })?;
        variant.unit_variant()?;
        Ok(index)
    }
}

/// The index in `names` of the unit variant read (enum `name`, for messages).
pub(crate) fn unit_variant<'de, D: Deserializer<'de>>(
    deserializer: D,
    name: &'static str,
    names: &'static [&'static str],
) -> Result<usize, D::Error> {
    deserializer.deserialize_enum(name, names, UnitEnum { name, names })
}

/// The `index`th of `all` (the derive passes tables of equal length, so the
/// error is never met).
pub(crate) fn nth<T: Copy, E: de::Error>(all: &[T], index: usize) -> Result<T, E> {
    all.get(index).copied().ok_or_else(no_variant)
}

/// A member's value, read from its raw text.
fn read<T: DeserializeOwned>(raw: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str(raw).map_err(unplaced)
}

/// An error met inside a member's text, without the line and column in that
/// text (they would mislead: D-150).
fn unplaced(e: serde_json::Error) -> serde_json::Error {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    de::Error::custom(text.strip_suffix(&place).unwrap_or(&text))
}

/// The error for a table index out of range (never met: see [`nth`]).
pub(crate) fn no_variant<E: de::Error>() -> E {
    E::custom("variant table mismatch")
}

/// The members of an object, read once; the derive takes the tag (of an
/// internally tagged enum), then each field of the struct or variant. The
/// members are kept as raw text, borrowed from the document when it is a
/// string (the engine's JSON doors); past [`FEW_MEMBERS`], those the type
/// does not read are skipped, as serde's derive skips them, and the first of
/// them is kept by name for `deny_unknown_fields`. Each member's place in
/// the document is kept so that [`Object::only`] names the first stray
/// member, as serde does ([`Object::take`] does not keep the order).
pub(crate) struct Object<'de> {
    pub(crate) entries: Vec<(usize, Cow<'de, str>, Cow<'de, str>)>,
    pub(crate) unknown: Option<(usize, Cow<'de, str>)>,
}

/// serde_json's name for its raw-value protocol (feature `raw_value`): a
/// newtype struct of this name is handed over as a one-member map whose
/// value is the member's JSON text — borrowed from a string document, owned
/// from a `Value`. The name is not public API, so serde_json is pinned
/// exactly in every Cargo.toml of the workspace (D-220); the public
/// `RawValue` types either copy every member (`Box<RawValue>`) or refuse a
/// `Value` document (`&RawValue`). Tested by
/// `wire::tests::members_are_borrowed_from_text_and_owned_from_values`.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// An object's key, or a member's raw text, borrowed from the document
/// when it can be.
struct Text;

impl<'de> Visitor<'de> for Text {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_string()))
    }

    fn visit_string<E: de::Error>(self, key: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key))
    }
}

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

/// A string value, borrowed from the document when it can be (serde's own
/// `Cow<str>` always copies it into a new `String`): for the ids read as
/// plain strings, such as a command's actor (D-153).
pub(crate) fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Cow<'de, str>, D::Error> {
    Text.deserialize(deserializer)
}

/// A member's value as raw JSON text (serde_json's raw-value protocol).
struct Raw;

impl<'de> Visitor<'de> for Raw {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        if map.next_key::<de::IgnoredAny>()?.is_none() {
            return Err(de::Error::invalid_type(de::Unexpected::Map, &self));
        }
        map.next_value_seed(Text)
    }
}

impl<'de> DeserializeSeed<'de> for Raw {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, self)
    }
}

/// Up to this many members an object's members are all kept and a repeated
/// name is found by comparison; past them, each name is looked up among the
/// names the type reads, and the others are skipped (D-151: linear in
/// the members whatever their number).
pub(crate) const FEW_MEMBERS: usize = 16;

/// The members an object's reading makes room for at once (D-153).
const ENTRIES: usize = 12;

/// Reads an object's members (`known`: the names the type reads, sorted by
/// length then bytes); a repeated name is serde's `duplicate field`.
struct Members {
    expecting: &'static str,
    known: &'static [&'static str],
}

impl<'de> Visitor<'de> for Members {
    type Value = Object<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = Object {
            // Room for a command's largest objects at once (no regrowth,
            // each a copy through `memcpy` in the WASM build: D-153).
            entries: Vec::with_capacity(ENTRIES),
            unknown: None,
        };
        // The known names met, once past the first few members (the derive
        // allows at most 128 names per type).
        let mut seen = 0u128;
        let mut at = 0usize;
        while let Some(key) = map.next_key_seed(Text)? {
            let repeated = if at < FEW_MEMBERS {
                // The first few members are all kept and compared (cheaper
                // than looking each name up).
                object.entries.iter().any(|(_, k, _)| *k == key)
            } else {
                if at == FEW_MEMBERS {
                    for (_, k, _) in &object.entries {
                        seen |= self.bit(k);
                    }
                }
                let bit = self.bit(&key);
                if bit == 0 {
                    map.next_value::<de::IgnoredAny>()?;
                    if object.unknown.is_none() {
                        object.unknown = Some((at, key));
                    }
                    at += 1;
                    continue;
                }
                let repeated = seen & bit != 0;
                seen |= bit;
                repeated
            };
            if repeated {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            let value = map.next_value_seed(Raw)?;
            object.entries.push((at, key, value));
            at += 1;
        }
        Ok(object)
    }
}

impl Members {
    /// The bit of a known name in the set of names met (0: not a name the type reads).
    fn bit(&self, key: &str) -> u128 {
        let name = key.as_bytes();
        self.known
            .binary_search_by(|k| k.len().cmp(&name.len()).then_with(|| k.as_bytes().cmp(name)))
            .ok()
            .and_then(|index| u32::try_from(index).ok())
            .and_then(|index| 1u128.checked_shl(index))
            .unwrap_or(0)
    }
}

impl<'de> Object<'de> {
    /// Reads an object (anything else is serde's `invalid type` against
    /// `expecting`); `known` is every member name the type reads, sorted by
    /// length then bytes.
    pub(crate) fn read<D: Deserializer<'de>>(
        deserializer: D,
        expecting: &'static str,
        known: &'static [&'static str],
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Members { expecting, known })
    }

    /// Takes a member out (the last one moves into its place).
    fn take(&mut self, key: &str) -> Option<Cow<'de, str>> {
        let at = self.entries.iter().position(|(_, k, _)| k == key)?;
        Some(self.entries.swap_remove(at).2)
    }

    /// Takes the tag `tag` and returns the index of the variant it names in `names`.
    pub(crate) fn variant(
        &mut self,
        tag: &'static str,
        names: &'static [&'static str],
    ) -> Result<usize, serde_json::Error> {
        let raw = self.take(tag).ok_or_else(|| de::Error::missing_field(tag))?;
        VariantIndex { names }
            .deserialize(&mut serde_json::Deserializer::from_str(&raw))
            .map_err(unplaced)
    }

    /// `deny_unknown_fields`: every member left must be one of `fields`
    /// (the first stray member in document order is named).
    pub(crate) fn only(&self, fields: &'static [&'static str]) -> Result<(), serde_json::Error> {
        let stray = self
            .entries
            .iter()
            .filter(|(_, k, _)| !fields.contains(&k.as_ref()))
            .map(|(at, k, _)| (*at, k))
            .chain(self.unknown.as_ref().map(|(at, k)| (*at, k)))
            .min_by_key(|(at, _)| *at);
        match stray {
            Some((_, key)) => Err(de::Error::unknown_field(key, fields)),
            None => Ok(()),
        }
    }

    /// A field that must be present.
    pub(crate) fn required<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<T, serde_json::Error> {
        match self.take(key) {
            Some(raw) => read(&raw),
            None => Err(de::Error::missing_field(key)),
        }
    }

    /// An `Option` field: missing is `None`, as with serde's derive.
    pub(crate) fn optional<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<Option<T>, serde_json::Error> {
        match self.take(key) {
            Some(raw) => read(&raw),
            None => Ok(None),
        }
    }

    /// A field of a struct with a container `#[serde(default)]`: missing is `fallback`.
    pub(crate) fn or<T: DeserializeOwned>(&mut self, key: &'static str, fallback: T) -> Result<T, serde_json::Error> {
        match self.take(key) {
            Some(raw) => read(&raw),
            None => Ok(fallback),
        }
    }

    /// A `#[serde(default)]` field.
    pub(crate) fn or_default<T: DeserializeOwned + Default>(
        &mut self,
        key: &'static str,
    ) -> Result<T, serde_json::Error> {
        match self.take(key) {
            Some(raw) => read(&raw),
            None => Ok(T::default()),
        }
    }
}
