"""The core shows none of this repository's words (issue 34, item 1): no source, benchmark, index or board id, and no
display name its data gives (a source's publisher, or the first word of its name where it has none; a definition's
or board's `name` and `short_name`; a benchmark's `name`). tests/test_core_names.py checks the ids in the Python
modules of the engine's folders; this test reads every file of the package but this repository's layer
(ARCHITECTURE.md, "The core and this repository's layer": `importers/` and `cli/imports.py`): the string literals of
its Python modules (docstrings aside, which explain the engine with this repository's examples), its templates' text
(Jinja comments aside) and every other text file (schemas, static files, YAML). The words come from the data
itself, so a new source or board is checked without editing this file.

Where the core may name one of these words, ALLOWED says where and why, and WORDS which word is the engine's own;
tests/test_core_words.py::test_each_allowance_is_still_needed fails an allowance nothing needs any more.

Also here: the texts that moved from the core into the data (the price chart's description, the anchor tables'
heading, the paper's frontiers' heading, the Downloads page's frontier boards) and methodology/start-your-own.md's
account of methodology/site.yaml against its schema."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import yaml

from sitegen.site import methodology
from sitegen.site.charts import price_description
from sitegen.site.context import Presentation, SiteContext
from sitegen.site.pages import Urls
from sitegen.site.views import Lookups, iq_anchors
from test_core_names import names_an_id, repository_ids

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator" / "sitegen"
#: This repository's layer inside the package (ARCHITECTURE.md): the importers of its sources and their commands.
LAYER = ("importers/", "cli/imports.py")
#: The text files of the core read line by line (Python modules are read through their syntax tree).
TEXT_SUFFIXES = (".html", ".json", ".yaml", ".yml", ".js", ".css", ".md", ".txt", ".toml", ".cff")

#: Files (or folders, ending in "/") of the core that may name this repository's words, each with its reason.
ALLOWED: dict[str, str] = {
    "init/": "sitegen init's default repository: five models' GPQA Diamond runs from Epoch AI's Benchmarking Hub "
    "(issue 34, item 2 asks for a real public leaderboard's rows); the new repository's own data, whose source and "
    "benchmark this repository happens to use too",
    "cli/init.py": "the same default repository: its benchmark's id and name and its source, as `sitegen init` "
    "writes them",
}
#: Display names that are also the engine's own words, with the reason.
WORDS: dict[str, str] = {
    "Effective cost": "the cost-frontier kind's quantity (indices/cost.py), which this repository's cost board is "
    "named after",
    "Response time": "the cost-frontier kind's quantity (a value-vs-speed chart's x), which this repository's "
    "response-time board is named after",
}


def display_names(root: Path = ROOT) -> set[str]:
    """The names this repository's data shows its sources, definitions, boards and benchmarks by."""
    names = set()
    for s in yaml.safe_load((root / "scores" / "sources.yaml").read_text(encoding="utf-8"))["sources"]:
        names.add(s.get("publisher") or re.split(r"[ ,]", s["name"])[0])
    for path in (root / "methodology" / "indices").glob("*.yaml"):
        d = yaml.safe_load(path.read_text(encoding="utf-8"))
        boards = d.get("boards") or []
        for entry in [d, *(boards.values() if isinstance(boards, dict) else boards)]:
            names |= {entry[k] for k in ("name", "short_name") if entry.get(k)}
    benchmarks = yaml.safe_load((root / "methodology" / "benchmarks.yaml").read_text(encoding="utf-8"))
    names |= {b["name"] for b in benchmarks["benchmarks"]}
    return {n for n in names if len(n) >= 3}


def word_pattern(words: set[str]) -> re.Pattern[str]:
    """A whole word or phrase of `words`: not inside a longer word or hyphenated name ("ARC" not in "ARC-AGI-2"
    nor in "SEARCH"), the longest first."""
    return re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in sorted(words, key=len, reverse=True)))


def _docstrings(tree: ast.AST) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }


def worded(path: Path, rel: str, words: set[str], ids: set[str]) -> list[str]:
    """`rel:line: 'word'` for each of `words` a file shows, and each of `ids` it names (a Python module: in its
    string literals, docstrings aside, an id as test_core_names.names_an_id finds it: a whole literal; a template: in its text,
    Jinja comments aside; another text file: in any line)."""
    hits = []
    if path.suffix == ".py":
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs, pattern = _docstrings(tree), word_pattern(words)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                hits += [f"{rel}:{node.lineno}: {m.group(0)!r}" for m in pattern.finditer(node.value)]
                hits += [f"{rel}:{node.lineno}: {node.value!r}"] if names_an_id(node.value, ids) else []
        return hits
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".html":  # a Jinja comment is the template's note to its reader, never on the page
        text = re.sub(r"\{#.*?#\}", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    pattern = word_pattern(words | ids)
    for number, line in enumerate(text.splitlines(), 1):
        hits += [f"{rel}:{number}: {m.group(0)!r}" for m in pattern.finditer(line)]
    return hits


def core_files(package: Path = PACKAGE) -> list[tuple[Path, str]]:
    """(path, path relative to the package) of each file of the core: Python modules and text files, this
    repository's layer left out."""
    out = []
    for path in sorted(package.rglob("*")):
        rel = path.relative_to(package).as_posix()
        if not path.is_file() or "__pycache__" in rel or rel.startswith(LAYER):
            continue
        if path.suffix == ".py" or path.suffix in TEXT_SUFFIXES:
            out.append((path, rel))
    return out


def _allowed(rel: str) -> bool:
    return any(rel == a or (a.endswith("/") and rel.startswith(a)) for a in ALLOWED)


def _scan(package: Path, words: set[str], ids: set[str]) -> dict[str, list[str]]:
    return {rel: sorted(hits) for path, rel in core_files(package) if (hits := worded(path, rel, words, ids))}


# ---------------------------------------------------------------------------------------------- the scanner itself


def test_the_scanner_reads_literals_templates_and_text_files_but_no_docstring_comment_or_layer(tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "templates").mkdir()
    (tmp_path / "importers").mkdir()
    (tmp_path / "cli").mkdir()
    (tmp_path / "site" / "a.py").write_text(
        '"""Quiz Arena explains."""\n# Quiz Arena in a comment\n'
        'X = ("Quiz Arena", f"on Quiz Arena {1}", "Quiz Arenas", "quiz-arena-v2", "quiz-")\n'
        "def f():\n    '''Quiz Arena.'''\n    return 'Quiz Arena-2'\n"
    )
    (tmp_path / "templates" / "p.html").write_text("{# Quiz Arena #}<h2>Quiz Arena anchors</h2>\n{#\nquiz-arena-v2\n#}"
                                                   "<p>quiz-arena-v2 and quiz-arena-v22</p>\n")
    (tmp_path / "schema.json").write_text('{"description": "e.g. Quiz Arena"}\n')
    (tmp_path / "importers" / "quiz.py").write_text('NAME = "Quiz Arena"\n')
    (tmp_path / "cli" / "imports.py").write_text('NAME = "Quiz Arena"\n')
    (tmp_path / "logo.png").write_bytes(b"Quiz Arena")
    assert _scan(tmp_path, {"Quiz Arena"}, {"quiz-arena-v2"}) == {
        "schema.json": ["schema.json:1: 'Quiz Arena'"],
        "site/a.py": ["site/a.py:3: 'Quiz Arena'", "site/a.py:3: 'Quiz Arena'", "site/a.py:3: 'quiz-'",
                      "site/a.py:3: 'quiz-arena-v2'"],
        "templates/p.html": ["templates/p.html:1: 'Quiz Arena'", "templates/p.html:4: 'quiz-arena-v2'"],
    }


def test_display_names_are_publishers_first_words_definition_board_and_benchmark_names(tmp_path):
    (tmp_path / "scores").mkdir()
    (tmp_path / "methodology" / "indices").mkdir(parents=True)
    (tmp_path / "scores" / "sources.yaml").write_text(
        "sources:\n  - {id: qa-1, publisher: Quiz Arena, name: Quiz Arena dump of May}\n"
        "  - {id: tb, name: 'TriviaBase leaderboard, overall'}\n  - {id: x, name: 'Xy, a paper'}\n")
    (tmp_path / "methodology" / "indices" / "q.yaml").write_text(
        "id: q\nname: The Quiz Index\nshort_name: Quiz\nboards:\n  - {id: q-a, name: Quiz A}\n  - {id: q-b}\n")
    (tmp_path / "methodology" / "benchmarks.yaml").write_text("benchmarks:\n  - {id: qa, name: QA-Bench}\n")
    assert display_names(tmp_path) == {"Quiz Arena", "TriviaBase", "The Quiz Index", "Quiz", "Quiz A", "QA-Bench"}


# --------------------------------------------------------------------------------------------- this repository


def test_this_repositorys_words_include_its_publishers_and_names():
    assert {"Artificial Analysis", "LMArena", "AI IQ", "Pedagogy", "Humanity's Last Exam", "Epoch"} <= display_names()


def test_no_file_of_the_core_shows_this_repositorys_words_but_where_allowed():
    found = _scan(PACKAGE, display_names() - set(WORDS), repository_ids())
    assert {rel: hits for rel, hits in found.items() if not _allowed(rel)} == {}


def test_each_allowance_is_still_needed():
    found = _scan(PACKAGE, display_names() - set(WORDS), repository_ids())
    needed = {a for a in ALLOWED for rel in found if rel == a or (a.endswith("/") and rel.startswith(a))}
    assert sorted(set(ALLOWED) - needed) == []
    everywhere = _scan(PACKAGE, display_names(), set())
    assert sorted(w for w in WORDS if not any(repr(w) in h for hits in everywhere.values() for h in hits)) == []


# ------------------------------------------------------------------------------------- the texts now in the data


def test_the_price_description_names_each_precedence_by_publisher_or_name_then_the_rest():
    sources = [
        {"id": "qa-2026-01", "publisher": "Quiz Arena", "name": "Quiz Arena, January", "price_precedence": 1},
        {"id": "qa-2026-02", "publisher": "Quiz Arena", "name": "Quiz Arena, February", "price_precedence": 1},
        {"id": "tb", "name": "TriviaBase prices", "price_precedence": 2},
        {"id": "zz", "publisher": "Zed", "name": "Zed list", "price_precedence": 3},
        {"id": "yy", "publisher": "Yak", "name": "Yak list", "price_precedence": 3},
        {"id": "paper", "name": "A paper"},
    ]
    text = price_description(sources)
    assert text.startswith("Input and output price (USD per million tokens) over time: each step holds from its date")
    assert ("Where sources differ, the vendor's list price decides, then Quiz Arena (newest snapshot first), then "
            "TriviaBase prices, then Yak and Zed (newest price first), then any other source; a lower source's "
            "different price is listed as a disagreement") in text
    assert "A paper" not in text
    assert ("the vendor's list price decides, then the newest price; a lower source's"
            in price_description([{"id": "paper", "name": "A paper"}]))


def test_the_price_description_is_site_yamls_where_it_gives_one():
    assert Presentation.from_data(None).price_description == ""
    p = Presentation.from_data({"charts": {"prices": {"description": "Quiz prices, the vendor's first."}}})
    assert p.price_description == "Quiz prices, the vendor's first."
    site = yaml.safe_load((ROOT / "methodology" / "site.yaml").read_text(encoding="utf-8"))
    assert "then Artificial Analysis (newest snapshot first), then LMArena;" in site["charts"]["prices"]["description"]


def _ctx(index_defs: dict) -> SiteContext:
    return SiteContext(boards={}, benchmark_boards={}, models=[], benchmarks=[], sources=[], index_defs=index_defs,
                       methodology_pages={}, frontiers={}, data_date="2026-01-31")


def test_the_anchor_tables_are_headed_by_their_definitions_name_and_unit_else_its_id_and_iq():
    bench = {"benchmark": "quiz", "ceiling": 120, "anchors": [[0, 70], [50, 100]]}
    named = {"quiz-iq": {"kind": "ai-iq", "name": "Quiz IQ", "unit": "points",
                         "dimensions": [{"id": "r", "benchmarks": [bench]}]}}
    out = iq_anchors(_ctx(named), "quiz-iq")["quiz"]
    assert (out["index_name"], out["index_unit"]) == ("Quiz IQ", "points")
    del named["quiz-iq"]["name"], named["quiz-iq"]["unit"]
    out = iq_anchors(_ctx(named), "quiz-iq")["quiz"]
    assert (out["index_name"], out["index_unit"]) == ("quiz-iq", "IQ")
    template = (PACKAGE / "templates" / "benchmark.html").read_text(encoding="utf-8")
    assert template.count("{{ anchor.index_name }}") == 4 and "implied {{ anchor.index_unit }}" in template


def test_the_papers_frontiers_are_headed_by_their_title_else_a_generic_heading():
    d = {"id": "quiz", "kind": "pedagogy", "name": "Quiz", "version": "1",
         "paper_frontier": {"title": "Frontiers the paper reports on Quiz A", "value": ["A 1", "B 2"], "size": ["C"]}}
    ctx = _ctx({"quiz": d})
    lk = Lookups(ctx, Urls(ctx))
    view = methodology.definition_view(dict(d), ctx, lk, lambda b: None)
    [block] = [b for b in view["blocks"] if (b.get("table") or {}).get("head") == ["Frontier", "Models, in order"]]
    assert block["title"] == "Frontiers the paper reports on Quiz A"
    assert block["table"]["rows"] == [["value", "A 1, B 2"], ["size", "C"]]
    untitled = {**d, "paper_frontier": {"value": ["A 1"]}}
    view = methodology.definition_view(untitled, ctx, lk, lambda b: None)
    [block] = [b for b in view["blocks"] if (b.get("table") or {}).get("head") == ["Frontier", "Models, in order"]]
    assert block["title"] == "Frontiers the paper reports" and block["table"]["rows"] == [["value", "A 1"]]
    assert "Short name" not in json.dumps(methodology.definition_view({**d, "short_name": "Q"}, ctx, lk,
                                                                      lambda b: None)["other"])


def test_the_frontier_boards_are_named_by_their_definitions_short_name_else_name_else_id():
    defs = {
        "zeta": {"frontier": {"value": {}}, "name": "The Zeta Benchmark", "short_name": "Zeta"},
        "alpha": {"frontier": {"size": {}}, "name": "Alpha"},
        "beta": {"frontier": {"value": {}}},
        "plain": {"name": "No frontier"},
    }
    assert methodology.frontier_names(defs) == ["Alpha", "beta", "Zeta"]
    assert methodology.frontier_names({}) == []
    template = (PACKAGE / "templates" / "downloads.html").read_text(encoding="utf-8")
    assert '{% if frontier_names %} ({{ frontier_names | join(", ") }} boards){% endif %}' in template


# ------------------------------------------------------------------ start-your-own.md's account of site.yaml


def schema_keys(schema: dict, prefix: str = "") -> set[str]:
    """The dotted paths of a schema's properties that have none of their own (`headline.fallback`, `charts.draw`)."""
    out = set()
    for name, sub in (schema.get("properties") or {}).items():
        path = f"{prefix}{name}"
        out |= schema_keys(sub, f"{path}.") if sub.get("properties") else {path}
    return out


def page_keys(text: str) -> set[str]:
    """The keys a page's list of site.yaml's keys names: each item's code spans before its first ': '."""
    return {key for line in text.splitlines() if line.startswith("- `")
            for key in re.findall(r"`([^`]+)`", line.split(": ", 1)[0])}


def test_schema_keys_and_page_keys_read_the_leaves_and_the_list():
    schema = {"properties": {"a": {"type": "string"}, "b": {"properties": {"c": {}, "d": {"properties": {"e": {}}}}}}}
    assert schema_keys(schema) == {"a", "b.c", "b.d.e"}
    assert page_keys("- `a`, `b.c`: two, `not.this`\n  - `x`: indented\n- `b.d.e`: one\nText `y`: none") == {
        "a", "b.c", "b.d.e"}


def test_start_your_own_names_every_key_of_site_yaml_and_no_other():
    schema = json.loads((PACKAGE / "schemas" / "site.schema.json").read_text(encoding="utf-8"))
    page = (ROOT / "methodology" / "start-your-own.md").read_text(encoding="utf-8")
    section = page.split("`methodology/site.yaml` holds these keys", 1)[1].split("\n\n", 2)[1]
    assert page_keys(section) == schema_keys(schema)
    assert "charts.prices.description" in schema_keys(schema)
