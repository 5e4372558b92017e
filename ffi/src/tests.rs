//! What cannot be reached from outside: a panic inside an export.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::*;

fn report_of(buffer: *mut EcazBuffer) -> serde_json::Value {
    assert!(!buffer.is_null());
    // SAFETY: a non-NULL buffer from `run` holds `len` bytes of UTF-8; freed once.
    let text = unsafe {
        let bytes = std::slice::from_raw_parts((*buffer).data.cast::<u8>(), (*buffer).len);
        let text = std::str::from_utf8(bytes).unwrap().to_string();
        ecaz_buffer_free(buffer);
        text
    };
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_panic_is_caught_and_reported() {
    let mut out = ptr::null_mut();
    // SAFETY: `out` is a valid out-pointer.
    let status = unsafe { run(&mut out, || panic!("boom")) };
    assert_eq!(status, EcazStatus::Panic);
    let report = report_of(out);
    assert_eq!(report["code"], "internal/panic");
    assert!(report["message"].as_str().unwrap().contains("boom"));
    // Without an out-pointer only the status says it.
    // SAFETY: a NULL out-pointer is allowed.
    let status = unsafe { run(ptr::null_mut(), || panic!("{}", String::from("boom"))) };
    assert_eq!(status, EcazStatus::Panic);
}

#[test]
fn a_poisoned_handle_refuses_every_call() {
    let setup = r#"{"seats":["ecaz","atreides"],"seed":7}"#;
    let game = ecaz::setup_from_json(setup).unwrap().build().unwrap();
    let handle = Box::into_raw(Box::new(EcazGame { game, poisoned: true }));
    let command = r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"}}"#;
    let mut out = ptr::null_mut();
    // SAFETY: the handle is live, the inputs valid for their lengths, `out` valid.
    unsafe {
        assert_eq!(
            ecaz_game_apply(handle, command.as_ptr().cast(), command.len(), &mut out),
            EcazStatus::Panic
        );
        assert_eq!(report_of(out)["code"], "internal/poisoned");
        assert_eq!(ecaz_game_state(handle, &mut out), EcazStatus::Panic);
        assert_eq!(report_of(out)["code"], "internal/poisoned");
        assert_eq!(
            ecaz_game_view(handle, "host".as_ptr().cast(), 4, &mut out),
            EcazStatus::Panic
        );
        assert_eq!(report_of(out)["code"], "internal/poisoned");
        ecaz_game_free(handle);
    }
}

/// D-90 through the C ABI: a viewer gets the public events and
/// those addressed to it, never another player's (`ecaz_events_for_json`).
#[test]
fn events_for_json_filters_by_viewer() {
    let events = r#"[{"audience":{"kind":"public"},"event":{"kind":"cardDrawn","faction":"atreides"}},
        {"audience":{"kind":"only","factions":["atreides"]},"event":{"kind":"cardReceived","faction":"atreides","card":7}},
        {"audience":{"kind":"host"},"event":{"kind":"deckOrder","deck":[1,2]}}]"#;
    let filter = |viewer: &str| {
        let mut out = ptr::null_mut();
        // SAFETY: the inputs are valid for their lengths, `out` is valid.
        let status = unsafe {
            ecaz_events_for_json(
                events.as_ptr().cast(),
                events.len(),
                viewer.as_ptr().cast(),
                viewer.len(),
                &mut out,
            )
        };
        (status, report_of(out))
    };
    let kinds = |value: &serde_json::Value| -> Vec<String> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["event"]["kind"].as_str().unwrap().to_string())
            .collect()
    };
    let (status, spectator) = filter("spectator");
    assert_eq!(status, EcazStatus::Ok);
    assert_eq!(kinds(&spectator), ["cardDrawn"]);
    assert_eq!(kinds(&filter("\"harkonnen\"").1), ["cardDrawn"]);
    assert_eq!(kinds(&filter("atreides").1), ["cardDrawn", "cardReceived"]);
    assert_eq!(kinds(&filter("host").1), ["cardDrawn", "cardReceived", "deckOrder"]);
    let (status, error) = filter("nobody");
    assert_ne!(status, EcazStatus::Ok);
    assert_eq!(error["code"], "decode/invalid_viewer");
}

fn text_of(buffer: *mut EcazBuffer) -> String {
    assert!(!buffer.is_null());
    // SAFETY: a non-NULL buffer from `run` holds `len` bytes of UTF-8; freed once.
    unsafe {
        let bytes = std::slice::from_raw_parts((*buffer).data.cast::<u8>(), (*buffer).len);
        let text = std::str::from_utf8(bytes).unwrap().to_string();
        ecaz_buffer_free(buffer);
        text
    }
}

