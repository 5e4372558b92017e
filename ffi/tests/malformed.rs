//! Fuzz-ish test of the C ABI from Rust: many more malformed inputs than the C
//! test (examples/c/malformed_test.c, which runs under valgrind) can afford —
//! random bytes, and valid setups, states and commands with bytes changed,
//! dropped or cut off — through every export. Nothing may panic or crash;
//! every failure carries an error report with a code; a refused command
//! leaves the handle's state byte-identical.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(unsafe_code)] // calling the C ABI is unsafe; every pointer below is valid for its length.

use std::os::raw::c_char;
use std::ptr;

use ecaz_ffi::*;

const SETUP: &str = r#"{"seats":["ecaz","harkonnen","atreides"],"seed":7,"ambassadors":{"cohort":["atreides","beneGesserit","choam","emperor","fremen"]}}"#;

const COMMANDS: [&str; 8] = [
    r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"}}"#,
    r#"{"actor":"host","action":{"kind":"endPhase","phase":"revival"}}"#,
    r#"{"actor":"ecaz","action":{"kind":"place","frame":1,"token":"emperor","territory":"arrakeen"}}"#,
    r#"{"actor":"host","action":{"kind":"allowPlacement","frame":2}}"#,
    r#"{"actor":"ecaz","action":{"kind":"finishPlacement","frame":3}}"#,
    r#"{"actor":"host","action":{"kind":"arrive","entrant":"harkonnen","cause":"shipment","from":{"kind":"reserves"},"territory":"arrakeen","sector":10,"normal":3}}"#,
    r#"{"actor":"ecaz","action":{"kind":"trigger","frame":4,"beneficiary":"ecaz"}}"#,
    r#"{"actor":"host","action":{"kind":"arrive","entrant":"atreides","cause":"movement","from":{"kind":"board","territory":"arrakeen","sector":10},"territory":"carthag","sector":10,"normal":1}}"#,
];

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A buffer's text and the buffer freed.
fn take(buffer: *mut EcazBuffer) -> Option<String> {
    if buffer.is_null() {
        return None;
    }
    // SAFETY: a non-NULL buffer from the library holds `len` bytes of UTF-8
    // followed by a NUL; it is freed right after the copy.
    unsafe {
        let b = &*buffer;
        let bytes = std::slice::from_raw_parts(b.data.cast::<u8>(), b.len + 1);
        assert_eq!(bytes[b.len], 0, "NUL-terminated");
        let text = std::str::from_utf8(&bytes[..b.len]).expect("UTF-8").to_string();
        ecaz_buffer_free(buffer);
        Some(text)
    }
}

/// Check the contract of one call and return its output on success.
fn outcome(what: &str, status: EcazStatus, buffer: *mut EcazBuffer, has_output: bool) -> Option<String> {
    let text = take(buffer);
    match status {
        EcazStatus::Ok => {
            assert_eq!(text.is_some(), has_output, "{what}: OK and the output");
            text
        }
        EcazStatus::Panic => panic!("{what} panicked: {text:?}"),
        _ => {
            let report: serde_json::Value = serde_json::from_str(&text.expect("a report")).expect("report is JSON");
            let code = report["code"].as_str().expect("report has a code");
            let expected = match status {
                EcazStatus::NullArgument => Some("decode/null_input"),
                EcazStatus::InvalidUtf8 => Some("decode/invalid_utf8"),
                EcazStatus::InputTooLarge => Some("decode/input_too_large"),
                _ => None,
            };
            if let Some(expected) = expected {
                assert_eq!(code, expected, "{what}");
            } else {
                assert!(
                    ["decode/", "state/", "setup/", "rule/"]
                        .iter()
                        .any(|p| code.starts_with(p)),
                    "{what}: code {code}"
                );
            }
            assert!(
                report["message"].as_str().is_some_and(|m| !m.is_empty()),
                "{what}: message"
            );
            None
        }
    }
}

fn ptr_of(bytes: &[u8]) -> *const c_char {
    bytes.as_ptr().cast()
}

struct Fixture {
    game: *mut EcazGame,
    state: String,
}

impl Fixture {
    fn new() -> Self {
        let mut game = ptr::null_mut();
        let mut error = ptr::null_mut();
        // SAFETY: SETUP is valid for its length; the out-pointers are valid.
        let status = unsafe { ecaz_game_new(ptr_of(SETUP.as_bytes()), SETUP.len(), &mut game, &mut error) };
        assert_eq!(status, EcazStatus::Ok);
        assert!(error.is_null());
        let state = Self::state_of(game);
        Fixture { game, state }
    }

