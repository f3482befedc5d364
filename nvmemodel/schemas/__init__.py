"""JSON Schemas (draft 2020-12) of every JSON document nvmemodel writes.

Each document names its schema in its ``"schema"`` field, ``"nvmemodel.<name>/<version>"``; the schema of that
name ships here as ``<name>-<version>.json`` with ``"$id": "urn:nvmemodel:<name>/<version>"``. The version goes up
when a document changes shape in a way a reader of the old one would misread (CHANGELOG.md: version policy).

========================================  ===============================================================
schema                                    written by
========================================  ===============================================================
``nvmemodel.ceilings/1``                  ``nvmemodel ceilings --json``, :meth:`ScalingCurve.to_dict`
``nvmemodel.mixed/1``                     ``nvmemodel ceilings --group … --json`` (a curve of groups)
``nvmemodel.sweep/1``                     ``nvmemodel sweep --json``
``nvmemodel.capacity-plan/2``             ``nvmemodel plan --json``, :meth:`Plan.to_dict`
``nvmemodel.fit/1``                       ``nvmemodel fit --json``, :meth:`FitResult.to_dict`
``nvmemodel.discover/1``                  ``nvmemodel discover --json``
``nvmemodel.drives/1`` … ``hosts/1``      ``nvmemodel drives|switches|hosts|presets|parameters --json``
``nvmemodel.compare/1``                   ``nvmemodel compare --json``, :meth:`Comparison.to_dict`
``nvmemodel.host-profile/1``              ``nvmemodel calibrate`` (its ``profile.json``; read by ``--profile``)
``nvmemodel.io-costs/1``                  ``nvmemodel ingest --costs-out`` (read by ``--costs``)
========================================  ===============================================================

>>> from nvmemodel import schemas
>>> schemas.schema("nvmemodel.sweep/1")["$id"]
'urn:nvmemodel:sweep/1'
>>> "nvmemodel.fit/1" in schemas.NAMES
True

:func:`validate` needs the ``jsonschema`` package (in the ``test`` extra; not a core dependency).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

__all__ = ["FILES", "NAMES", "file_name", "schema", "validate"]

#: Every schema shipped, by the name a document gives in its ``"schema"`` field.
NAMES: tuple[str, ...] = (
    "nvmemodel.ceilings/1", "nvmemodel.mixed/1", "nvmemodel.sweep/1", "nvmemodel.capacity-plan/2",
    "nvmemodel.fit/1", "nvmemodel.discover/1", "nvmemodel.drives/1", "nvmemodel.switches/1", "nvmemodel.hosts/1",
    "nvmemodel.presets/1", "nvmemodel.parameters/1", "nvmemodel.compare/1", "nvmemodel.host-profile/1",
    "nvmemodel.io-costs/1",
)
#: The schemas of files nvmemodel writes and reads back (not a command's ``--json``): the host profile of
#: ``nvmemodel calibrate`` (``--profile``) and the costs file of ``nvmemodel ingest --costs-out`` (``--costs``).
FILES: tuple[str, ...] = ("nvmemodel.host-profile/1", "nvmemodel.io-costs/1")


def file_name(name: str) -> str:
    """``'nvmemodel.sweep/1'`` → ``'sweep-1.json'``, the file under ``nvmemodel/schemas/``."""
    from ..errors import UnknownNameError

    if name not in NAMES:
        raise UnknownNameError("schema", name, list(NAMES))
    return name.split(".", 1)[1].replace("/", "-") + ".json"


@functools.cache
def _load(name: str) -> str:
    return resources.files(__name__).joinpath(file_name(name)).read_text(encoding="utf-8")


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the documents whose ``"schema"`` field is ``name`` (a new dict on every call)."""
    return json.loads(_load(name))


def validate(document: dict[str, Any]) -> None:
    """Check ``document`` against the schema its ``"schema"`` field names (and the schemas it refers to).

    Raises ``jsonschema.ValidationError`` naming the path of the first value that does not fit, or
    :class:`~nvmemodel.errors.ParameterError` for a document that names no shipped schema."""
    from ..errors import MissingDependencyError, ParameterError

    name = document.get("schema") if isinstance(document, dict) else None
    if name not in NAMES:
        raise ParameterError("schema", name, f"a document naming one of {', '.join(NAMES)} in its 'schema' field")
    try:
        import jsonschema
        from referencing import Registry, Resource
    except ImportError:
        raise MissingDependencyError("jsonschema", "nvmemodel.schemas.validate", "test") from None
    registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in (schema(n) for n in NAMES))
    validator = jsonschema.Draft202012Validator(schema(name), registry=registry,
                                                format_checker=jsonschema.FormatChecker())
    validator.validate(document)