#[test]
fn issue_16_the_bot_export_agrees_with_the_core_and_refuses_unknown_profiles() {
    let setup = r#"{"seats":["ecaz","atreides"],"seed":3,"phase":"revival","placementOpen":true}"#;
    let game = ecaz::setup_from_json(setup).unwrap().build().unwrap();
    let state = ecaz::game_to_json(&game).unwrap();
    let expected = serde_json::to_string(&ecaz::bots::choose(
        &game,
        ecaz::Actor::Faction(ecaz::Faction::Ecaz),
        ecaz::Profile::Heuristic,
        9,
    ))
    .unwrap();
    let handle = Box::into_raw(Box::new(EcazGame { game, poisoned: false }));
    let mut out = ptr::null_mut();
    // SAFETY: the inputs are valid for their lengths, `out` is valid, the handle is live.
    unsafe {
        let status = ecaz_bot_json(
            state.as_ptr().cast(),
            state.len(),
            "ecaz".as_ptr().cast(),
            4,
            "heuristic".as_ptr().cast(),
            9,
            9,
            &mut out,
        );
        assert_eq!(status, EcazStatus::Ok);
        let pure = text_of(out);
        assert_eq!(pure, expected);
        assert!(pure.contains("\"actor\":\"ecaz\""), "{pure}");
        let status = ecaz_game_bot(
            handle,
            "ecaz".as_ptr().cast(),
            4,
            "\"heuristic\"".as_ptr().cast(),
            11,
            9,
            &mut out,
        );
        assert_eq!(status, EcazStatus::Ok);
        assert_eq!(text_of(out), expected);
        // Someone without a decision has nothing to send.
        let status = ecaz_game_bot(
            handle,
            "atreides".as_ptr().cast(),
            8,
            "random".as_ptr().cast(),
            6,
            1,
            &mut out,
        );
        assert_eq!(status, EcazStatus::Ok);
        assert_eq!(text_of(out), "null");
        let status = ecaz_game_bot(
            handle,
            "ecaz".as_ptr().cast(),
            4,
            "greedy".as_ptr().cast(),
            6,
            1,
            &mut out,
        );
        assert_eq!(status, EcazStatus::Error);
        assert_eq!(report_of(out)["code"], "decode/invalid_bot");
        ecaz_game_free(handle);
    }
}

#[test]
fn d231_the_table_mirror_exports_agree_with_the_core() {
    let game = ecaz::setup_from_json(r#"{"seats":["ecaz","atreides"],"seed":5,"phase":"bidding"}"#)
        .unwrap()
        .build()
        .unwrap();
    let state = ecaz::game_to_json(&game).unwrap();
    let draw = ecaz::Command::host(ecaz::Action::DrawCard {
        faction: ecaz::Faction::Atreides,
    });
    let (next, events) = ecaz::apply(&game, &draw).unwrap();
    let events = serde_json::to_string(&events).unwrap();
    let mut out = ptr::null_mut();
    // SAFETY: every input is valid for its length and `out` is valid.
    unsafe {
        let status = ecaz_table_of_json(state.as_ptr().cast(), state.len(), &mut out);
        assert_eq!(status, EcazStatus::Ok);
        let before = text_of(out);
        assert_eq!(before, ecaz::table_of_json(&state).unwrap());
        let status = ecaz_apply_events_json(
            before.as_ptr().cast(),
            before.len(),
            events.as_ptr().cast(),
            events.len(),
            &mut out,
        );
        assert_eq!(status, EcazStatus::Ok);
        let after = text_of(out);
        assert_eq!(after, serde_json::to_string(&ecaz::table_of(&next)).unwrap());
        let status = ecaz_diff_table_json(
            before.as_ptr().cast(),
            before.len(),
            after.as_ptr().cast(),
            after.len(),
            &mut out,
        );
        assert_eq!(status, EcazStatus::Ok);
        let differences: serde_json::Value = serde_json::from_str(&text_of(out)).unwrap();
        let paths: Vec<&str> = differences
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["path"].as_str())
            .collect();
        assert_eq!(paths, ["factions.atreides.hand", "deck"]);
        // The same events twice do not fit the table.
        let status = ecaz_apply_events_json(
            after.as_ptr().cast(),
            after.len(),
            events.as_ptr().cast(),
            events.len(),
            &mut out,
        );
        assert_eq!(status, EcazStatus::Error);
        assert_eq!(report_of(out)["code"], "sync/events_mismatch");
        // A table of the wrong shape.
        let status = ecaz_diff_table_json("[]".as_ptr().cast(), 2, after.as_ptr().cast(), after.len(), &mut out);
        assert_eq!(status, EcazStatus::Error);
        assert_eq!(report_of(out)["code"], "decode/invalid_table");
    }
}
