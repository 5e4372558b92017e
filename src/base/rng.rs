//! The game's deterministic random number generator (ARCHITECTURE §4).
//!
//! A PCG-XSH-RR 64/32 generator (`rand_pcg::Pcg32`) seeded at setup and stored
//! inside the state. It is drawn only at commit points (setup, a committed
//! recycle, a Harkonnen draw, a deck reshuffle) — never by a view, an options
//! query, a preview or a rejected command (R-INV-4). Its serialized form keeps
//! the two 64-bit words as hexadecimal strings so that JavaScript hosts, whose
//! numbers lose precision above 2^53, round-trip it exactly. The words are
//! read and set through `rand_pcg`'s own accessors, without serde.

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The generator state carried by a game.
#[derive(Clone, PartialEq, Eq)]
pub struct GameRng(Pcg32);

impl std::fmt::Debug for GameRng {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GameRng(..)")
    }
}

/// Wire form: the PCG state and increment as `0x…` hexadecimal strings.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "GameRng")]
struct RngWire {
    /// The 64-bit LCG state, hexadecimal (`0x` + 16 digits).
    state: String,
    /// The 64-bit LCG increment (odd), hexadecimal.
    increment: String,
}

impl GameRng {
    /// A generator seeded from a setup seed.
    pub fn from_seed(seed: u64) -> Self {
        GameRng(Pcg32::seed_from_u64(seed))
    }

    /// The two PCG words: the LCG state and its (odd) increment, which
    /// `rand_pcg` keeps as a stream number (the increment without its low
    /// bit).
    fn words(&self) -> (u64, u64) {
        (self.0.state(), (self.0.stream() << 1) | 1)
    }

    /// The generator holding these words (`increment` odd).
    fn from_words(state: u64, increment: u64) -> Self {
        GameRng(Pcg32::from_state(state, increment >> 1))
    }

    /// A uniform integer in `0..n` (0 when `n` is 0), without modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        // Reject the top sliver of the range that would bias the modulo.
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let x = self.0.next_u32();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Shuffle in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        let len = items.len();
        for i in (1..len).rev() {
            let bound = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let j = self.below(bound) as usize;
            items.swap(i, j);
        }
    }

    /// Draw `k` distinct items uniformly without replacement (order of draw kept).
    pub fn sample<T: Copy>(&mut self, from: &[T], k: usize) -> Vec<T> {
        let mut rest: Vec<T> = from.to_vec();
        let mut out = Vec::with_capacity(k.min(rest.len()));
        while out.len() < k && !rest.is_empty() {
            let bound = u32::try_from(rest.len()).unwrap_or(u32::MAX);
            let j = self.below(bound) as usize;
            out.push(rest.swap_remove(j.min(rest.len() - 1)));
        }
        out
    }
}

impl Serialize for GameRng {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (state, increment) = self.words();
        RngWire {
            state: format!("0x{state:016x}"),
            increment: format!("0x{increment:016x}"),
        }
        .serialize(s)
    }
}

fn parse_hex(s: &str) -> Option<u64> {
    let digits = s.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let w = RngWire::deserialize(d)?;
        let state = parse_hex(&w.state).ok_or_else(|| D::Error::custom("rng.state is not 0x-hex"))?;
        let increment = parse_hex(&w.increment).ok_or_else(|| D::Error::custom("rng.increment is not 0x-hex"))?;
        if increment % 2 == 0 {
            return Err(D::Error::custom("rng.increment must be odd"));
        }
        Ok(GameRng::from_words(state, increment))
    }
}

impl JsonSchema for GameRng {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "GameRng".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        RngWire::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn round_trip_keeps_the_stream() {
        let mut a = GameRng::from_seed(42);
        a.below(7);
        let json = serde_json::to_string(&a).unwrap();
        let mut b: GameRng = serde_json::from_str(&json).unwrap();
        assert_eq!(a, b);
        let xs: Vec<u32> = (0..20).map(|_| a.below(1000)).collect();
        let ys: Vec<u32> = (0..20).map(|_| b.below(1000)).collect();
        assert_eq!(xs, ys);
    }

    /// The saved words are exactly `rand_pcg`'s own fields (what its serde
    /// form, which saved states were once written through, holds: the state
    /// format is unchanged), and reading them back continues the stream.
    #[test]
    fn words_are_rand_pcg_fields() {
        for seed in [0, 1, 42, 2026, u64::MAX] {
            let mut a = GameRng::from_seed(seed);
            a.below(1000);
            let (state, increment) = a.words();
            let fields = serde_json::to_value(&a.0).unwrap();
            assert_eq!(fields, serde_json::json!({ "state": state, "increment": increment }));
            let mut b = GameRng::from_words(state, increment);
            assert_eq!(b, a);
            for _ in 0..20 {
                assert_eq!(a.0.next_u32(), b.0.next_u32());
            }
        }
    }

    #[test]
    fn sample_is_distinct_and_in_range() {
        let mut r = GameRng::from_seed(7);
        let from: Vec<u8> = (0..10).collect();
        for _ in 0..100 {
            let mut s = r.sample(&from, 5);
            assert_eq!(s.len(), 5);
            s.sort_unstable();
            s.dedup();
            assert_eq!(s.len(), 5);
        }
    }

    #[test]
    fn rejects_malformed_words() {
        assert!(serde_json::from_str::<GameRng>(r#"{"state":"12","increment":"0x1"}"#).is_err());
        assert!(serde_json::from_str::<GameRng>(r#"{"state":"0x1","increment":"0x2"}"#).is_err());
    }
}
