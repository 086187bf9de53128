"""Attention Lab in a notebook: any model's attention (BertViz's shape) as a heatmap.

    from attention_lab import AttentionHTML, from_torch      # no JavaScript, standard library only
    from attention_lab import AttentionWidget                 # interactive; needs anywidget

Every entry point checks the data as the JavaScript side does (attention_lab.checks) and raises
AttentionLabError, with the same words and `code`.
"""
from .checks import ROW_SUM_TOLERANCE, AttentionLabError, AttentionLabTypeError, read_attention
from .notebook import DECIMALS, AttentionHTML, attention_html, from_torch

__all__ = ["AttentionHTML", "AttentionLabError", "AttentionLabTypeError", "AttentionWidget", "DECIMALS",
           "ROW_SUM_TOLERANCE", "attention_html", "from_torch", "read_attention"]
__version__ = "0.1.0"


def __getattr__(name):
    # the widget only when asked for: the package imports without anywidget
    if name == "AttentionWidget":
        from .widget import AttentionWidget
        return AttentionWidget
    raise AttributeError(f"module 'attention_lab' has no attribute {name!r}")
