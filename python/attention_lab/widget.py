"""Any model's attention in a notebook, interactive: an anywidget widget drawing Attention Lab's
<model-view> (every head small, one opened in a heatmap with the bars of a row), from attention
in BertViz's shape ({"tokens": [...], "attention": [layer][1][head][n][n]}).

    from attention_lab.widget import AttentionWidget
    w = AttentionWidget.from_torch(model(**inputs).attentions, tokens)   # or AttentionWidget(data)
    w                      # the notebook shows it
    w.layer, w.head = 2, 3   # opens that head in every view of w; a head the learner opens sets them

Traits (synced with the front end, read by web/widget/attention-widget.js):
    tokens     the n tokens
    attention  [layer][1][head][n][n] weights; checked here as the JavaScript side checks them
               (attention_lab.checks: finite, >= 0, each row summing to 1 within 0.001), and again
               in the browser by the core
    layer, head  the opened head, from 1 as in the rest of Attention Lab
    theme      "auto" (the reader's setting), "light" or "dark"

Needs anywidget (and its ipywidgets >= 7.6). The widget's module is inside this package
(static/attention-widget.js, copied from web/build/ when the wheel is built, python/setup.py);
it carries the core's WebAssembly SIMD build, and a browser without WebAssembly SIMD is told so.
Without anywidget, attention_lab.AttentionHTML shows one head with no script.
"""
import pathlib

try:
    import anywidget
except ImportError as error:
    raise ImportError("attention_lab.widget needs anywidget (pip install anywidget); without it, "
                      "attention_lab.AttentionHTML shows one head with no script") from error
import traitlets

from .checks import read_attention
from .notebook import from_torch

# The widget's module: one file, bundled by scripts/build-widget.mjs, copied in by python/setup.py.
ESM = pathlib.Path(__file__).resolve().parent / "static" / "attention-widget.js"


class AttentionWidget(anywidget.AnyWidget):
    """Attention from any model, every head and one opened; `data` is BertViz's dict (from_torch's)."""

    _esm = ESM
    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    attention = traitlets.List().tag(sync=True)
    layer = traitlets.Int(1, min=1).tag(sync=True)
    head = traitlets.Int(1, min=1).tag(sync=True)
    theme = traitlets.Enum(["auto", "light", "dark"], default_value="auto").tag(sync=True)

    def __init__(self, data=None, **kwargs):
        if not ESM.is_file():
            raise FileNotFoundError(f"{ESM} is missing: install the package from its wheel (npm run python:wheel)")
        if data is not None:
            tokens, _ = read_attention(data)  # checked as the JavaScript side checks it
            kwargs = {"tokens": tokens, "attention": data["attention"], **kwargs}
        super().__init__(**kwargs)

    @classmethod
    def from_torch(cls, attentions, tokens, **kwargs):
        """Per layer a (1, heads, n, n) tensor (a model's `attentions`), and the n tokens -> the widget."""
        return cls(from_torch(attentions, tokens), **kwargs)
