#!/usr/bin/env python3
"""Transcripts of a scenario run, one JSON line per step:

    {"step":N,"events":[...]}    an accepted command and its events
    {"step":N,"error":"code"}    a rejected command and its error code

The C, Node and browser clients write this form. The native engine's run
(`ecaz replay FILE`, one step report per line) is read in its own form and
brought to this one.

    transcript.py native REPLAY_OUTPUT    print the native run as a transcript
    transcript.py compare A B [C ...]     exit 1 unless B, C ... agree with A
"""
import json
import sys


def normalize(line):
    if "events" in line:
        return {"step": line["step"], "events": line["events"]}
    error = line["error"]
    return {"step": line["step"], "error": error if isinstance(error, str) else error["code"]}


def read(path):
    with open(path, encoding="utf-8") as f:
        return [normalize(json.loads(text)) for text in f if text.strip()]


def first_difference(a, b):
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            return f"step {i + 1}:\n  {json.dumps(x)}\n  {json.dumps(y)}"
    return None


def main(args):
    if len(args) == 2 and args[0] == "native":
        for line in read(args[1]):
            print(json.dumps(line, separators=(",", ":"), ensure_ascii=False))
        return 0
    if len(args) >= 3 and args[0] == "compare":
        reference = read(args[1])
        status = 0
        for other in args[2:]:
            difference = first_difference(reference, read(other))
            if difference is None:
                print(f"{other} agrees with {args[1]} ({len(reference)} steps)")
            else:
                print(f"{other} differs from {args[1]} at {difference}", file=sys.stderr)
                status = 1
        return status
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
