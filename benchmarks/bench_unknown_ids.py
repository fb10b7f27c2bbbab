"""How `sitegen validate` grows with unknown model ids in an imported file (issue 16). Not a test.

    python benchmarks/bench_unknown_ids.py [--counts 0,5000,20000]

Copies the real scores/ and methodology/ into a temporary folder, adds scores/imported/<source>.yaml naming N
model ids that do not exist, and prints the wall time of one `sitegen validate` process per N. Each unknown id
is an error; only the first names get a "did you mean" suggestion, so the time must grow linearly.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tree(folder: Path, unknown: int) -> Path:
    root = folder / f"repo-{unknown}"
    for name in ("scores", "methodology"):
        shutil.copytree(ROOT / name, root / name)
    if unknown:
        lines = ["source: hle", 'retrieved: "2025-06-02"', "results:"]
        for i in range(unknown):
            lines += [f"  - model: zz{i}/unknown-model-{i}", "    benchmark: hle", f"    value: {i % 100}"]
        (root / "scores/imported/hle.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="0,5000,20000")
    counts = [int(c) for c in parser.parse_args().counts.split(",")]
    print("| unknown ids | validate (s) |\n|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            root = tree(Path(tmp), n)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "sitegen.cli", "validate", "--root", str(root)],
                           capture_output=True, check=False)
            print(f"| {n:,} | {time.perf_counter() - start:.2f} |")


if __name__ == "__main__":
    main()