    fn state_of(game: *const EcazGame) -> String {
        let mut out = ptr::null_mut();
        // SAFETY: `game` is a live handle; `out` is valid.
        let status = unsafe { ecaz_game_state(game, &mut out) };
        outcome("state", status, out, true).expect("state")
    }

    /// Every export with `input` in each input position.
    fn every_export(&mut self, input: &[u8]) {
        let (p, n) = (ptr_of(input), input.len());
        let state = self.state.as_bytes();
        let command = COMMANDS[0].as_bytes();
        let mut out = ptr::null_mut();
        // SAFETY (every call below): each pointer is valid for its length,
        // `self.game` is a live handle, and `out` is a valid out-pointer.
        unsafe {
            outcome("new_game_json", ecaz_new_game_json(p, n, &mut out), out, true);
            outcome(
                "apply_json/state",
                ecaz_apply_json(p, n, ptr_of(command), command.len(), &mut out),
                out,
                true,
            );
            outcome(
                "apply_json/command",
                ecaz_apply_json(ptr_of(state), state.len(), p, n, &mut out),
                out,
                true,
            );
            outcome(
                "view_json/state",
                ecaz_view_json(p, n, ptr_of(b"host"), 4, &mut out),
                out,
                true,
            );
            outcome(
                "view_json/viewer",
                ecaz_view_json(ptr_of(state), state.len(), p, n, &mut out),
                out,
                true,
            );
            outcome(
                "options_json/state",
                ecaz_options_json(p, n, ptr_of(b"host"), 4, &mut out),
                out,
                true,
            );
            outcome(
                "options_json/actor",
                ecaz_options_json(ptr_of(state), state.len(), p, n, &mut out),
                out,
                true,
            );
            outcome(
                "narrate_json/state",
                ecaz_narrate_json(p, n, ptr_of(command), command.len(), ptr_of(b"host"), 4, &mut out),
                out,
                true,
            );
            outcome(
                "narrate_json/item",
                ecaz_narrate_json(ptr_of(state), state.len(), p, n, ptr_of(b"host"), 4, &mut out),
                out,
                true,
            );
            outcome(
                "narrate_json/viewer",
                ecaz_narrate_json(
                    ptr_of(state),
                    state.len(),
                    ptr_of(command),
                    command.len(),
                    p,
                    n,
                    &mut out,
                ),
                out,
                true,
            );
            let mut other = ptr::null_mut();
            outcome("game_new", ecaz_game_new(p, n, &mut other, &mut out), out, false);
            ecaz_game_free(other);
            other = ptr::null_mut();
            outcome(
                "game_from_state",
                ecaz_game_from_state(p, n, &mut other, &mut out),
                out,
                false,
            );
            ecaz_game_free(other);
            outcome("game_view", ecaz_game_view(self.game, p, n, &mut out), out, true);
            outcome("game_options", ecaz_game_options(self.game, p, n, &mut out), out, true);
            let before = Self::state_of(self.game);
            let status = ecaz_game_apply(self.game, p, n, &mut out);
            if outcome("game_apply", status, out, true).is_none() {
                assert_eq!(Self::state_of(self.game), before, "a refused command changed the state");
            } else {
                // Accepted (a mutation that is still a valid command): start
                // over (the old fixture's handle is freed by its Drop).
                *self = Fixture::new();
            }
        }
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        // SAFETY: the handle is live and freed once.
        unsafe { ecaz_game_free(self.game) };
    }
}

fn mutate(rng: &mut Rng, valid: &[u8]) -> Vec<u8> {
    let mut bytes = valid.to_vec();
    for _ in 0..1 + rng.below(3) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(4) {
            0 => bytes[at] = rng.next() as u8,
            1 => {
                bytes.remove(at);
            }
            2 => bytes.insert(at, b"{}[]\":,0-9eaz\\"[rng.below(14)]),
            _ => bytes.truncate(at),
        }
    }
    bytes
}

#[test]
fn random_bytes_through_every_export() {
    let mut fixture = Fixture::new();
    let mut rng = Rng(0x5EED_0000_0000_0001);
    for _ in 0..1500 {
        let len = rng.below(48);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        fixture.every_export(&bytes);
    }
}

#[test]
fn mutated_json_through_every_export() {
    let mut fixture = Fixture::new();
    let mut rng = Rng(0x5EED_0000_0000_0002);
    let mut inputs: Vec<&[u8]> = COMMANDS.iter().map(|c| c.as_bytes()).collect();
    inputs.push(SETUP.as_bytes());
    inputs.extend([&b"host"[..], b"\"spectator\"", b"ecaz"]);
    for _ in 0..1500 {
        let valid = inputs[rng.below(inputs.len())];
        fixture.every_export(&mutate(&mut rng, valid));
    }
    let state = fixture.state.clone();
    for _ in 0..200 {
        fixture.every_export(&mutate(&mut rng, state.as_bytes()));
    }
}

