"""Artificial Analysis providers-page scrape (v2.2 era, Aug 2025): one row per provider endpoint, whole percent.

The page appends endpoint tags to model names ('Claude 4 Opus Vertex'); they are removed (`model_name`).

Evals and the index are per model (identical on every endpoint row); prices and the total response time are
per endpoint, and we keep the model creator's own endpoint. Columns without a benchmark id here (AIME 2024,
MATH-500, HumanEval, Chatbot Arena) are not imported.

Metadata: the License column is "Proprietary" (closed weights, kept as the licence) or "Open" (open weights; a
category, not a licence name, so no licence is recorded). The context window is the creator's own endpoint's
(other hosts serve shorter windows), as the page shows it: in thousands ('131k' -> 131000) or millions ('1m').
A name's "(Reasoning)", "(Non-reasoning)" or effort says whether the configuration reasons.
"""

from __future__ import annotations

import re
from pathlib import Path

from .aa_api import SUBSETS, reasoning_from_name
from .extracts import Context, Extract, ImportError_, files_entry, number, pricing, read_dated_csv

SOURCES = ("aa-leaderboard-2025-08",)
URL = "https://artificialanalysis.ai/leaderboards/providers"

EVALS = {
    "Artificial Analysis Intelligence Index": "aa-intelligence-index",
    "MMLU-Pro (Reasoning & Knowledge)": "mmlu-pro",
    "GPQA Diamond (Scientific Reasoning)": "gpqa-diamond",
    "Humanity's Last Exam (Reasoning & Knowledge)": "hle",
    "LiveCodeBench (Coding)": "livecodebench",
    "SciCode (Coding)": "scicode",
    "IFBench (Instruction Following)": "ifbench",
    "AIME 2025 (Competition Math)": "aime-2025",
    "AA-LCR (Long Context Reasoning)": "aa-lcr",
}

# API provider -> the organisation slug (first part of a model id) whose own endpoint it is, best first.
CREATOR_ENDPOINTS = {
    "OpenAI": "openai",
    "Anthropic": "anthropic",
    "Google (AI Studio)": "google",
    "Google (AI_Studio)": "google",
    "Google": "google",
    "Google Vertex": "google",
    "Google (Vertex)": "google",
    "Mistral": "mistral",
    "Cohere": "cohere",
    "xAI": "xai",
    "DeepSeek": "deepseek",
    "MiniMax": "minimax",
    "AI21 Labs": "ai21-labs",
    "Reka AI": "reka-ai",
    "Upstage": "upstage",
    "Perplexity": "perplexity",
    "Amazon Bedrock": "amazon",
    "Microsoft Azure": "microsoft",
}
PREFERENCE = list(CREATOR_ENDPOINTS)
TRAILING = re.compile(r"\s+(\([^()]*\)|Latency Optimized|[^\s()]+)$")


def words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", text.casefold()) if w}


def model_name(model: str, provider: str) -> str:
    """The model without the endpoint tag the page appends ('Llama 3.3 70B (Turbo, FP8)' on 'Together.ai
    (Turbo, FP8)', 'Gemini 2.5 Pro Vertex' on 'Google Vertex'): trailing parts made only of provider words."""
    name, known = " ".join(model.split()), words(provider)
    while (m := TRAILING.search(name)) and words(m.group(1)) and words(m.group(1)) <= known:
        name = name[: m.start()]
    return name


def context_window(text: str | None) -> int | None:
    """'131k' -> 131000, '1m' -> 1000000, '' -> None: the page's figure, in its rounding."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([km])\s*", (text or "").lower())
    if not m:
        return None
    return number(m.group(1), {"k": 1000, "m": 1000000}[m.group(2)])


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    path, retrieved, rows = read_dated_csv(paths, retrieved, source, "scrape CSV")
    missing = [c for c in list(EVALS) + ["Model", "API Provider", "Total Response (s)"] if c not in rows[0]]
    if missing:
        raise ImportError_(f"{path.name}: missing columns {missing}")
    ex = Extract(source, retrieved, files_entry([path]))
    by_model: dict[str, list[dict]] = {}
    for row in rows:
        by_model.setdefault(model_name(row["Model"], row["API Provider"]), []).append(row)
    for name, group in sorted(by_model.items()):
        evals = {tuple(r[c] for c in EVALS) for r in group}
        if len(evals) > 1:
            raise ImportError_(f"{path.name}: {name!r} has different eval values on different endpoints")
        first = group[0]
        for column, bench in EVALS.items():
            ex.result(name, bench, number(first[column]), subset=SUBSETS.get(bench))
        licence = first["License"].strip()
        fields = {
            "licence": licence if licence == "Proprietary" else None,
            "weights": ("closed" if licence == "Proprietary" else "open") if licence else None,
            "reasoning": reasoning_from_name(name),
        }
        mid = ctx.resolve(name)
        own = [r for r in group if mid and CREATOR_ENDPOINTS.get(r["API Provider"].strip()) == mid.split("/")[0]]
        own.sort(key=lambda r: PREFERENCE.index(r["API Provider"].strip()))
        if own:
            endpoint = own[0]
            fields["pricing"] = pricing(
                number(endpoint["Input Price USD/1M Tokens"]), number(endpoint["Output Price USD/1M Tokens"]), retrieved
            )
            fields["context_window"] = context_window(endpoint.get("Context Window"))
            # the page rounds to thousands ('131k' for 131,072): the figure is approximate
            fields["context_window_approximate"] = True if fields["context_window"] is not None else None
            ex.result(
                name,
                "aa-response-time",
                number(endpoint["Total Response (s)"]),
                notes=f"{endpoint['API Provider'].strip()} endpoint ({endpoint['Model'].strip()})",
            )
        ex.model(name, **fields)
    return ex
