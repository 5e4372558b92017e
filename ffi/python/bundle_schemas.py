"""Merge schemas/*.json into one JSON Schema whose `$defs` hold every named
type once (the roots under their titles), so datamodel-code-generator writes
one module with one class per type instead of a copy per schema file.

    python3 bundle_schemas.py SCHEMA_DIR OUT_FILE

A type defined differently by two files is an error (besides the root's own
`title`, the files agree by construction: they come from one schemars run).
"""

import json
import sys
from pathlib import Path


def bundle(directory: Path) -> dict:
    defs: dict = {}
    roots = []
    for path in sorted(directory.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        root = {k: v for k, v in schema.items() if k not in ("$defs", "$schema", "title")}
        roots.append(schema["title"])
        for name, definition in [*schema.get("$defs", {}).items(), (schema["title"], root)]:
            definition = {k: v for k, v in definition.items() if k != "title"}
            if name in defs and defs[name] != definition:
                raise SystemExit(f"{path}: the type {name} differs from another schema's")
            defs[name] = definition
    for name, definition in defs.items():
        definition["title"] = name
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "EcazDocument",
        "description": "Any document of the Ecaz wire protocol (the roots of schemas/).",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in roots],
        "$defs": dict(sorted(defs.items())),
    }


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(json.dumps(bundle(Path(sys.argv[1])), indent=2) + "\n", encoding="utf-8")
