"""New Bedford's final scores name a victory building as everywhere else: the row read
"Victory buildings › Counting house" beside "Counting House" in the same table's Buildings row
(the terminal's and the browser's tables take the row's words from `label.details`)."""

from __future__ import annotations

import re

import pytest
from tablero.engines.new_bedford.data import BUILDING_BY_ID
from tablero_client.render import i18n


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_building_row_of_the_breakdown_is_the_buildings_name(lang):
    m = i18n.catalog("new-bedford", lang)
    keys = re.findall(r"\b([a-z_]+) \{", m.messages["label.details"])
    buildings = [k for k in keys if k in BUILDING_BY_ID]
    assert buildings, keys
    for k in buildings:
        assert m.format("label.details", {"detail": k}) == m.format(f"name.{k}"), k
