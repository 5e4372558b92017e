"""The tests run against the installed client when there is one (the wheel,
in scripts/release-check's fresh virtualenv), and against this checkout's
ffi/python otherwise (scripts/python-check)."""

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("ecaz") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
