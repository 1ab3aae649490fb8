"""Validation of every command's ``--json`` against the published JSON Schemas (``src/isalens/schema``)."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import jsonschema
from referencing import Registry, Resource

BASE = "https://isalens.invalid/schema/3/"


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    schemas = {}
    for item in resources.files("isalens.schema").iterdir():
        if item.name.endswith(".json"):
            schema = json.loads(item.read_text("utf-8"))
            jsonschema.Draft202012Validator.check_schema(schema)  # each file is itself a valid draft 2020-12 schema
            assert schema["$id"] == BASE + item.name, item.name
            schemas[schema["$id"]] = schema
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(s)) for uri, s in schemas.items())
    return jsonschema.Draft202012Validator(schemas[BASE + "document.json"], registry=registry)


def validate(doc: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``doc`` is a valid schema-3 document."""
    _validator().validate(doc)
