"""The trace format, written down once: ``trace.schema.json`` (JSON Schema), and a checker for it.

``ginbots replay`` and ``ginbots view`` read each line with ``parse_record``, so a malformed,
wrong-typed or absurdly nested record is refused with its line and the first rule it breaks, never a
traceback. The checker covers the part of JSON Schema the file uses (``type``,
``enum``, ``pattern``, ``required``, ``properties``, ``items``, ``minItems``, ``maxItems``,
``maxLength``, ``minimum``, ``$ref``); the tests check the file with the ``jsonschema`` library too.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

SCHEMA_FILE = Path(__file__).resolve().parent / "trace.schema.json"

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


@lru_cache(maxsize=1)
def trace_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def parse_record(line: str, what: str = "trace record") -> dict[str, Any]:
    """One line of a trace file as a record checked against the schema; ValueError says what is wrong
    (``what`` names the record for the message): not JSON (a truncated write, say), nested deeper than
    Python's parser reads, or against the schema."""
    try:
        record = json.loads(line)
    except RecursionError:
        raise ValueError(f"not a JSON {what} (nested deeper than the JSON parser reads)") from None
    except ValueError as exc:
        raise ValueError(f"not a JSON {what} ({exc}); a truncated write?") from None
    found = problem(record)
    if found:
        raise ValueError(f"not a {what}: {found} (the format: ginbots/arena/trace.schema.json)")
    return record


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return type(value) is int
    if name == "number":
        return type(value) in (int, float)
    return isinstance(value, _TYPES[name]) and not (name != "boolean" and type(value) is bool)


def problem(value: Any, schema: dict[str, Any] | None = None, where: str = "record") -> str | None:
    """The first way ``value`` breaks the schema (the trace schema by default), or None."""
    root = trace_schema()
    return _check(value, root if schema is None else schema, root, where)


def _check(value: Any, schema: dict[str, Any], root: dict[str, Any], where: str) -> str | None:
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
    kinds = schema.get("type")
    if kinds is not None:
        names = kinds if isinstance(kinds, list) else [kinds]
        if not any(_is_type(value, n) for n in names):
            return f"{where} must be {' or '.join(names)}, got {type(value).__name__}"
    if "enum" in schema and not any(value == e and type(value) is type(e) for e in schema["enum"]):
        return f"{where} must be one of {schema['enum']}, got {str(value)[:40]}"
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return f"{where} {value[:20]!r} does not match {schema['pattern']}"
        if len(value) > schema.get("maxLength", len(value)):
            return f"{where} is longer than {schema['maxLength']} characters"
    if type(value) is int and value < schema.get("minimum", value):
        return f"{where} must be >= {schema['minimum']}"
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            return f"{where} has {len(value)} items, needs {schema.get('minItems', 0)}-{schema.get('maxItems', 'any')}"
        if "items" in schema:
            for i, item in enumerate(value):
                found = _check(item, schema["items"], root, f"{where}[{i}]")
                if found:
                    return found
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                return f"{where} lacks {key!r}"
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                found = _check(value[key], sub, root, f"{where}.{key}")
                if found:
                    return found
    return None
