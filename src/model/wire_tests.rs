//! Unit tests of the codec's reader (`codec/wire.rs`) on the model's types:
//! the derive's reads of tagged enums, structs, ids and members, against
//! serde's behaviour (D-150, D-151, D-153). Kept in the model layer, which
//! may name the codec (the codec never names the model).

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
    let e = serde_json::from_str::<Command>(r#"{"actor":"host","action":{"kind":"decline","frame":-1}}"#).unwrap_err();
    assert_eq!(e.to_string(), "invalid value: integer `-1`, expected u32");
}

#[test]
fn members_are_borrowed_from_text_and_owned_from_values() {
    use crate::codec::wire::Object;
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
    let many: Vec<String> = (0..crate::codec::wire::FEW_MEMBERS + 4)
        .map(|i| format!(r#""k{i}":{i}"#))
        .collect();
    let text = format!(r#"{{{},"actor":"host"}}"#, many.join(","));
    let mut de = serde_json::Deserializer::from_str(&text);
    let o = Object::read(&mut de, "an object", &["actor"]).unwrap();
    assert_eq!(o.entries.len(), crate::codec::wire::FEW_MEMBERS + 1);
    let first_skipped = format!("k{}", crate::codec::wire::FEW_MEMBERS);
    assert_eq!(
        o.unknown.as_ref().map(|(at, k)| (*at, k.as_ref())),
        Some((crate::codec::wire::FEW_MEMBERS, first_skipped.as_str()))
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
