"""A digest of everything a build reads, so that a rebuild with nothing changed can stop at once."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

STAMP = ".sitegen-inputs"
_PACKAGE = Path(__file__).resolve().parent


def _files(folder: Path):
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if not name.endswith(".pyc"):
                yield Path(dirpath) / name


def inputs_digest(root: Path, environment: dict[str, str]) -> str:
    """SHA-256 over the data tree, CITATION.cff, the package's code, templates and assets, and the given settings.

    Paths enter the digest relative to their folder, so two checkouts of the same commit agree.
    """
    digest = hashlib.sha256()
    for label, folder in (("scores", root / "scores"), ("methodology", root / "methodology"), ("sitegen", _PACKAGE)):
        for path in _files(folder):
            digest.update(f"{label}/{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    citation = root / "CITATION.cff"  # rendered on the Cite page
    if citation.is_file():
        digest.update(b"CITATION.cff\0" + hashlib.sha256(citation.read_bytes()).digest())
    for key in sorted(environment):
        digest.update(f"{key}={environment[key]}\0".encode())
    return digest.hexdigest()


def up_to_date(out: Path, digest: str) -> bool:
    stamp = Path(out) / STAMP
    try:
        return stamp.read_text(encoding="ascii").strip() == digest
    except (OSError, UnicodeDecodeError):
        return False


def stamp_text(digest: str) -> str:
    return digest + "\n"
