"""Weaver for Apache Spark: declare tables as small source files and let Weaver maintain them.

Author a Python Table by subclassing :class:`Table` and implementing a synchronous
``read(self)``; see ``help(weaver.Table)`` for what ``read`` may return and use.

Run a workspace from PySpark with :class:`Workspace` (``help(weaver.Workspace)``); call
:func:`register` to let SQL ``LOAD WEAVER TABLE`` load Python Tables in this session.
"""

from .context import LoadContext
from .contract import ReturnContractError, StagingResult
from .table import Table
from ._runtime import register
from .workspace import CheckError, LoadError, WeaverError, Workspace

__version__ = "0.1.0"

__all__ = [
    "Table",
    "LoadContext",
    "StagingResult",
    "ReturnContractError",
    "Workspace",
    "WeaverError",
    "CheckError",
    "LoadError",
    "register",
    "__version__",
]
