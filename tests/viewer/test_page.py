"""Page building: data embedded so that no value can end its script element, assets checked."""

from __future__ import annotations

import json
import re

import pytest

from arena.viewer.page import DATA_ID, html_page, script_json, script_text


def test_json_in_a_script_element_cannot_close_it_or_break_a_line() -> None:
    hostile = {"name": "</script><script>alert(1)</script><!--", "sep": "a\u2028b\u2029c&"}
    text = script_json(hostile)
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == hostile


def test_a_page_holds_its_data_in_one_json_element_and_fetches_nothing() -> None:
    page = html_page("a <b> title", "body {}", "var x = 1;", {"k": "</script>"})
    assert "<title>a &lt;b&gt; title</title>" in page
    found = re.search(f'<script type="application/json" id="{DATA_ID}">(.*?)</script>', page)
    assert found is not None and json.loads(found.group(1)) == {"k": "</script>"}
    assert not re.search(r"(src|href)=|https?:", page.replace("default-src", ""))


def test_an_asset_that_would_end_its_element_is_refused() -> None:
    with pytest.raises(ValueError):
        script_text("var s = '</script>';")
    assert script_text("var ok = 1;") == "var ok = 1;"
