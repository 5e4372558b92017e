//! The engine's JSON writer: a `serde::Serializer` that appends compact JSON
//! to a `Vec<u8>`, byte for byte as `serde_json::to_writer` writes it, for
//! every document the engine writes ([`write_json`], [`to_text`]).
//!
//! D-154: serde_json's serializer reaches the bytes through its `Formatter`
//! and `io::Write` layers, a call or more per quote, colon and comma. At
//! opt-level `s` (the WASM build, D-152) those calls stay calls, and writing
//! the events was about a quarter of the WASM handle's time per command. This
//! writer makes one room check per piece and writes it in place: a member's
//! separator, quoted name and colon are one piece.
//!
//! What it writes, as serde_json does:
//! * strings with `"` `\` and the control characters escaped (`\b \t \n \f
//!   \r`, else `\u00xx` in lower-case hex), everything else as is;
//! * integers in decimal; floats (which no engine document holds) through
//!   serde_json itself, so they match by construction;
//! * `None` and unit as `null`, a unit variant as its name, the other
//!   variants as `{"name":…}`;
//! * map keys that are strings, unit variants, newtypes of those, integers,
//!   booleans or chars, quoted; any other key is refused with serde_json's
//!   message ("key must be a string").
//!
//! The test `tests/scenarios.rs::the_writer_writes_serde_jsons_bytes_d_154`
//! compares the two over every state, view, option list and event list of
//! every scenario, and the unit tests below over each corner.

use serde::ser::{self, Serialize};

/// The error of a value that cannot be written (a custom error from a
/// `Serialize` impl, or a map key that is not a string). serde_json's, so
/// callers see the same type and messages as before.
type Error = serde_json::Error;

/// Appends `value`'s JSON to `out`: the one serializer every document the
/// engine writes goes through, from every door (the Rust API, C, WASM, the
/// CLI). Each type is compiled for this one writer only (D-150, D-154).
pub(crate) fn write_json<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    append(out, value)
}

/// `value`'s JSON text, as `serde_json::to_string` writes it (through [`write_json`]).
pub(crate) fn to_text<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    let mut out = Vec::with_capacity(128);
    write_json(&mut out, value)?;
    // The writer writes UTF-8 only (D-154); checked rather than assumed.
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// Appends `value`'s compact JSON to `out`. On error, `out` may hold part of
/// the document.
pub(crate) fn append<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    value.serialize(&mut Writer { out })
}

/// The serializer: the text written so far.
pub(crate) struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

/// The escape of `byte` in a JSON string, as serde_json writes it: 0 when it
/// is written as is, `u` for `\u00xx`, else the letter after the backslash.
#[inline(always)]
fn escape_of(byte: u8) -> u8 {
    match byte {
        0x08 => b'b',
        0x09 => b't',
        0x0A => b'n',
        0x0C => b'f',
        0x0D => b'r',
        0x00..=0x1F => b'u',
        b'"' | b'\\' => byte,
        _ => 0,
    }
}

