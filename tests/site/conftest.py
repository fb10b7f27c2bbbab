"""Fixtures: a small built site (hostile names included) rendered once per session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fixtures import make_context  # noqa: E402


@pytest.fixture(scope="session")
def site_ctx():
    return make_context(40)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, site_ctx):
    from sitegen.site import render_site

    out = tmp_path_factory.mktemp("site")
    render_site(site_ctx, out)
    return out
