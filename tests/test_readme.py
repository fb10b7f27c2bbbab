"""The README's promises: its two front-door commands and its example model file."""

import re
from pathlib import Path

from sitegen import load, schema, yamlstrict

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands():
    first_block = re.search(r"```sh\n(.*?)```", README, re.S).group(1).strip().splitlines()
    assert len(first_block) == 2
    assert first_block[0].startswith("python3 -m pip install -e . && sitegen build")
    assert first_block[1].startswith("bash tools/test.sh")
    assert "bash tools/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_example_model_file_is_valid():
    example = re.search(r"```yaml\n(# yaml-language-server.*?)```", README, re.S).group(1)
    parsed, problems = yamlstrict.parse(example.encode("utf-8"), "scores/models/acme/widget-7b-instruct.yaml")
    assert problems == []
    doc = load.Doc("scores/models/acme/widget-7b-instruct.yaml", "model", parsed)
    assert schema.check_doc(doc) == []
    assert parsed.data["id"] == "acme/widget-7b-instruct"


def test_readme_says_where_every_source_is_downloaded():
    import yaml

    sources = yaml.safe_load((ROOT / "scores" / "sources.yaml").read_text(encoding="utf-8"))["sources"]
    section = README.split("## Refreshing a source", 1)[1].split("\n## ", 1)[0]
    for source in sources:
        assert f"| `{source['id']}` |" in section, source["id"]
