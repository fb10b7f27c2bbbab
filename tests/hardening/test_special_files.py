"""Links and special files in the data: every reader (the loader, the up-to-date digest, the importers' registry)
takes its list of files from load.input_files and never opens what is not a regular file."""

from __future__ import annotations

import os

from hardkit import make_tree, sitegen

from sitegen.data import load
from sitegen.build import stamp
from sitegen.data.registry import Registry


def plant_specials(root):
    """A link to /dev/zero, a FIFO, a broken link and a linked folder, each where the loader looks."""
    (root / "scores/models/acme/zero.yaml").symlink_to("/dev/zero")
    os.mkfifo(root / "scores/models/acme/pipe.yaml")
    (root / "scores/models/acme/gone.yaml").symlink_to(root / "no-such-file.yaml")
    (root / "scores/models/linked").symlink_to(root / "scores/models/acme", target_is_directory=True)


EXPECTED = [
    "scores/models/acme/gone.yaml: (file): is a symbolic link (data files must be regular files in the repository)",
    "scores/models/acme/pipe.yaml: (file): is not a regular file (data files must be regular files in the "
    "repository)",
    "scores/models/acme/zero.yaml: (file): is a symbolic link (data files must be regular files in the repository)",
    "scores/models/linked: (file): is a symbolic link (data folders must be real folders in the repository)",
    "4 errors, 0 warnings",
]


def test_build_reports_links_and_fifos_instead_of_reading_them(tmp_path):
    root = make_tree(tmp_path / "repo")
    plant_specials(root)
    out = sitegen("build", "--root", str(root), cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert out.stderr.splitlines() == EXPECTED


def test_digest_lists_special_entries_without_opening_them(tmp_path):
    root = make_tree(tmp_path / "repo")
    before = stamp.inputs_digest(root, {})
    plant_specials(root)
    names = [p.relative_to(root).as_posix() for p in load.input_files(root)]
    assert [n for n in names if n.startswith("scores/models/")] == [
        "scores/models/acme/alpha.yaml", "scores/models/acme/beta.yaml", "scores/models/acme/gone.yaml",
        "scores/models/acme/pipe.yaml", "scores/models/acme/zero.yaml", "scores/models/linked",
        "scores/models/zeta/gamma.yaml"]
    assert [load.read_data(root / n, root) for n in names if "/gone" in n or "/pipe" in n or "/zero" in n
            or n.endswith("linked")] == [None, None, None, None]
    assert stamp.inputs_digest(root, {}) != before  # adding one is a change: the next build validates again


def test_digest_reads_what_the_loader_reads_and_refuses_what_it_refuses(tmp_path):
    """The digest's own reader (no walk up each path) gives read_data's answer for every listed entry: the
    regular files' bytes, None for the link to /dev/zero, the FIFO, the broken link and the linked folder, and
    for a linked scores/ folder itself."""
    root = make_tree(tmp_path / "repo")
    plant_specials(root)
    (root / "scores/models/acme/linked-file.yaml").symlink_to(root / "scores/models/acme/alpha.yaml")
    listed = load.input_files(root)
    got = {p.relative_to(root).as_posix(): stamp._listed_bytes(p, load.MAX_RAW_BYTES) for p in listed}
    assert got == {p.relative_to(root).as_posix(): load.read_data(p, root) for p in listed}
    refused = sorted(n for n, data in got.items() if data is None)
    assert refused == ["scores/models/acme/gone.yaml", "scores/models/acme/linked-file.yaml",
                       "scores/models/acme/pipe.yaml", "scores/models/acme/zero.yaml", "scores/models/linked"]
    alpha = root / "scores/models/acme/alpha.yaml"
    assert got["scores/models/acme/alpha.yaml"] == alpha.read_bytes()
    size = alpha.stat().st_size
    assert stamp._listed_bytes(alpha, size) == alpha.read_bytes()  # at the limit: read
    assert stamp._listed_bytes(alpha, size - 1) is None  # over it: refused, as read_data refuses it
    assert load.read_data(alpha, root, size - 1) is None
    moved = tmp_path / "real-scores"
    (root / "scores").rename(moved)
    (root / "scores").symlink_to(moved, target_is_directory=True)
    listed = load.input_files(root)
    assert root / "scores" in listed and stamp._listed_bytes(root / "scores", load.MAX_RAW_BYTES) is None
    assert [stamp._listed_bytes(p, load.MAX_RAW_BYTES) for p in listed] == [load.read_data(p, root) for p in listed]


def test_registry_reads_only_regular_model_files(tmp_path):
    root = make_tree(tmp_path / "repo")
    plant_specials(root)
    assert sorted(Registry.load(root).models) == ["acme/alpha", "acme/beta", "zeta/gamma"]
