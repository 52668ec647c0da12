"""accord: agreement on complex annotations, and gold standards with a known noise level."""

from __future__ import annotations

from accord.errors import AccordError, AccordWarning

__version__ = "0.1.0"

__all__ = [
    "AccordError",
    "AccordWarning",
    "__version__",
]
