"""Numba's ``numba.core`` spellings that user code imports (``from numba.core.errors import
TypingError``), so such imports work after changing ``numba`` to ``taipan``."""
