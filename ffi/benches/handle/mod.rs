//! The C ABI handle as the benches drive it (`bindings/c_handle` and the
//! native half of `scripts/bench-package`): a handle restored from a state,
//! freed when dropped, and the benchmark stream applied through it.

use std::hint::black_box;
use std::ptr;

use ecaz_ffi::{
    ecaz_buffer_free, ecaz_game_apply, ecaz_game_free, ecaz_game_from_state, EcazBuffer, EcazGame, EcazStatus,
};

/// The benchmark stream: a scenario whose setup is the start.
pub const FIXTURE: &str = include_str!("../../../examples/bench/mid_game_turn.json");

/// A handle freed when dropped (outside the timed part of a bench).
pub struct Handle(*mut EcazGame);

impl Handle {
    /// A handle restored from a state (`Game` JSON).
    pub fn from_state(state: &str) -> Handle {
        let mut game = ptr::null_mut();
        // SAFETY: `state` is valid for its length; the out-pointers are valid.
        let status = unsafe { ecaz_game_from_state(state.as_ptr().cast(), state.len(), &mut game, ptr::null_mut()) };
        assert_eq!(status, EcazStatus::Ok);
        Handle(game)
    }

    /// `ecaz_game_apply` of each command (JSON) in turn, the events buffers freed.
    pub fn apply_all(&self, commands: &[String]) {
        for command in commands {
            let mut out: *mut EcazBuffer = ptr::null_mut();
            // SAFETY: a live handle; the command is valid for its length.
            let status = unsafe { ecaz_game_apply(self.0, command.as_ptr().cast(), command.len(), &mut out) };
            assert_eq!(status, EcazStatus::Ok);
            // SAFETY: the buffer was handed out by the call above.
            unsafe { ecaz_buffer_free(black_box(out)) };
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a live handle from `ecaz_game_from_state`, freed once.
        unsafe { ecaz_game_free(self.0) };
    }
}
