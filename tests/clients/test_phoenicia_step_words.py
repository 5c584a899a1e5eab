"""The terminal's Phoenicia header names the turn's last step (the cases:
tests/clients/phoenicia_converted.py)."""

from __future__ import annotations

import pytest
from tablero_client.render import i18n
from tablero_client.render.phoenicia import _head

from .phoenicia_converted import STEP, at_converted


@pytest.mark.parametrize(("lang", "words"), [("es", "paso: {step}"), ("en", "step {step}")])
def test_the_header_names_the_converted_step(lang, words):
    view = at_converted()
    i18n.set_language(lang)
    try:
        head = _head(view).plain
    finally:
        i18n.set_language("en")
    assert words.format(step=STEP[lang]) in head, head
    assert "convertida" not in head and "converted" not in head, head
