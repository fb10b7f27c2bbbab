"""The naming style for display names (CONTRIBUTING.md, "Name a model") and validate's check of it."""

from pathlib import Path

import pytest

from sitegen.data import checks, load

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", [
    "GPT-5 (high)",
    "GPT-5.2 (xhigh)",
    "GLM-5.2 (max)",
    "GPT-5 mini (minimal)",
    "Claude Opus 4.6 (120K, high)",
    "GPT-5.1 (Thinking, low)",
    "Qwen3 8B (Reasoning)",
    "Claude 3.7 Sonnet (Non-reasoning)",
    "Claude Opus 5 (Adaptive Reasoning, Max Effort)",   # Artificial Analysis's phrase: "Effort" makes it one word
    "GLM-4.6 (Non-reasoning, High Effort)",
    "Claude 3.7 Sonnet (Thinking 16K)",
    "Claude 3.5 Sonnet (Oct '24)",
    "Gemini 2.5 Flash-Lite Preview (Sep '25) (Reasoning)",
    "GPT-4o (Mar '25, chatgpt-4o-latest)",
    "Grok 2 (2024-08-13)",                               # a full date, ISO
    "GPT-5.2 Pro (web app, 2025-12-11)",
    "GPT-4 (0613)",                                      # the vendor's checkpoint code
    "Gemini 2.5 Flash-Lite Preview (06-17)",             # MM-DD code, not a month and year
    "Llama 4 Maverick (03-26 experimental chat version)",
    "Qwen3 235B A22B 2507 Instruct",
    "Yi-1.5-34B-Chat",
    "Claude 3 Opus",                                     # Anthropic's order before version 4
    "Claude 3.7 Sonnet Thinking (high)",
    "Maximus 7B",                                        # 'Max' only as a whole word in a parenthesis
    "Imagen 3 (002)",
])
def test_names_in_style(name):
    assert checks.name_style_problems(name) == []


@pytest.mark.parametrize("name, expected", [
    ("o3 (High)", [("'o3 (High)' spells the effort 'High'", "write (high): effort words are lower-case")]),
    ("GPT-5.4 (XHigh)", [("'GPT-5.4 (XHigh)' spells the effort 'XHigh'", "write (xhigh): effort words are lower-case")]),
    ("Claude Opus 4.6 (120K, Medium)",
     [("'Claude Opus 4.6 (120K, Medium)' spells the effort 'Medium'", "write (medium): effort words are lower-case")]),
    ("GPT-5.4 mini (Non-Reasoning)",
     [("'GPT-5.4 mini (Non-Reasoning)' spells the mode 'Non-Reasoning'", "write (Non-reasoning)")]),
    ("Qwen3 8B (reasoning)", [("'Qwen3 8B (reasoning)' spells the mode 'reasoning'", "write (Reasoning)")]),
    ("Kimi K2.5 (mode not stated)",
     [("'Kimi K2.5 (mode not stated)' writes the reasoning mode into the name",
       "leave the mode out of the name: the site renders 'not stated' from reasoning and effort")]),
    ("o4-mini (effort not stated)",
     [("'o4-mini (effort not stated)' writes the reasoning mode into the name",
       "leave the mode out of the name: the site renders 'not stated' from reasoning and effort")]),
    ("Gemini 3 Deep Think (Preview) ²",
     [("'Gemini 3 Deep Think (Preview) ²' has a footnote mark (²)",
       "write 'Gemini 3 Deep Think (Preview)'; a note about the model goes in its notes, not its name")]),
    ("o3 (Preview, High)*",
     [("'o3 (Preview, High)*' has a footnote mark (*)",
       "write 'o3 (Preview, High)'; a note about the model goes in its notes, not its name"),
      ("'o3 (Preview, High)*' spells the effort 'High'", "write (high): effort words are lower-case")]),
    ("Gemini 2.5 Pro Preview (Mar' 25)",
     [("'Gemini 2.5 Pro Preview (Mar' 25)' writes the date 'Mar' 25'", "write Mar '25: month dates are Mon 'YY")]),
    ("Claude 3.5 Sonnet (June '24)",
     [("'Claude 3.5 Sonnet (June '24)' writes the date 'June '24'", "write Jun '24: month dates are Mon 'YY")]),
    ("Gemini 2.5 Flash (April 2025)",
     [("'Gemini 2.5 Flash (April 2025)' writes the date 'April 2025'", "write Apr '25: month dates are Mon 'YY")]),
    ("MiMo-V2-Flash (Feb 2026)",
     [("'MiMo-V2-Flash (Feb 2026)' writes the date 'Feb 2026'", "write Feb '26: month dates are Mon 'YY")]),
    ("Command R (08-2024)",
     [("'Command R (08-2024)' writes the date '08-2024'", "write Aug '24: month dates are Mon 'YY")]),
    ("Gemini 3 Deep Think (2/26)",
     [("'Gemini 3 Deep Think (2/26)' writes the date '2/26'", "write Feb '26: month dates are Mon 'YY")]),
    ("gpt-4o-2024-05-13",
     [("'gpt-4o-2024-05-13' reads like an API id (a date joined to the name)",
       "use the vendor's product name, the date as (2024-05-13)")]),
    ("claude-3-5-sonnet-20241022",
     [("'claude-3-5-sonnet-20241022' reads like an API id (a date joined to the name)",
       "use the vendor's product name, the date as (2024-10-22)")]),
    ("Claude 4 Opus (Reasoning)",
     [("'Claude 4 Opus (Reasoning)' orders Anthropic's name the old way",
       "write 'Claude Opus 4': Anthropic's names from version 4 on")]),
    ("Claude 4.5 Haiku",
     [("'Claude 4.5 Haiku' orders Anthropic's name the old way",
       "write 'Claude Haiku 4.5': Anthropic's names from version 4 on")]),
])
def test_names_out_of_style(name, expected):
    assert checks.name_style_problems(name) == expected


