"""The optional C accelerator of the one-hand lookups (runtime/matching/_fold.c).

Everything else is in pyproject.toml. The extension is optional: where it
cannot be built (no C compiler, no Python headers) the install goes on and
jongg sums the same keys in Python (runtime/matching/lookup.py).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("jongg.runtime.matching._fold", ["runtime/matching/_fold.c"],
                             optional=True)])
