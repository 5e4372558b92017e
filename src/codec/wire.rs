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
    entries: Vec<(usize, Cow<'de, str>, Cow<'de, str>)>,
    unknown: Option<(usize, Cow<'de, str>)>,
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
const FEW_MEMBERS: usize = 16;

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

#[cfg(test)]
mod tests {
    //! D-150: the derive keeps serde's behaviour (accepted
    //! documents, error category and message) for the corners the corpora
    //! do not reach.
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

    use crate::base::ids::{Faction, FrameId, Territory};
    use crate::model::command::{Action, Origin};

    fn action(text: &str) -> Result<Action, serde_json::Error> {
        serde_json::from_str(text)
    }

    fn message(e: &serde_json::Error) -> String {
        let s = e.to_string();
        s.split(" at line ").next().unwrap_or_default().to_string()
    }

    #[test]
    fn tagged_variant_reads_fields_and_round_trips() {
        let text = r#"{"kind":"relocate","frame":2,"from":"carthag","to":"arrakeen","sector":9}"#;
        let r = action(text).unwrap();
        // `#[serde(default)]` members may be left out.
        assert!(matches!(&r, Action::Relocate { group, advisors: false, .. } if group.is_empty()));
        let back = serde_json::to_string(&r).unwrap();
        assert_eq!(action(&back).unwrap(), r);
        // `Option` without a default: missing is `None`, `null` too.
        let pay = r#"{"kind":"paySpice","faction":"ecaz","amount":2}"#;
        assert!(matches!(action(pay).unwrap(), Action::PaySpice { to: None, .. }));
        let pay = r#"{"kind":"paySpice","faction":"ecaz","amount":2,"to":"fremen"}"#;
        assert!(matches!(
            action(pay).unwrap(),
            Action::PaySpice {
                to: Some(Faction::Fremen),
                ..
            }
        ));
    }

    #[test]
    fn tagged_errors_are_serde_data_errors_with_serde_messages() {
        let cases = [
            (r#"{"frame":1}"#, "missing field `kind`"),
            (r#"{"kind":"nope"}"#, "unknown variant `nope`, expected one of `place`"),
            (r#"{"kind":"decline"}"#, "missing field `frame`"),
            (
                r#"{"kind":"decline","frame":1,"extra":0}"#,
                "unknown field `extra`, expected `frame`",
            ),
            (r#"{"kind":"decline","frame":1,"frame":2}"#, "duplicate field `frame`"),
            (
                r#"{"kind":"decline","kind":"decline","frame":1}"#,
                "duplicate field `kind`",
            ),
            (
                r#"{"kind":"decline","frame":"x"}"#,
                "invalid type: string \"x\", expected u32",
            ),
            (
                r#""decline""#,
                "invalid type: string \"decline\", expected internally tagged enum Action",
            ),
            (
                r#"{"kind":7,"frame":1}"#,
                "invalid type: integer `7`, expected variant identifier",
            ),
        ];
        for (text, expected) in cases {
            let e = action(text).expect_err(text);
            assert_eq!(e.classify(), serde_json::error::Category::Data, "{text}");
            assert!(message(&e).starts_with(expected), "{text}: {e}");
        }
    }

    #[test]
    fn tagged_unit_variant_ignores_other_members_as_serde_does() {
        let o: Origin = serde_json::from_str(r#"{"kind":"reserves","sector":3}"#).unwrap();
        assert_eq!(o, Origin::Reserves);
        let o: Origin = serde_json::from_str(r#"{"sector":3,"kind":"board","territory":"carthag"}"#).unwrap();
        assert_eq!(
            o,
            Origin::Board {
                territory: Territory::Carthag,
                sector: 3
            }
        );
    }

    #[test]
    fn structs_read_objects_with_serde_defaults_and_errors() {
        use crate::base::policy::Policies;
        use crate::model::command::{Command, SectorForces};
        let s: SectorForces = serde_json::from_str(r#"{"sector":4}"#).unwrap();
        assert_eq!(
            s,
            SectorForces {
                sector: 4,
                normal: 0,
                elite: 0
            }
        );
        // A key with an escape is not borrowed from the text; it reads the same.
        let s: SectorForces = serde_json::from_str(r#"{"sect\u006fr":4,"elite":1}"#).unwrap();
        assert_eq!(s.sector, 4);
        assert_eq!(s.elite, 1);
        // A container `#[serde(default)]`: every missing member is the default's.
        let p: Policies = serde_json::from_str("{}").unwrap();
        assert_eq!(p, Policies::default());
        let cases = [
            (r#"{"normal":1}"#, "missing field `sector`"),
            (
                r#"{"sector":1,"other":1}"#,
                "unknown field `other`, expected one of `sector`, `normal`, `elite`",
            ),
            (r#"{"sector":1,"sector":1}"#, "duplicate field `sector`"),
            // D-150: a struct is an object, never an array by position.
            ("[1, 2, 3]", "invalid type: sequence, expected struct SectorForces"),
        ];
        for (text, expected) in cases {
            let e = serde_json::from_str::<SectorForces>(text).expect_err(text);
            assert_eq!(e.classify(), serde_json::error::Category::Data, "{text}");
            assert!(message(&e).starts_with(expected), "{text}: {e}");
        }
        // D-150: an error inside a member carries no line and column (not
        // those of the member's own text either).
        let e =
            serde_json::from_str::<Command>(r#"{"actor":"host","action":{"kind":"decline","frame":-1}}"#).unwrap_err();
        assert_eq!(e.to_string(), "invalid value: integer `-1`, expected u32");
    }

    #[test]
    fn members_are_borrowed_from_text_and_owned_from_values() {
        use super::Object;
        use std::borrow::Cow;
        let text = r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"}}"#;
        let mut de = serde_json::Deserializer::from_str(text);
        let o = Object::read(&mut de, "an object", &["actor", "action"]).unwrap();
        assert_eq!(o.entries.len(), 2);
        assert!(o
            .entries
            .iter()
            .all(|(_, k, v)| matches!(k, Cow::Borrowed(_)) && matches!(v, Cow::Borrowed(_))));
        assert_eq!(o.entries[1].2, r#"{"kind":"endPhase","phase":"storm"}"#);
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let o = Object::read(value.clone(), "an object", &["actor", "action"]).unwrap();
        assert!(o.entries.iter().all(|(_, _, v)| matches!(v, Cow::Owned(_))));
        // The first FEW_MEMBERS members are all kept; past them a member the
        // type does not read is skipped, only the first one's name kept.
        let mut de = serde_json::Deserializer::from_str(text);
        let o = Object::read(&mut de, "an object", &["actor"]).unwrap();
        assert_eq!(o.entries.len(), 2);
        assert!(o.unknown.is_none());
        let many: Vec<String> = (0..super::FEW_MEMBERS + 4).map(|i| format!(r#""k{i}":{i}"#)).collect();
        let text = format!(r#"{{{},"actor":"host"}}"#, many.join(","));
        let mut de = serde_json::Deserializer::from_str(&text);
        let o = Object::read(&mut de, "an object", &["actor"]).unwrap();
        assert_eq!(o.entries.len(), super::FEW_MEMBERS + 1);
        let first_skipped = format!("k{}", super::FEW_MEMBERS);
        assert_eq!(
            o.unknown.as_ref().map(|(at, k)| (*at, k.as_ref())),
            Some((super::FEW_MEMBERS, first_skipped.as_str()))
        );
        // The same command either way (the raw-value protocol of both deserializers).
        let text = r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"}}"#;
        let from_text: crate::model::command::Command = serde_json::from_str(text).unwrap();
        let from_value: crate::model::command::Command = serde_json::from_value(value).unwrap();
        assert_eq!(from_text, from_value);
    }

    #[test]
    fn many_members_are_read_in_document_order_issue_11_7() {
        use crate::model::command::Command;
        // Unknown members are skipped; the first one in document order is
        // the one named (serde's), and a known member repeated after many
        // others is still found.
        let members: Vec<String> = (0..1000).map(|i| format!(r#""k{i}":0"#)).collect();
        let unknown = format!(
            r#"{{"actor":"host","action":{{"kind":"endPhase","phase":"storm",{}}}}}"#,
            members.join(",")
        );
        let e = serde_json::from_str::<Command>(&unknown).unwrap_err();
        assert!(message(&e).starts_with("unknown field `k0`"), "{e}");
        let repeated = format!(
            r#"{{"kind":"endPhase","phase":"storm",{},"phase":"storm"}}"#,
            members.join(",")
        );
        let e = action(&repeated).unwrap_err();
        assert!(message(&e).starts_with("duplicate field `phase`"), "{e}");
        // A stray member of another variant, after an unknown one: the first is named.
        let e = action(r#"{"kind":"endPhase","zz":1,"phase":"storm","frame":2}"#).unwrap_err();
        assert!(message(&e).starts_with("unknown field `zz`"), "{e}");
        let e = action(r#"{"kind":"endPhase","frame":2,"phase":"storm","zz":1}"#).unwrap_err();
        assert!(message(&e).starts_with("unknown field `frame`"), "{e}");
        let early = r#"{"kind":"endPhase","phase":"storm","phase":"storm"}"#;
        assert!(message(&action(early).unwrap_err()).starts_with("duplicate field `phase`"));
    }

    #[test]
    fn ids_read_as_plain_strings_borrow_or_copy_with_serdes_messages_d_153() {
        use crate::model::command::Viewer;
        use crate::model::game::Actor;
        // Borrowed from the text, and copied when the text has an escape.
        let a: Actor = serde_json::from_str(r#""host""#).unwrap();
        assert_eq!(a, Actor::Host);
        let a: Actor = serde_json::from_str(r#""ec\u0061z""#).unwrap();
        assert_eq!(a, Actor::Faction(Faction::Ecaz));
        let v: Viewer = serde_json::from_value(serde_json::json!("spectator")).unwrap();
        assert_eq!(v, Viewer::Spectator);
        // serde's `String` wording for a non-string, and the ids' own for a stranger.
        for (text, expected) in [
            ("5", "invalid type: integer `5`, expected a string"),
            ("null", "invalid type: null, expected a string"),
            (r#""nope""#, "unknown actor `nope` (expected `host` or a faction id)"),
        ] {
            let e = serde_json::from_str::<Actor>(text).unwrap_err();
            assert_eq!(e.classify(), serde_json::error::Category::Data, "{text}");
            assert_eq!(message(&e), expected, "{text}");
        }
        let e = serde_json::from_str::<Viewer>("[]").unwrap_err();
        assert_eq!(message(&e), "invalid type: sequence, expected a string");
    }

    #[test]
    fn unit_enums_read_names_as_serde_does() {
        let f: Faction = serde_json::from_str(r#""beneGesserit""#).unwrap();
        assert_eq!(f, Faction::BeneGesserit);
        let t: Territory = serde_json::from_value(serde_json::json!("imperial_basin")).unwrap();
        assert_eq!(t, Territory::ImperialBasin);
        let e = serde_json::from_str::<Faction>(r#""house""#).unwrap_err();
        assert!(
            message(&e).starts_with("unknown variant `house`, expected one of `atreides`"),
            "{e}"
        );
        assert_eq!(e.classify(), serde_json::error::Category::Data);
        // serde_json's enum protocol: a number is a syntax error from text …
        let e = serde_json::from_str::<Faction>("3").unwrap_err();
        assert_eq!(e.classify(), serde_json::error::Category::Syntax, "{e}");
        // … and the externally tagged form of a unit variant is accepted.
        let f: Faction = serde_json::from_str(r#"{"ecaz":null}"#).unwrap();
        assert_eq!(f, Faction::Ecaz);
        let id: FrameId = serde_json::from_str("4").unwrap();
        assert_eq!(id, FrameId(4));
    }
}