@pytest.mark.parametrize("name, product", [
    ("Claude Opus 4 (Thinking 16K)", "Claude Opus 4"),
    ("Claude Opus 4 Thinking (low)", "Claude Opus 4"),
    ("Grok 4.1 Thinking", "Grok 4.1"),
    ("Grok 3 Mini Reasoning (high)", "Grok 3 Mini"),
    ("Kimi K2.5 on Fireworks", "Kimi K2.5"),
    ("Gemini 2.5 Flash-Lite Preview (Sep '25) (Reasoning)", "Gemini 2.5 Flash-Lite Preview"),
    ("o3-Pro (high)", "o3-Pro"),
    ("GPT-5", "GPT-5"),
])
def test_product_name(name, product):
    assert checks.product_name(name) == product


def _tree(tmp_path, models: dict[str, dict]) -> Path:
    root = tmp_path / "repo"
    for mid, fields in models.items():
        path = root / "scores" / "models" / f"{mid}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [f"id: {mid}"] + [f"{k}: {v}" for k, v in fields.items()]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def _style_problems(root):
    repo, _ = load.load_repo(root)
    return [p.format() for p in checks.names_follow_style(checks.Index(repo))]


def test_check_reports_each_rule_at_the_name(tmp_path):
    root = _tree(tmp_path, {
        "acme/o9-high": {"name": "o9 (High)", "release": "acme/o9", "organization": "Acme"},
        "acme/o9-low": {"name": "o9 (low)", "release": "acme/o9", "organization": "Acme"},
    })
    assert _style_problems(root) == [
        "scores/models/acme/o9-high.yaml:2:7: name: 'o9 (High)' spells the effort 'High' "
        "(write (high): effort words are lower-case)"]


def test_one_release_one_product_spelling(tmp_path):
    root = _tree(tmp_path, {
        "acme/widget-4-low": {"name": "Widget 4 (low)", "release": "acme/widget-4", "organization": "Acme"},
        "acme/widget-4-high": {"name": "Widget 4 (high)", "release": "acme/widget-4", "organization": "Acme"},
        "acme/widget-4-thinking": {"name": "Widget 4 Thinking", "release": "acme/widget-4", "organization": "Acme"},
        "acme/widget-4-none": {"name": "widget 4 (Non-reasoning)", "release": "acme/widget-4", "organization": "Acme"},
        # another release may spell its product as it likes
        "acme/gadget": {"name": "gadget", "release": "acme/gadget", "organization": "Acme"},
    })
    assert _style_problems(root) == [
        "scores/models/acme/widget-4-none.yaml:2:7: name: 'widget 4' differs from 'Widget 4', the product name of "
        "3 other configurations of acme/widget-4 (one release, one spelling: the vendor's (keep the old spelling as "
        "an alias if a source uses it))"]


def test_a_tie_in_spellings_is_reported_once_at_the_later_spelling(tmp_path):
    root = _tree(tmp_path, {
        "acme/a-low": {"name": "Widget-4 (low)", "release": "acme/a", "organization": "Acme"},
        "acme/a-high": {"name": "Widget 4 (high)", "release": "acme/a", "organization": "Acme"},
    })
    assert _style_problems(root) == [
        "scores/models/acme/a-low.yaml:2:7: name: 'Widget-4' differs from 'Widget 4', the product name of 1 other "
        "configuration of acme/a (one release, one spelling: the vendor's (keep the old spelling as an alias if a "
        "source uses it))"]


def test_two_models_with_one_name(tmp_path):
    root = _tree(tmp_path, {
        "e-pang/grok-4-refine": {"name": "Grok 4 (Refine.)", "release": "e-pang/grok-4-refine", "organization": "E"},
        "j-berman/grok-4-refine": {"name": "grok 4  (refine.)", "release": "j-berman/grok-4-refine",
                                   "organization": "J"},
    })
    assert _style_problems(root) == [
        "scores/models/j-berman/grok-4-refine.yaml:2:7: name: 'grok 4  (refine.)' is also the name of "
        "e-pang/grok-4-refine (two models need names a reader can tell apart (add who built it or what differs))"]


def test_every_model_file_follows_the_style():
    """The repository's own names: every model file is in style (validate reports these as errors)."""
    repo, _ = load.load_repo(REPO)
    assert len(repo.models) > 800
    assert [p.format() for p in checks.names_follow_style(checks.Index(repo))] == []