/// Whether `byte` is escaped in a JSON string ([`escape_of`] is not 0).
/// Three comparisons: the match in `escape_of` made the scan of every name
/// and string several times slower in the WASM build (D-154).
#[inline(always)]
fn is_escaped(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// Whether any byte of `bytes` is escaped in a JSON string.
#[inline(always)]
fn needs_escape(bytes: &[u8]) -> bool {
    bytes.iter().copied().any(is_escaped)
}

/// A hexadecimal digit in lower case (`digit` is below 16).
fn hex(digit: u8) -> u8 {
    if digit < 10 {
        b'0' + digit
    } else {
        b'a' + digit - 10
    }
}

impl Writer<'_> {
    /// Appends `bytes` (a number, a keyword, an escape, the plain run of a
    /// string with escapes): room, then the bytes as [`Writer::plain`]
    /// copies them.
    #[inline(never)]
    fn put(&mut self, bytes: &[u8]) {
        self.room(bytes.len());
        self.plain(bytes);
    }

    /// Makes room for `bytes` more bytes. The check is made here, in line:
    /// `Vec::reserve` is a call even when there is room in the WASM build
    /// (D-154).
    #[inline(always)]
    fn room(&mut self, bytes: usize) {
        if self.out.capacity() - self.out.len() < bytes {
            self.out.reserve(bytes);
        }
    }

    /// Appends one byte.
    #[inline(always)]
    fn byte(&mut self, byte: u8) {
        self.out.push(byte);
    }

    /// Appends `text` as a JSON string. Text with nothing to escape (names,
    /// ids: nearly all) is copied in one pass after one room check.
    #[inline(never)]
    fn string(&mut self, text: &str) {
        let bytes = text.as_bytes();
        self.room(bytes.len() + 2);
        self.out.push(b'"');
        if needs_escape(bytes) {
            self.escaped(bytes);
        } else {
            self.plain(bytes);
        }
        self.out.push(b'"');
    }

    /// Appends `bytes`, room for which is made: byte by byte, which in the
    /// WASM build is faster for names and ids than `extend_from_slice` (a
    /// `memcpy` call) or `extend` (a call that checks the room again) (D-154).
    #[inline(always)]
    fn plain(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.out.push(byte);
        }
    }

    /// Appends `bytes` with each byte [`escape_of`] marks escaped.
    fn escaped(&mut self, mut rest: &[u8]) {
        loop {
            let plain = rest.iter().copied().position(is_escaped).unwrap_or(rest.len());
            let (written, escaped) = rest.split_at(plain);
            self.put(written);
            let Some((&byte, after)) = escaped.split_first() else {
                return;
            };
            self.escape(byte);
            rest = after;
        }
    }

    /// Appends the escape of `byte`, one [`escape_of`] does not leave as is.
    #[inline(never)]
    fn escape(&mut self, byte: u8) {
        match escape_of(byte) {
            b'u' => self.put(&[b'\\', b'u', b'0', b'0', hex(byte >> 4), hex(byte & 0xF)]),
            letter => self.put(&[b'\\', letter]),
        }
    }

    /// Appends a member's separator (unless it is the first), quoted name
    /// and colon: a name with nothing to escape (every name of the engine's
    /// types) after one room check.
    #[inline(never)]
    fn name(&mut self, first: bool, name: &str) {
        let bytes = name.as_bytes();
        if needs_escape(bytes) {
            if !first {
                self.out.push(b',');
            }
            self.string(name);
            self.out.push(b':');
            return;
        }
        self.room(bytes.len() + 4);
        if !first {
            self.out.push(b',');
        }
        self.out.push(b'"');
        self.plain(bytes);
        self.out.push(b'"');
        self.out.push(b':');
    }

    /// Appends an unsigned integer in decimal.
    #[inline(never)]
    fn unsigned(&mut self, mut value: u64) {
        let mut digits = [0u8; 20];
        let mut written = 0;
        for digit in digits.iter_mut().rev() {
            // `value % 10` is below 10: the cast keeps it.
            *digit = b'0' + (value % 10) as u8;
            written += 1;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        self.put(digits.get(digits.len() - written..).unwrap_or_default());
    }

    /// Appends a signed integer in decimal.
    fn signed(&mut self, value: i64) {
        if value < 0 {
            self.byte(b'-');
        }
        self.unsigned(value.unsigned_abs());
    }

    /// Appends what serde_json writes for `value` (the kinds of value no
    /// engine document holds: floats, 128-bit integers, bytes).
    #[inline(never)]
    fn through_serde_json<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        serde_json::to_writer(&mut *self.out, value)
    }

    /// Opens `{"variant":` (a variant with content).
    fn open_variant(&mut self, variant: &str) {
        self.byte(b'{');
        self.name(true, variant);
    }
}

/// An array or object being written: whether no element is written yet.
pub(crate) struct Compound<'w, 'a> {
    writer: &'w mut Writer<'a>,
    first: bool,
}

