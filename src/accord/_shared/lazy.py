"""Lazy access to heavy optional-at-import modules (``scipy.stats`` costs about 0.8 s to import).

``from accord._shared.lazy import stats`` gives an object whose attributes are those of
:mod:`scipy.stats`, imported on first use, so ``import accord`` and every CLI
call that needs no distribution stay fast.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["exports", "optimize", "sparse", "stats"]


class _LazyModule:
    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name}>"


stats: Any = _LazyModule("scipy.stats")
optimize: Any = _LazyModule("scipy.optimize")
sparse: Any = _LazyModule("scipy.sparse")


def exports(package: str, names: dict[str, str]) -> tuple[Any, Any]:
    """``__getattr__`` and ``__dir__`` for a package whose public names live in private modules.

    ``names`` maps each public name to the module that defines it; the module is imported on first
    access (PEP 562), so importing the package costs nothing until a name is used.
    """

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    def __dir__() -> list[str]:
        return sorted(names)

    return __getattr__, __dir__