#[test]
fn every_prefix_is_refused() {
    let mut fixture = Fixture::new();
    for command in COMMANDS {
        for cut in 0..command.len() {
            fixture.every_export(&command.as_bytes()[..cut]);
        }
    }
    let state = fixture.state.clone();
    for cut in (0..state.len()).step_by(7) {
        let mut out = ptr::null_mut();
        let mut game = ptr::null_mut();
        // SAFETY: the prefix is valid for its length; the out-pointers are valid.
        let status = unsafe { ecaz_game_from_state(ptr_of(state.as_bytes()), cut, &mut game, &mut out) };
        assert_ne!(status, EcazStatus::Ok, "a prefix of {cut} bytes was accepted");
        assert!(game.is_null());
        outcome("from_state prefix", status, out, false);
    }
}

#[test]
fn null_pointers_huge_lengths_and_bad_utf8() {
    let mut fixture = Fixture::new();
    let state = fixture.state.clone();
    let mut out = ptr::null_mut();
    for len in [
        1,
        64,
        ECAZ_MAX_INPUT_LEN,
        ECAZ_MAX_INPUT_LEN + 1,
        usize::MAX / 2,
        usize::MAX,
    ] {
        // SAFETY: NULL with a length is refused unread; `out` is valid.
        let status = unsafe { ecaz_new_game_json(ptr::null(), len, &mut out) };
        assert_eq!(status, EcazStatus::NullArgument);
        outcome("null", status, out, true);
    }
    for len in [ECAZ_MAX_INPUT_LEN + 1, usize::MAX / 2, usize::MAX] {
        // SAFETY: a length above the limit is refused before the pointer is read.
        let status = unsafe { ecaz_apply_json(ptr_of(state.as_bytes()), len, ptr_of(b"{}"), 2, &mut out) };
        assert_eq!(status, EcazStatus::InputTooLarge);
        outcome("huge", status, out, true);
        // SAFETY: as above.
        let status = unsafe { ecaz_game_apply(fixture.game, ptr_of(b"{}"), len, &mut out) };
        assert_eq!(status, EcazStatus::InputTooLarge);
        outcome("huge", status, out, true);
    }
    for bad in [
        &b"\xff"[..],
        b"{\"seats\":[\"\xc3\x28\"]}",
        b"\xed\xa0\x80",
        b"\"\xc0\xaf\"",
    ] {
        // SAFETY: `bad` is valid for its length; `out` is valid.
        let status = unsafe { ecaz_new_game_json(ptr_of(bad), bad.len(), &mut out) };
        assert_eq!(status, EcazStatus::InvalidUtf8);
        outcome("utf8", status, out, true);
        fixture.every_export(bad);
    }
    // NULL handles and out-parameters.
    // SAFETY: NULL handles and out-pointers are refused; the inputs are valid.
    unsafe {
        assert_eq!(ecaz_game_state(ptr::null(), &mut out), EcazStatus::NullArgument);
        outcome("null game", EcazStatus::NullArgument, out, true);
        assert_eq!(
            ecaz_game_apply(ptr::null_mut(), ptr_of(b"{}"), 2, &mut out),
            EcazStatus::NullArgument
        );
        outcome("null game", EcazStatus::NullArgument, out, true);
        assert_eq!(ecaz_game_state(fixture.game, ptr::null_mut()), EcazStatus::NullArgument);
        assert_eq!(
            ecaz_new_game_json(ptr_of(SETUP.as_bytes()), SETUP.len(), ptr::null_mut()),
            EcazStatus::NullArgument
        );
        assert_eq!(
            ecaz_game_new(ptr_of(SETUP.as_bytes()), SETUP.len(), ptr::null_mut(), ptr::null_mut()),
            EcazStatus::NullArgument
        );
        ecaz_game_free(ptr::null_mut());
        ecaz_buffer_free(ptr::null_mut());
    }
    // Deep nesting hits the parser's recursion limit, not the stack.
    fixture.every_export(&vec![b'['; 200_000]);
    fixture.every_export(&vec![b'{'; 200_000]);
}

#[test]
fn the_scenario_through_the_handle() {
    let fixture = Fixture::new();
    let mut events = Vec::new();
    let commands = [
        r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"}}"#,
        r#"{"actor":"host","action":{"kind":"endPhase","phase":"spiceBlow"}}"#,
        r#"{"actor":"host","action":{"kind":"endPhase","phase":"choamCharity"}}"#,
        r#"{"actor":"host","action":{"kind":"endPhase","phase":"bidding"}}"#,
        COMMANDS[1],
        COMMANDS[2],
        COMMANDS[3],
        COMMANDS[4],
        COMMANDS[5],
        COMMANDS[6],
    ];
    for command in commands {
        let mut out = ptr::null_mut();
        // SAFETY: the handle is live; the command is valid for its length.
        let status = unsafe { ecaz_game_apply(fixture.game, ptr_of(command.as_bytes()), command.len(), &mut out) };
        events.push(outcome(command, status, out, true).expect("accepted"));
    }
    let last: Vec<serde_json::Value> = serde_json::from_str(events.last().unwrap()).unwrap();
    let kinds: Vec<&str> = last.iter().map(|e| e["event"]["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["ambassadorTriggered", "spiceGained", "effectResolved", "resume"]
    );
    assert_eq!(last[1]["event"]["amount"], 5);
}

#[test]
fn narration_through_the_c_abi() {
    // D-140, D-141: a command and an event narrated for a viewer; an event the
    // viewer may not see is `null`.
    let fixture = Fixture::new();
    let state = fixture.state.as_bytes();
    let narrate = |item: &str, viewer: &str| {
        let mut out = ptr::null_mut();
        // SAFETY: every pointer is valid for its length; `out` is valid.
        let status = unsafe {
            ecaz_narrate_json(
                ptr_of(state),
                state.len(),
                ptr_of(item.as_bytes()),
                item.len(),
                ptr_of(viewer.as_bytes()),
                viewer.len(),
                &mut out,
            )
        };
        outcome("narrate_json", status, out, true).expect("narrated")
    };
    assert_eq!(narrate(COMMANDS[0], "spectator"), "\"Host ends the Storm phase.\"");
    let private = r#"{"audience":{"kind":"only","factions":["atreides"]},"event":{"kind":"handLimitSet","faction":"atreides","limit":5}}"#;
    assert_eq!(narrate(private, "harkonnen"), "null");
    assert_eq!(
        narrate(private, "\"atreides\""),
        "\"Atreides's hand limit is now 5. [seen only by Atreides]\""
    );
    let mut out = ptr::null_mut();
    // SAFETY: `out` is valid.
    let board = outcome("board_json", unsafe { ecaz_board_json(&mut out) }, out, true).expect("board");
    let board: serde_json::Value = serde_json::from_str(&board).unwrap();
    assert_eq!(board["territories"].as_array().unwrap().len(), 43);
    assert_eq!(board["territories"][1]["name"], "Arrakeen");
}

/// D-180, D-181 through the C ABI: the worst shapes under the cap (a state
/// whose version is a 16 MB array, an event whose difference holds 2^18+
/// numbers) are refused with short reports, and a live game goes on.
#[test]
fn worst_shapes_under_the_cap_d180_d181() {
    let fixture = Fixture::new();
    let zeros = |n: usize| format!("[{}0]", "0,".repeat(n - 1));
    let version = format!(r#"{{"version":{}}}"#, zeros(8_000_000));
    assert!(version.len() <= ECAZ_MAX_INPUT_LEN);
    let (mut game, mut error) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: the text is valid for its length; the out-pointers are valid.
    let status = unsafe { ecaz_game_from_state(ptr_of(version.as_bytes()), version.len(), &mut game, &mut error) };
    assert_eq!(status, EcazStatus::Error);
    let report = take(error).unwrap();
    assert!(
        report.contains("state/unsupported_version") && report.len() < 1024,
        "{} bytes",
        report.len()
    );
    let events = format!(
        r#"[{{"audience":{{"kind":"host"}},"event":{{"kind":"tableSynced","differences":[{{"path":"deck","before":{},"after":[]}}]}}}}]"#,
        zeros(ecaz::MAX_JSON_VALUES)
    );
    let mut out = ptr::null_mut();
    // SAFETY: as above.
    let status = unsafe { ecaz_events_for_json(ptr_of(events.as_bytes()), events.len(), ptr_of(b"host"), 4, &mut out) };
    assert_eq!(status, EcazStatus::Error);
    let report = take(out).unwrap();
    assert!(
        report.contains("decode/invalid_events") && report.len() < 1024,
        "{report}"
    );
    // The live game goes on.
    let command = COMMANDS[0];
    // SAFETY: as above.
    let status = unsafe { ecaz_game_apply(fixture.game, ptr_of(command.as_bytes()), command.len(), &mut out) };
    assert_eq!(status, EcazStatus::Ok);
    outcome("apply", status, out, true);
}
