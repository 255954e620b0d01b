"""jongg: a declarative rules compiler and runtime for mahjong-family games."""

__version__ = "0.2.0"
