"""reuse.Output's taking of a file keyed by its bytes (put_bytes: the API's files, the assets): the previous file is
linked when it holds those very bytes, compared without hashing them again, and written afresh otherwise; and
reuse.regular_bytes, which reads every file taken, reads it whole."""

from __future__ import annotations

import hashlib
import json
import os

from sitegen import reuse


def test_a_file_keyed_by_its_bytes_is_taken_only_when_the_previous_one_holds_them(tmp_path):
    old = tmp_path / "old"
    (old / "api").mkdir(parents=True)
    same, edited = b'{"value": 61.2}\n', b'{"value": 61.3}\n'
    (old / "api/same.json").write_bytes(same)
    (old / "api/edited.json").write_bytes(b'{"value": 99.9}\n')  # as long as what was built, other bytes
    sha = hashlib.sha256(same).hexdigest()
    record = {
        "api/same.json": ["bytes:" + sha, sha],
        "api/edited.json": ["bytes:" + hashlib.sha256(edited).hexdigest(), hashlib.sha256(edited).hexdigest()],
    }
    (old / reuse.RECORD).write_text(json.dumps(record), encoding="utf-8")
    out = reuse.Output(tmp_path / "new", old)

    assert out.put_bytes("api/same.json", same) == ["bytes:" + sha, sha]
    assert os.path.samefile(tmp_path / "new/api/same.json", old / "api/same.json")  # linked, not written

    entry = out.put_bytes("api/edited.json", edited)  # the record's key, but the file was changed by hand since
    assert entry == ["bytes:" + hashlib.sha256(edited).hexdigest(), hashlib.sha256(edited).hexdigest()]
    assert (tmp_path / "new/api/edited.json").read_bytes() == edited
    assert not os.path.samefile(tmp_path / "new/api/edited.json", old / "api/edited.json")
    assert (old / "api/edited.json").read_bytes() == b'{"value": 99.9}\n'  # never written through

    fresh = out.put_bytes("api/new.json", b"[]\n")  # not in the record: written, its entry's digest from its key
    assert fresh == ["bytes:" + hashlib.sha256(b"[]\n").hexdigest(), hashlib.sha256(b"[]\n").hexdigest()]


def test_regular_bytes_reads_a_file_whole_and_refuses_one_over_its_limit(tmp_path):
    sizes = (0, 1, 4096, (1 << 16) + 3, 300_000)
    for size in sizes:
        data = bytes(i % 251 for i in range(size))
        path = tmp_path / f"f{size}"
        path.write_bytes(data)
        assert reuse.regular_bytes(path) == data
        assert reuse.regular_bytes(path, size) == data
        if size:
            assert reuse.regular_bytes(path, size - 1) is None
    os.mkfifo(tmp_path / "fifo")
    assert reuse.regular_bytes(tmp_path / "fifo") is None  # not waited on
    (tmp_path / "link").symlink_to(tmp_path / "f1")
    assert reuse.regular_bytes(tmp_path / "link") is None  # a link is not followed


def test_a_page_store_entry_that_already_is_the_page_is_not_linked_again(tmp_path, monkeypatch):
    """PageStore.keep of a page taken unchanged from the previous site, which the last build stored (the entry is
    the same file, recorded with the page's digest), changes nothing; any other page replaces the entry."""
    page, key = b"<html>same</html>\n", "ab" * 32
    sha = hashlib.sha256(page).hexdigest()
    store_dir, site = tmp_path / "pages", tmp_path / "site"
    store_dir.mkdir()
    site.mkdir()
    (site / "index.html").write_bytes(page)
    os.link(site / "index.html", store_dir / key)
    (store_dir / reuse.PAGES_RECORD).write_text(json.dumps({key: sha}), encoding="utf-8")
    store = reuse.PageStore(store_dir)
    linked: list[str] = []
    link = os.link
    monkeypatch.setattr(os, "link", lambda a, b: linked.append(os.path.basename(b)) or link(a, b))

    store.keep(key, site / "index.html", sha)
    assert linked == []  # already that file

    (tmp_path / "other.html").write_bytes(page)  # the same bytes in another file: stored in its place
    store.keep(key, tmp_path / "other.html", sha)
    assert linked == [key] and os.path.samefile(store_dir / key, tmp_path / "other.html")
    store.keep(key, site / "index.html", "0" * 64)  # not what the record says it held: stored again
    assert linked == [key, key] and os.path.samefile(store_dir / key, site / "index.html")


def test_a_check_writes_only_the_pages_it_renders_and_names_the_rest(tmp_path):
    """A check's output (build --check, reuse.Output's `check`): a page the store holds is named in the record, not
    linked; a page it renders is written (the link check may read it); any other file is made, named, not
    written; a file that cannot be made fails the check as it fails a build."""
    import pytest

    stored, key = b"<html>stored</html>\n", "ab" * 32
    store_dir, site = tmp_path / "pages", tmp_path / "check"
    store_dir.mkdir()
    (store_dir / key).write_bytes(stored)
    sha = hashlib.sha256(stored).hexdigest()
    (store_dir / reuse.PAGES_RECORD).write_text(json.dumps({key: sha}), encoding="utf-8")
    out = reuse.Output(site, None, reuse.PageStore(store_dir, writable=False), check=True)

    made: list[str] = []
    assert out.put("models/a/index.html", key, lambda: made.append("a") or b"") == [key, sha]
    assert made == [] and not (site / "models").exists()  # named from the store, not rendered, not linked

    rendered, other = b"<html>new</html>\n", "cd" * 32
    assert out.put("boards/b.html", other, lambda: rendered) == [other, hashlib.sha256(rendered).hexdigest()]
    assert (site / "boards/b.html").read_bytes() == rendered

    cells = b'{"rows": []}\n'
    assert out.put("boards/b/cells.json", "file:k", lambda: cells) == ["file:k", hashlib.sha256(cells).hexdigest()]
    api = out.put_bytes("api/v1/index.json", b"{}\n")
    assert api == [reuse.bytes_key(b"{}\n"), hashlib.sha256(b"{}\n").hexdigest()]
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()) == ["boards/b.html"]

    (store_dir / key).write_bytes(b"<html>changed by hand</html>\n")  # not the bytes stored: rendered again
    assert out.put("models/a/index.html", key, lambda: rendered)[1] == hashlib.sha256(rendered).hexdigest()
    assert (site / "models/a/index.html").read_bytes() == rendered

    def broken() -> bytes:
        raise RuntimeError("the social image could not be drawn")

    with pytest.raises(RuntimeError, match="could not be drawn"):
        out.put("og/b.png", "file:og", broken)
