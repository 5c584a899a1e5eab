"""Request bodies: hostile JSON is refused with a reason, never a 500 or a silent choice."""

import pytest
from tablero.server.http.strict_json import BadJson, last_event_id, loads


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
        (b'{"a": NaN}', "NaN"),
        (b'{"a": Infinity}', "Infinity"),
        (b"[" * 100 + b"]" * 100, "deeper"),
        (b'{"n": ' + b"9" * 5000 + b"}", "digits"),
        (b"\xff\xfe", "UTF-8"),
        (b'{"a": ', "malformed"),
    ],
)
def test_hostile_bodies_are_refused_with_the_reason(raw, reason):
    with pytest.raises(BadJson, match=reason):
        loads(raw)


@pytest.mark.parametrize("raw", [
    rb'{"userName": "B\ud800"}',  # a lone high surrogate
    rb'{"userName": "Ana \ud83d"}',  # an emoji cut in half (a portal trimming a name by UTF-16 units)
    rb'{"requestId": "a\uDC00b"}',  # a lone low one, upper case
    rb'{"\ud800": 1}',  # in a key
])
def test_a_lone_surrogate_escape_is_refused_before_anything_is_stored(raw):
    # Decoded, it is a str no answer can encode (a 500 for every lobby page listing it).
    with pytest.raises(BadJson, match="lone UTF-16 surrogate"):
        loads(raw)


def test_a_surrogate_pair_and_an_escaped_backslash_are_text():
    assert loads(rb'{"n": "Ana \ud83d\ude00", "s": "\\ud800"}') == {"n": "Ana \U0001f600", "s": "\\ud800"}


def test_ordinary_json_parses():
    assert loads(b'{"action": {"type": "place", "cell": 4}, "s": "[{\\"x"}') == {
        "action": {"type": "place", "cell": 4}, "s": '[{"x'}


@pytest.mark.parametrize(("value", "out"), [(None, None), ("", None), ("12", 12), ("9" * 5000, None),
                                             ("-1", None), ("١٢", None)])
def test_last_event_id(value, out):
    assert last_event_id(value) == out


def test_a_number_without_a_fraction_is_an_integer_as_over_grpc():
    # gRPC's Struct numbers are all doubles (1.0 arrives as 1); JSON Schema calls 4.0 an
    # integer too. So REST takes 4.0 as 4, and keeps real fractions and huge values as floats.
    out = loads(b'{"cell": 4.0, "e": 1e2, "half": 0.5, "neg": -2.0, "big": 1e300}')
    assert out == {"cell": 4, "e": 100, "half": 0.5, "neg": -2, "big": 1e300}
    assert type(out["cell"]) is int and type(out["half"]) is float and type(out["big"]) is float