impl<'w, 'a> Compound<'w, 'a> {
    fn open(writer: &'w mut Writer<'a>, bracket: u8) -> Self {
        writer.byte(bracket);
        Compound { writer, first: true }
    }

    /// Writes the comma before an element or member, unless it is the first.
    fn separator(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.writer.byte(b',');
        }
    }

    /// Writes an element of an array.
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.separator();
        value.serialize(&mut *self.writer)
    }

    /// Writes a member of an object whose name is a string.
    fn member<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<(), Error> {
        self.writer.name(std::mem::take(&mut self.first), name);
        value.serialize(&mut *self.writer)
    }

    /// Closes with `closing` (`]` or `}`), then as many `}` as `variants`
    /// (the variant objects around the value).
    fn close(self, closing: u8, variants: usize) {
        self.writer.byte(closing);
        for _ in 0..variants {
            self.writer.byte(b'}');
        }
    }
}

/// Where an integer goes: in place (a value) or quoted (a map key).
trait Integers {
    fn signed_integer(self, value: i64);
    fn unsigned_integer(self, value: u64);
}

impl Integers for &mut Writer<'_> {
    fn signed_integer(self, value: i64) {
        self.signed(value);
    }

    fn unsigned_integer(self, value: u64) {
        self.unsigned(value);
    }
}

impl Integers for Key<'_, '_> {
    fn signed_integer(self, value: i64) {
        self.0.byte(b'"');
        self.0.signed(value);
        self.0.byte(b'"');
    }

    fn unsigned_integer(self, value: u64) {
        self.0.byte(b'"');
        self.0.unsigned(value);
        self.0.byte(b'"');
    }
}

/// `serde::Serializer` methods that write an integer through `$how` (an
/// [`Integers`] method) as `$wide`.
macro_rules! integers {
    ($how:ident as $wide:ty: $($method:ident($type:ty)),*) => {
        $(
            fn $method(self, value: $type) -> Result<(), Error> {
                Integers::$how(self, <$wide>::from(value));
                Ok(())
            }
        )*
    };
}

/// An array or object written inside `{"variant":…}`.
pub(crate) struct VariantCompound<'w, 'a>(Compound<'w, 'a>);

