"""A JSON Schema made from Python types: the wire's messages are declared once, as TypedDicts
(``messages``), and their schema follows from them, so the page's script can be checked against the
very types the server builds its frames with.

What a type becomes: ``str``, ``int``, ``float``, ``bool`` and ``None`` the JSON types of those
names (a JSON ``true`` is no integer); ``list[X]`` an array of X; ``dict[str, X]`` an object of X
values; a union ``anyOf``; ``Any`` anything; a TypedDict an object with exactly its keys (the
required ones required, no other key allowed), named once under ``$defs``.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Union

__all__ = ["json_schema"]

_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def json_schema(root: Any, title: str = "") -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of values of the type ``root``."""
    definitions: dict[str, Any] = {}
    schema: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if title:
        schema["title"] = title
    schema.update(_schema(root, definitions))
    schema["$defs"] = dict(sorted(definitions.items()))
    return schema


def _schema(tp: Any, definitions: dict[str, Any]) -> dict[str, Any]:
    if tp is Any:
        return {}
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if typing.is_typeddict(tp):
        return _typed_dict(tp, definitions)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(arg, definitions) for arg in args]}
    if origin is list:
        return {"type": "array", "items": _schema(args[0], definitions)}
    if origin is dict and args[0] is str:
        values = _schema(args[1], definitions)
        return {"type": "object", **({"additionalProperties": values} if values else {})}
    raise TypeError(f"no JSON Schema for {tp!r}: a wire type is str, int, float, bool, None, list, dict or a TypedDict")


def _typed_dict(tp: Any, definitions: dict[str, Any]) -> dict[str, Any]:
    """``{"$ref": ...}`` to the TypedDict's own schema, made once."""
    name = tp.__name__
    if name not in definitions:
        definitions[name] = {}  # a TypedDict that holds itself refers to this name
        hints = typing.get_type_hints(tp)
        definitions[name] = {
            "type": "object",
            **({"description": " ".join(tp.__doc__.split())} if tp.__doc__ else {}),
            "properties": {key: _schema(hint, definitions) for key, hint in hints.items()},
            "required": sorted(tp.__required_keys__),
            "additionalProperties": False,
        }
    return {"$ref": f"#/$defs/{name}"}
