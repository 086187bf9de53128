"""Attention from any model, checked as the JavaScript side checks it (web/lesson/supplied.js for the
shape, the core's check_supplied_attention for the values), with the same words and error codes:
BertViz's shape, per layer (1, heads, n, n) (the batch of one optional), the n tokens; every
weight finite and at least 0, every row summing to 1 within ROW_SUM_TOLERANCE. Like the core,
it reads each weight as float32, so a message names the number the page would show.
"""
import json
import math
import struct
from numbers import Real

# As the core (cpp/supplied_attention.hpp): float16 rows miss 1 by up to 2^-11 of their sum.
ROW_SUM_TOLERANCE = 1e-3
MAX_LAYERS, MAX_HEADS, MAX_TOKENS = 256, 256, 4096
MAX_QUOTED = 40  # characters of a string quoted in a message


class AttentionLabError(ValueError):
    """Data that cannot be shown; `code` is the JavaScript side's (ATTN_INVALID_SHAPE, …)."""

    def __init__(self, message, code="ATTN_INVALID_ARGUMENT"):
        super().__init__(message)
        self.code = code


class AttentionLabTypeError(AttentionLabError, TypeError):
    """A value of the wrong kind (code ATTN_INVALID_ARGUMENT, as a JavaScript TypeError)."""


def _number(x):
    """A number as the core writes it: NaN, Infinity, or the shortest text that reads back."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if float(x).is_integer() and abs(x) < 1e21:
        return str(int(x))
    for digits in range(6, 18):
        text = f"{x:.{digits}g}"
        if float(text) == x:
            return text
    return repr(x)


def describe(value):
    """A value's kind and value for a message, as web/core/errors.js's describe()."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, Real):
        return f"number {_number(float(value))}"
    if isinstance(value, str):
        text = value if len(value) <= MAX_QUOTED else value[:MAX_QUOTED] + "…"
        return f"the string {json.dumps(text, ensure_ascii=False)}"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _float32(x):
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:  # beyond float32's range: Infinity, as a Float32Array stores it
        return math.copysign(math.inf, x)


def _plain(value):
    """numpy arrays and torch tensors as nested lists; anything else as it is."""
    tolist = getattr(value, "tolist", None)
    return tolist() if callable(tolist) and not isinstance(value, (list, tuple, str)) else value


def _is_array(value):
    return isinstance(value, (list, tuple))


def check_tokens(tokens):
    tokens = _plain(tokens)
    if not _is_array(tokens):
        raise AttentionLabTypeError(f"attention: tokens must be an array of strings, got {describe(tokens)}")
    for i, token in enumerate(tokens):
        if not isinstance(token, str):
            raise AttentionLabTypeError(f"attention: token {i + 1} is {describe(token)}, expected a string")
    return list(tokens)


def check_layers(layers):
    """[layer][batch?][head][row][column] -> [layer][head] rows of float32 values, or an error naming
    the first thing wrong with the shape or a value's kind (web/lesson/supplied.js)."""
    layers = _plain(layers)
    if not _is_array(layers):
        raise AttentionLabTypeError(f'attention: "attention" must be an array of layers, got {describe(layers)}')
    if len(layers) == 0:
        raise AttentionLabError("attention: there are no layers", "ATTN_INVALID_SHAPE")

    def heads_of(layer, l):
        layer = _plain(layer)
        if not _is_array(layer):
            raise AttentionLabTypeError(f"attention: layer {l + 1} is {describe(layer)}, expected an array of heads")
        # a batch dimension when the layer is four arrays deep: (1, H, n, n)
        if layer and _is_array(layer[0]) and layer[0] and _is_array(layer[0][0]) and layer[0][0] and _is_array(layer[0][0][0]):
            if len(layer) != 1:
                raise AttentionLabError(f"attention: layer {l + 1} holds a batch of {len(layer)} sentences: export one (batch 1)", "ATTN_INVALID_SHAPE")
            layer = layer[0]
        if not _is_array(layer) or len(layer) == 0:
            raise AttentionLabError(f"attention: layer {l + 1} has no heads", "ATTN_INVALID_SHAPE")
        return layer

    first = heads_of(layers[0], 0)
    H = len(first)
    first_head = first[0]
    if not _is_array(first_head) or len(first_head) == 0:
        raise AttentionLabError("attention: layer 1, head 1 has no rows", "ATTN_INVALID_SHAPE")
    n, L = len(first_head), len(layers)
    for name, value, most in (("layers", L, MAX_LAYERS), ("heads", H, MAX_HEADS), ("n", n, MAX_TOKENS)):
        if value > most:
            raise AttentionLabError(f"attention: {name} must be an integer from 1 to {most}, got {value}", "ATTN_INVALID_SHAPE")
    out = []
    for l, layer in enumerate(layers):
        heads = first if l == 0 else heads_of(layer, l)
        if len(heads) != H:
            raise AttentionLabError(f"attention: layer {l + 1} has {len(heads)} heads, layer 1 has {H}", "ATTN_INVALID_SHAPE")
        out_heads = []
        for h, rows in enumerate(heads):
            where = f"layer {l + 1}, head {h + 1}"
            if not _is_array(rows):
                raise AttentionLabTypeError(f"attention: {where} is {describe(rows)}, expected an array of rows")
            if len(rows) != n:
                raise AttentionLabError(f"attention: {where} has {len(rows)} rows, layer 1, head 1 has {n}", "ATTN_INVALID_SHAPE")
            out_rows = []
            for i, row in enumerate(rows):
                if not _is_array(row):
                    raise AttentionLabTypeError(f"attention: {where}, row {i + 1} is {describe(row)}, expected an array of numbers")
                if len(row) != n:
                    raise AttentionLabError(f"attention: {where}, row {i + 1} has {len(row)} columns, expected {n}: attention is square (n queries × n keys)", "ATTN_INVALID_SHAPE")
                for j, x in enumerate(row):
                    if isinstance(x, bool) or not isinstance(x, Real):
                        raise AttentionLabTypeError(f"attention: {where}, row {i + 1}, column {j + 1} is {describe(x)}, expected a number")
                out_rows.append([_float32(float(x)) for x in row])
            out_heads.append(out_rows)
        out.append(out_heads)
    return out


