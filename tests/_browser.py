"""Headless Chromium for the report tests (Debian's chromium through playwright; skipped with the reason when
either is missing)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LOCAL = ("file:", "data:", "blob:", "about:")


def launch() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install 'accord[test]')")
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium at /usr/bin/chromium (Debian: apt-get install chromium; .ci/run does it as root)")
    with sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        except Exception as exc:  # pragma: no cover - depends on the machine
            pytest.skip(f"Chromium did not start: {str(exc).splitlines()[0]}")
        yield browser
        browser.close()


class OpenedPage:
    """A report opened in the browser, with what it logged and what it tried to fetch."""

    def __init__(self, browser: Any, path: Path, width: int = 1280) -> None:
        self.errors: list[str] = []
        self.remote: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": 900}, accept_downloads=True)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

        def route(r: Any) -> None:
            if r.request.url.startswith(LOCAL):
                r.continue_()
            else:
                self.remote.append(r.request.url)
                r.abort()

        self.page.route("**/*", route)
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('div.chart')].every("
            "e => e.dataset.rendered === '1' || e.classList.contains('chart-error'))",
            timeout=30000,
        )

    def marks(self) -> dict[str, int]:
        """Drawn marks (SVG items of every mark group) in each chart."""
        return self.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('div.chart')].map("
            "e => [e.dataset.chart, e.querySelectorAll('svg .role-mark > *').length]))"
        )

    def headline(self) -> dict[str, dict[str, str]]:
        return self.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('.card[data-key]')].map("
            "e => [e.dataset.key, {value: e.dataset.value, low: e.dataset.ciLow || null,"
            " high: e.dataset.ciHigh || null,"
            " shown: e.querySelector('.card-value').textContent}]))"
        )

    def column(self, table: str, index: int) -> list[str]:
        return self.page.evaluate(
            f"() => [...document.querySelectorAll('#table-{table} tbody tr')].map(r => r.children[{index}].textContent)"
        )

    def screenshots(self, folder: Path, stem: str) -> list[Path]:
        out = []
        for width in (1280, 390):
            self.page.set_viewport_size({"width": width, "height": 900})
            self.page.wait_for_timeout(300)
            p = folder / f"{stem}-{width}.png"
            self.page.screenshot(path=str(p), full_page=True)
            out.append(p)
        return out

    def close(self) -> None:
        self.page.close()
