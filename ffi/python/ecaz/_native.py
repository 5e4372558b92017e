"""ctypes bindings over the C ABI of ffi/ (ffi/include/ecaz.h).

Every call crosses as UTF-8 JSON (pointer + length); every fallible call
returns an `EcazStatus` and an owned buffer (the output, or the error report
with its stable code) that is freed here with `ecaz_buffer_free`.
"""

from __future__ import annotations

import ctypes
import json
import os
from pathlib import Path
from typing import Any

# EcazStatus (ffi/include/ecaz.h).
OK = 0
STATUS_NAMES = {
    0: "OK",
    1: "ERROR",
    2: "NULL_ARGUMENT",
    3: "INVALID_UTF8",
    4: "INPUT_TOO_LARGE",
    5: "PANIC",
}


class EcazError(Exception):
    """The engine refused an input. `code` is the library's stable code
    (`rule/stale_frame`, `decode/invalid_json` …), the same as over C and
    WASM; `report` is the whole error report (message, rule id, problems)."""

    def __init__(self, report: dict[str, Any], status: int = 1) -> None:
        self.report = report
        self.code: str = report.get("code", "internal/unknown")
        self.message: str = report.get("message", "")
        self.rule: str | None = report.get("rule")
        self.status = status
        super().__init__(f"{self.code}: {self.message}")


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("len", ctypes.c_size_t)]


_BufferPtr = ctypes.POINTER(_Buffer)


LIBRARY_NAMES = ("libecaz_ffi.so", "libecaz_ffi.dylib")


def _library_path() -> Path:
    """The C library: `ECAZ_LIB` when set (a development build); else the one
    bundled in the installed package, next to this file (D-214); else, in a
    checkout (ffi/python), the debug build of that checkout (target/debug)."""
    explicit = os.environ.get("ECAZ_LIB")
    if explicit:
        return Path(explicit)
    here = Path(__file__).resolve().parent
    for name in LIBRARY_NAMES:
        if (here / name).is_file():
            return here / name
    root = here.parents[2]
    target = Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    return target / "debug" / LIBRARY_NAMES[0]


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(_library_path()))
    text = [ctypes.c_char_p, ctypes.c_size_t]
    out = [ctypes.POINTER(_BufferPtr)]
    game_p = ctypes.c_void_p
    signatures = {
        "ecaz_version": ([], ctypes.c_char_p),
        "ecaz_format_version": ([], ctypes.c_uint32),
        "ecaz_new_game_json": (text + out, ctypes.c_int),
        "ecaz_apply_json": (text + text + out, ctypes.c_int),
        "ecaz_view_json": (text + text + out, ctypes.c_int),
        "ecaz_options_json": (text + text + out, ctypes.c_int),
        "ecaz_bot_json": (text + text + text + [ctypes.c_uint64] + out, ctypes.c_int),
        "ecaz_table_of_json": (text + out, ctypes.c_int),
        "ecaz_apply_events_json": (text + text + out, ctypes.c_int),
        "ecaz_diff_table_json": (text + text + out, ctypes.c_int),
        "ecaz_game_new": (text + [ctypes.POINTER(game_p)] + out, ctypes.c_int),
        "ecaz_game_from_state": (text + [ctypes.POINTER(game_p)] + out, ctypes.c_int),
        "ecaz_game_apply": ([game_p] + text + out, ctypes.c_int),
        "ecaz_game_state": ([game_p] + out, ctypes.c_int),
        "ecaz_game_view": ([game_p] + text + out, ctypes.c_int),
        "ecaz_game_options": ([game_p] + text + out, ctypes.c_int),
        "ecaz_game_free": ([game_p], None),
        "ecaz_buffer_free": ([_BufferPtr], None),
    }
    for name, (args, result) in signatures.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = result
    return lib


LIB = _load()


# The longest input any call reads, in bytes of UTF-8 (`ECAZ_MAX_INPUT_LEN`,
# the engine's one input cap: docs/integration.md "Input policy", D-180).
MAX_INPUT_BYTES = 16 * 1024 * 1024
INPUT_TOO_LARGE = 4
INVALID_UTF8 = 3


def _too_large(length: int) -> EcazError:
    return EcazError(
        {
            "code": "decode/input_too_large",
            "message": f"input is at least {length} bytes; the limit is {MAX_INPUT_BYTES}",
        },
        INPUT_TOO_LARGE,
    )


def _encode(text: str) -> tuple[bytes, int]:
    """`text` as UTF-8, refused as the engine refuses it: over the input cap
    (checked on the length first: each character is at least one byte) or
    not encodable (a lone surrogate) — an `EcazError`, never another
    exception (D-187)."""
    if len(text) > MAX_INPUT_BYTES:
        raise _too_large(len(text))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise EcazError(
            {"code": "decode/invalid_utf8", "message": f"input is not valid UTF-8: {e.reason} at index {e.start}"},
            INVALID_UTF8,
        ) from None
    if len(data) > MAX_INPUT_BYTES:
        raise _too_large(len(data))
    return data, len(data)


def _take(buffer: _BufferPtr) -> str:
    """The buffer's text; the buffer is freed."""
    if not buffer:
        return ""
    try:
        raw = ctypes.string_at(buffer.contents.data, buffer.contents.len)
        return raw.decode("utf-8")
    finally:
        LIB.ecaz_buffer_free(buffer)


def _check(status: int, buffer: _BufferPtr) -> str:
    """The output text on success; an `EcazError` otherwise."""
    text = _take(buffer)
    if status == OK:
        return text
    try:
        report = json.loads(text)
    except ValueError:
        report = {"code": "internal/" + STATUS_NAMES.get(status, str(status)).lower(), "message": text}
    raise EcazError(report, status)


def call(name: str, *texts: str) -> str:
    """A pure JSON call (`ecaz_new_game_json`, `ecaz_apply_json` …)."""
    args: list[Any] = []
    for t in texts:
        args.extend(_encode(t))
    out = _BufferPtr()
    status = getattr(LIB, name)(*args, ctypes.byref(out))
    return _check(status, out)


def bot(state: str, actor: str, profile: str, seed: int) -> str:
    """`ecaz_bot_json`: the bot's command JSON, or `null`."""
    if not 0 <= seed <= 2**64 - 1:
        raise EcazError({"code": "decode/invalid_bot", "message": f"the seed must be 0 ..= 2^64 - 1, not {seed}"})
    out = _BufferPtr()
    status = LIB.ecaz_bot_json(*_encode(state), *_encode(actor), *_encode(profile), seed, ctypes.byref(out))
    return _check(status, out)


def game_open(name: str, text: str) -> ctypes.c_void_p:
    """`ecaz_game_new` / `ecaz_game_from_state`: a new handle."""
    handle = ctypes.c_void_p()
    error = _BufferPtr()
    status = getattr(LIB, name)(*_encode(text), ctypes.byref(handle), ctypes.byref(error))
    _check(status, error)
    return handle


def game_call(name: str, handle: ctypes.c_void_p, *texts: str) -> str:
    """A handle call (`ecaz_game_apply`, `ecaz_game_view` …)."""
    args: list[Any] = [handle]
    for t in texts:
        args.extend(_encode(t))
    out = _BufferPtr()
    status = getattr(LIB, name)(*args, ctypes.byref(out))
    return _check(status, out)


def game_free(handle: ctypes.c_void_p) -> None:
    LIB.ecaz_game_free(handle)


def version() -> str:
    """The library's version."""
    return LIB.ecaz_version().decode("utf-8")


def format_version() -> int:
    """The state format version the library reads and writes."""
    return int(LIB.ecaz_format_version())
