"""Time render_site on a synthetic context: python benchmarks/bench_site.py [n_models ...] (default 500)."""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "generator"), str(ROOT / "tests" / "site")]

from fixtures import make_context  # noqa: E402


def main(sizes: list[int]) -> None:
    t0 = time.perf_counter()
    from sitegen.site import render_site  # imports altair lazily inside build_charts

    print(f"import sitegen.site: {time.perf_counter() - t0:.2f} s")
    for n in sizes:
        ctx = make_context(n)
        out = Path(tempfile.mkdtemp(prefix="bench-site-"))
        t = time.perf_counter()
        paths = render_site(ctx, out)
        dt = time.perf_counter() - t
        print(f"{n:>6} models: {len(paths):>6} files in {dt:.2f} s ({1000 * dt / max(n, 1):.2f} ms/model)")
        shutil.rmtree(out)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [500])
