"""Shared behaviour of result objects.

Result objects are frozen dataclasses named for what they hold.  They derive
from :class:`Result` to get :meth:`Result.to_dict` (JSON-ready: NaN becomes
``None``, numpy scalars and arrays become Python numbers and lists; fields whose
name starts with an underscore are private and left out) and
:meth:`Result.to_frame` where a tabular view makes sense.

Every coefficient's result also derives from :class:`Coefficient`, which gives
them one shape beside the names each keeps (``.alpha``, ``.kappa``, ``.ac``...):
``.value``, ``.name`` (the name a reader knows it by), ``.standard_error``,
``.z`` and ``.p_value`` (NaN where the coefficient has none), and a
``to_dict()`` that carries ``coefficient`` (its identifier) and ``value``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

__all__ = ["Coefficient", "Result", "jsonable"]


def jsonable(obj: Any) -> Any:
    """Convert *obj* to plain JSON-compatible Python data.

    NaN and infinities become ``None``; numpy scalars become Python scalars;
    arrays, tuples and sets become lists (sets sorted when possible);
    dataclasses and mappings become dicts; other objects with ``to_dict`` use it.

    Examples
    --------
    >>> jsonable({"a": np.float64("nan"), "b": np.int64(3), "c": (1.5, frozenset({2, 1}))})
    {'a': None, 'b': 3, 'c': [1.5, [1, 2]]}
    """
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        return f if math.isfinite(f) else None
    if isinstance(obj, np.ndarray):
        return [jsonable(x) for x in obj.tolist()]
    if isinstance(obj, Result):
        return obj.to_dict()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            f.name: jsonable(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if not f.name.startswith("_")
        }
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        items = list(obj)
        try:
            items.sort()
        except TypeError:
            items.sort(key=repr)
        return [jsonable(x) for x in items]
    if isinstance(obj, (list, tuple)):
        return [jsonable(x) for x in obj]
    if hasattr(obj, "to_dict"):
        return jsonable(obj.to_dict())
    if hasattr(obj, "name") and isinstance(obj.name, str):
        return obj.name
    return str(obj)


class Result:
    """Mixin for frozen result dataclasses."""

    def _repr_html_(self) -> str:
        """A notebook's view: a table of the scalars of :meth:`to_dict` (every text escaped)."""
        from accord._shared.html import result_html

        data = self.to_dict()
        for key, value in data.items():  # to_dict writes NaN as None: a number NaN is undefined, an empty field a dash
            raw = getattr(self, key, None)
            if value is None and isinstance(raw, float | np.floating) and math.isnan(raw):
                data[key] = math.nan
        return result_html(type(self).__name__, data)

    def to_dict(self) -> dict[str, Any]:
        """The public fields as JSON-ready data (NaN as ``None``)."""
        if not dataclasses.is_dataclass(self):  # pragma: no cover - programming error
            raise TypeError(f"{type(self).__name__} is not a dataclass")
        return {
            f.name: jsonable(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if not f.name.startswith("_")
        }


def _nan(self: Any) -> float:
    return math.nan


def _value(self: Any) -> float:
    return float(getattr(self, type(self)._value_field))


def _name(self: Any) -> str:
    return self._display_name()


def _z(self: Any) -> float:
    """The test statistic behind ``p_value``: the value over the standard error of its test (NaN without one)."""
    field = type(self)._z_error
    se = float(getattr(self, field)) if field else math.nan
    value = self.value
    return value / se if se > 0 and math.isfinite(se) and math.isfinite(value) else math.nan


def _alias(target: str) -> Callable[[Any], Any]:
    def get(self: Any) -> Any:
        return getattr(self, target)

    get.__doc__ = f"The same as ``{target}``."
    return get


#: what every coefficient's result answers to, and how, where its class has no field or attribute of the name
_STANDARD: dict[str, tuple[Callable[[Any], Any], str]] = {
    "value": (_value, "The coefficient's value (the field that holds it by its own name, e.g. ``kappa``)."),
    "name": (_name, "The coefficient's name as a reader knows it (``\"Cohen's kappa\"``, ``\"Gwet's AC1\"``)."),
    "standard_error": (_nan, "No standard error: NaN."),
    "p_value": (_nan, "No test: NaN."),
    "z": (_z, "The value over the standard error its p-value is tested with (NaN without a test)."),
}


class Coefficient(Result):
    """Mixin giving every coefficient's result one shape, beside the names it keeps.

    ``value``, ``name``, ``standard_error``, ``z`` and ``p_value`` are attributes of every coefficient's
    result: a class that holds one as a field keeps it; the others get it here (NaN where the coefficient
    has no standard error or test).  :meth:`to_dict` carries ``coefficient`` (the identifier:
    ``"cohen_kappa"``, ``"alpha"``...) and ``value`` before the fields.

    A subclass says which field holds the value (``_value_field``), its identifier where it has no
    ``coefficient`` field (``_coefficient_id``), the field of the standard error its p-value is tested with
    (``_z_error``), and other names of its fields (``_aliases``: Gwet's ``chance_agreement`` is also
    ``expected_agreement``).

    Examples
    --------
    >>> import accord
    >>> res = accord.cohen_kappa([["a", "a", "b", "b"], ["a", "b", "b", "b"]])
    >>> res.value, res.name, res.to_dict()["coefficient"], res.to_dict()["value"]
    (0.5, "Cohen's kappa", 'cohen_kappa', 0.5)
    """

    _value_field: ClassVar[str] = "value"
    _coefficient_id: ClassVar[str] = ""
    _z_error: ClassVar[str | None] = None
    _aliases: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared: set[str] = set()
        for klass in cls.__mro__:
            declared |= set(vars(klass).get("__annotations__", {}))
        extra = {name: (_alias(target), f"The same as ``{target}``.") for name, target in cls._aliases.items()}
        for name, (get, doc) in {**_STANDARD, **extra}.items():
            if name in declared or hasattr(cls, name):
                continue
            setattr(cls, name, property(get, doc=doc))

    @property
    def coefficient_id(self) -> str:
        """The coefficient's identifier, the ``coefficient`` of :meth:`to_dict`."""
        own = self.__dict__.get("coefficient")
        return str(own) if isinstance(own, str) else type(self)._coefficient_id

    def _display_name(self) -> str:
        from accord._shared.names import ESTIMATORS

        key = self.coefficient_id
        return _DISPLAY.get(key) or ESTIMATORS.get(key, key)

    def to_dict(self) -> dict[str, Any]:
        """``coefficient`` and ``value``, then the public fields, as JSON-ready data (NaN as ``None``)."""
        fields = super().to_dict()
        out: dict[str, Any] = {"coefficient": self.coefficient_id, "value": jsonable(self.value)}
        out.update(fields)
        for name in type(self)._aliases:
            out.setdefault(name, jsonable(getattr(self, name)))
        return out


#: names of the coefficients :data:`accord._shared.names.ESTIMATORS` does not hold (it rewrites warnings by its keys,
#: and "alpha" or "gamma" are words in them)
_DISPLAY = {
    "alpha": "Krippendorff's alpha", "unitizing_alpha": "unitizing alpha (u-alpha)",
    "coref_alpha": "Krippendorff's alpha over coreference chains", "gamma": "gamma (Mathet et al.)",
    "icc": "intraclass correlation", "augmented_kappa": "augmented kappa (K')",
    "coref_scores": "CoNLL F1 (mean of MUC, B³, CEAF-e)", "span_f1": "span F1 (micro)",
    "token_agreement": "token alpha",
}
