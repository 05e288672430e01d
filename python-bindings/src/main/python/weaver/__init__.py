"""Weaver for Apache Spark: declare tables as small source files and let Weaver maintain them.

Author a Python Table by subclassing :class:`Table` and implementing a synchronous
``read(self)``; see ``help(weaver.Table)`` for what ``read`` may return and use.
"""

from .context import LoadContext
from .contract import ReturnContractError, StagingResult
from .table import Table

__version__ = "0.1.0"

__all__ = ["Table", "LoadContext", "StagingResult", "ReturnContractError", "__version__"]