def check_values(layers):
    """Every weight finite and at least 0, every row summing to 1 within ROW_SUM_TOLERANCE: the
    core's checks, in its order and words (cpp/supplied_attention.cpp)."""
    for l, heads in enumerate(layers):
        for h, rows in enumerate(heads):
            for i, row in enumerate(rows):
                for j, x in enumerate(row):
                    if not math.isfinite(x) or x < 0:
                        raise AttentionLabError(
                            f"attention: layer {l + 1}, head {h + 1}, row {i + 1}, column {j + 1} is {_number(x)}: "
                            "attention weights must be finite and at least 0",
                            "ATTN_INVALID_ARGUMENT" if math.isfinite(x) else "ATTN_NON_FINITE_INPUT")
                total = math.fsum(row)
                if not abs(total - 1.0) <= ROW_SUM_TOLERANCE:
                    raise AttentionLabError(
                        f"attention: layer {l + 1}, head {h + 1}, row {i + 1} sums to {total:.6g}: "
                        f"each row of attention weights must sum to 1 within {ROW_SUM_TOLERANCE:g}")


def read_attention(data, tokens=None):
    """BertViz's dict ({"tokens", "attention"}) or an array of layers with `tokens` -> (tokens,
    [layer][head] rows), checked. Raises AttentionLabError (a ValueError, TypeError for a value of
    the wrong kind) with `code`, in the JavaScript side's words."""
    data = _plain(data)
    if isinstance(data, (bytes, bytearray)):
        data = data.decode("utf-8", errors="replace")
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as error:
            raise AttentionLabTypeError(f"attention: the text is not JSON: {error}") from None
    if isinstance(data, dict):
        if "attention" not in data:
            raise AttentionLabTypeError('attention: expected { tokens, attention } or an array of layers, got an object without "attention"')
        in_data, layers = data.get("tokens"), data["attention"]
    elif _is_array(data):
        in_data, layers = None, data
    else:
        raise AttentionLabTypeError(f"attention: expected JSON text, {{ tokens, attention }}, an array of layers or a file's bytes, got {describe(data)}")
    if in_data is not None and tokens is not None and list(_plain(in_data)) != list(_plain(tokens)):
        raise AttentionLabError("attention: the tokens given differ from the tokens in the data", "ATTN_INVALID_SHAPE")
    words = in_data if in_data is not None else tokens
    if words is None:
        raise AttentionLabTypeError("attention: no tokens: give { tokens, attention }, or the tokens beside an array of layers")
    words = check_tokens(words)
    layers = check_layers(layers)
    n = len(layers[0][0])
    if len(words) != n:
        raise AttentionLabError(f"attention: {len(words)} tokens but rows of {n}: give one token per row and column", "ATTN_INVALID_SHAPE")
    check_values(layers)
    return words, layers