impl<'w, 'a> ser::Serializer for &'w mut Writer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'w, 'a>;
    type SerializeTuple = Compound<'w, 'a>;
    type SerializeTupleStruct = Compound<'w, 'a>;
    type SerializeTupleVariant = VariantCompound<'w, 'a>;
    type SerializeMap = Compound<'w, 'a>;
    type SerializeStruct = Compound<'w, 'a>;
    type SerializeStructVariant = VariantCompound<'w, 'a>;

    integers!(signed_integer as i64: serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64));
    integers!(unsigned_integer as u64: serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64));

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.put(if value { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        self.through_serde_json(&value)
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        self.through_serde_json(&value)
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        self.through_serde_json(&value)
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        self.through_serde_json(&value)
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.string(value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.string(value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        // serde_json writes bytes as an array of numbers, as a slice.
        self.through_serde_json(value)
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.put(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.byte(b'}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Ok(Compound::open(self, b'['))
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        self.open_variant(variant);
        Ok(VariantCompound(Compound::open(self, b'[')))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Ok(Compound::open(self, b'{'))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct, Error> {
        Ok(Compound::open(self, b'{'))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        self.open_variant(variant);
        Ok(VariantCompound(Compound::open(self, b'{')))
    }
}

/// The `serde` traits of an array or object: each writes its elements with
/// `$write`, then closes with `$closing` and as many `}` as `$variants`.
macro_rules! compound {
    ($trait:ident for $type:ident, $method:ident($($name:ident: $name_type:ty,)?) -> $write:ident, $closing:literal, $variants:literal) => {
        impl ser::$trait for $type<'_, '_> {
            type Ok = ();
            type Error = Error;

            fn $method<T: Serialize + ?Sized>(&mut self, $($name: $name_type,)? value: &T) -> Result<(), Error> {
                self.compound().$write($($name,)? value)
            }

            fn end(self) -> Result<(), Error> {
                self.into_compound().close($closing, $variants);
                Ok(())
            }
        }
    };
}

/// The [`Compound`] under a `serde` trait's value (itself, or the one inside
/// a variant).
trait Inside<'w, 'a> {
    fn compound(&mut self) -> &mut Compound<'w, 'a>;
    fn into_compound(self) -> Compound<'w, 'a>;
}

impl<'w, 'a> Inside<'w, 'a> for Compound<'w, 'a> {
    fn compound(&mut self) -> &mut Compound<'w, 'a> {
        self
    }

    fn into_compound(self) -> Compound<'w, 'a> {
        self
    }
}

impl<'w, 'a> Inside<'w, 'a> for VariantCompound<'w, 'a> {
    fn compound(&mut self) -> &mut Compound<'w, 'a> {
        &mut self.0
    }

    fn into_compound(self) -> Compound<'w, 'a> {
        self.0
    }
}

compound!(SerializeSeq for Compound, serialize_element() -> element, b']', 0);
compound!(SerializeTuple for Compound, serialize_element() -> element, b']', 0);
compound!(SerializeTupleStruct for Compound, serialize_field() -> element, b']', 0);
compound!(SerializeTupleVariant for VariantCompound, serialize_field() -> element, b']', 1);
compound!(SerializeStruct for Compound, serialize_field(name: &'static str,) -> member, b'}', 0);
compound!(SerializeStructVariant for VariantCompound, serialize_field(name: &'static str,) -> member, b'}', 1);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.separator();
        key.serialize(Key(&mut *self.writer))?;
        self.writer.byte(b':');
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        self.close(b'}', 0);
        Ok(())
    }
}

/// Writes a map key: always a JSON string.
struct Key<'w, 'a>(&'w mut Writer<'a>);

/// serde_json's refusal of a key that is not a string.
fn not_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

/// `serde::Serializer` methods of [`Key`] that refuse the key.
macro_rules! refuse {
    ($($method:ident($($argument:ty),*) -> $ok:ty;)*) => {
        $(
            fn $method(self, $(_: $argument),*) -> Result<$ok, Error> {
                Err(not_a_string())
            }
        )*
    };
}

impl ser::Serializer for Key<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    integers!(signed_integer as i64: serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64));
    integers!(unsigned_integer as u64: serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64));

    refuse! {
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.0.string(if value { "true" } else { "false" });
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.0.string(value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.0.string(value);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Error> {
        Err(not_a_string())
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.0.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(not_a_string())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::append;

    /// D-154: our bytes, then serde_json's, for one value.
    fn both<T: Serialize + ?Sized>(value: &T) -> (String, String) {
        let mut out = Vec::new();
        append(&mut out, value).unwrap();
        (String::from_utf8(out).unwrap(), serde_json::to_string(value).unwrap())
    }

    fn agrees<T: Serialize + ?Sized>(value: &T) {
        let (ours, theirs) = both(value);
        assert_eq!(ours, theirs);
    }

    #[derive(Serialize)]
    enum Shapes {
        Unit,
        Newtype(u8),
        Tuple(u8, String),
        Struct { a: i32, b: Option<bool> },
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "camelCase")]
    enum Tagged {
        Plain,
        Inner(Inner),
        Fields { x: u32, list: Vec<u8> },
    }

    #[derive(Serialize)]
    struct Inner {
        name: &'static str,
        #[serde(flatten)]
        rest: BTreeMap<String, i64>,
    }

    #[derive(Serialize)]
    struct Empty {}

    /// Names that need escaping (none of the engine's do).
    #[derive(Serialize)]
    struct OddNames {
        #[serde(rename = "quote\"d")]
        first: u8,
        #[serde(rename = "line\nbreak\u{1}")]
        second: u8,
    }

    #[derive(Serialize)]
    struct Wrapped(String);

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Key {
        North,
    }

    #[test]
    fn every_byte_of_a_string_is_written_or_escaped_as_serde_json_does_d_154() {
        let every: String = (0u32..0x300).filter_map(char::from_u32).collect();
        agrees(&every);
        for c in (0u32..0x80).filter_map(char::from_u32) {
            agrees(&c);
            agrees(&format!("a{c}b{c}"));
        }
        agrees("");
        agrees("\u{7f}\u{80}\u{ffff}\u{10ffff} é 🜂 \\\"/");
        agrees(&"x".repeat(40));
        agrees(&"\"".repeat(40));
    }

    #[test]
    fn a_byte_is_escaped_exactly_when_it_has_an_escape_d_154() {
        for byte in 0..=u8::MAX {
            assert_eq!(super::is_escaped(byte), super::escape_of(byte) != 0, "{byte:#04x}");
        }
    }

    #[test]
    fn numbers_are_written_as_serde_json_does_d_154() {
        for v in [
            0u64,
            1,
            9,
            10,
            99,
            100,
            12_345,
            u64::from(u32::MAX),
            u64::MAX - 1,
            u64::MAX,
        ] {
            agrees(&v);
        }
        for v in [0i64, -1, -9, -10, 42, i64::MIN, i64::MIN + 1, i64::MAX] {
            agrees(&v);
        }
        agrees(&(u8::MAX, i8::MIN, u16::MAX, i16::MIN, u32::MAX, i32::MIN));
        agrees(&(u128::MAX, i128::MIN));
        agrees(&(1.5f64, -0.0f64, f64::NAN, f64::INFINITY, 1e300f64, 0.1f32));
        agrees(&[true, false]);
        agrees(b"bytes".as_slice());
    }

    #[test]
    fn every_shape_of_value_is_written_as_serde_json_does_d_154() {
        agrees(&[
            Shapes::Unit,
            Shapes::Newtype(7),
            Shapes::Tuple(1, "t".into()),
            Shapes::Struct { a: -3, b: None },
        ]);
        agrees(&Shapes::Struct { a: 0, b: Some(true) });
        let mut rest = BTreeMap::new();
        agrees(&Tagged::Inner(Inner {
            name: "n",
            rest: rest.clone(),
        }));
        rest.insert("k\n".into(), -5);
        rest.insert("j".into(), 6);
        agrees(&[
            Tagged::Plain,
            Tagged::Inner(Inner { name: "n", rest }),
            Tagged::Fields { x: 1, list: vec![] },
        ]);
        agrees(&Tagged::Fields {
            x: 1,
            list: vec![1, 2, 3],
        });
        agrees(&OddNames { first: 1, second: 2 });
        agrees(&(Empty {}, Wrapped("w".into()), (), Option::<u8>::None, Some(Some(3u8))));
        agrees(&Vec::<Vec<u8>>::from([vec![], vec![1], vec![]]));
        agrees(&serde_json::json!({"a": [1, -2, 3.5, null, {"b": {}}], "c": "d", "e": []}));
    }

    #[test]
    fn map_keys_are_quoted_or_refused_as_serde_json_does_d_154() {
        agrees(&BTreeMap::from([(Key::North, 1)]));
        agrees(&BTreeMap::from([(Wrapped("w".into()).0, 1)]));
        agrees(&BTreeMap::from([(-4i32, 1), (5, 2)]));
        agrees(&BTreeMap::from([(u64::MAX, 'c')]));
        agrees(&BTreeMap::from([(true, 1), (false, 2)]));
        agrees(&BTreeMap::from([('k', 1)]));
        let refused = BTreeMap::from([(vec![1u8], 1)]);
        let mut out = Vec::new();
        let ours = append(&mut out, &refused).unwrap_err().to_string();
        let theirs = serde_json::to_string(&refused).unwrap_err().to_string();
        assert_eq!(ours, theirs);
    }
}
