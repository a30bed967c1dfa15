"""A quicker ``__init__`` for frozen, slotted dataclasses (events and commands).

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``, which
costs about twice what the slot's own setter does. Every turn creates a few events and a
command, so the engine's speed shows it.

>>> from dataclasses import dataclass
>>> @quick_init
... @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int = 0
>>> Point(1), Point(1, y=2) == Point(x=1, y=2)
(Point(x=1, y=0), True)
>>> Point(1).x = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


def quick_init(cls: T) -> T:
    """Give *cls* (a frozen dataclass with slots, no field factories) a generated ``__init__``
    that takes the same arguments and sets the slots directly."""
    namespace: dict[str, Any] = {}
    parameters, body = [], []
    for field in fields(cls):
        name = field.name
        if field.default_factory is not MISSING or not field.init:
            raise TypeError(f"{cls.__name__}.{name}: quick_init takes plain fields only")
        if field.default is MISSING:
            parameters.append(name)
        else:
            namespace[f"_default_{name}"] = field.default
            parameters.append(f"{name}=_default_{name}")
        # The slot descriptor may be on a base class (Command.seat).
        namespace[f"_set_{name}"] = getattr(cls, name).__set__
        body.append(f"    _set_{name}(self, {name})")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls
