"""``numba.cuda.typing``: ``typeof`` and the signatures of ``templates``; the rest placeholders."""
