"""A deterministic SiteContext for tests and benchmarks: n models, hostile names included."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import yaml

from sitegen.indices import uncertainty as u
from sitegen.site.context import Presentation, SiteContext

#: This repository's site configuration: the fixture's boards carry the real ids, so they are placed alike.
PRESENTATION = Presentation.from_data(yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "methodology" / "site.yaml").read_text(encoding="utf-8")))
HOSTILE_SCRIPT = "</script><script>alert(1)</script>"
HOSTILE_IMG = '<img src=x onerror=alert(1)>'
ORGS = ["OpenAI", "Anthropic", "Google", "Meta", "Mistral", "DeepSeek", "Alibaba", HOSTILE_IMG]
BENCHMARKS = [
    ("mmlu-pro", "MMLU-Pro", "knowledge"),
    ("hle", "Humanity's Last Exam", "knowledge"),
    ("gpqa-diamond", "GPQA Diamond", "science"),
    ("aime-2025", "AIME 2025", "mathematics"),
    ("ifbench", "IFBench", "instruction-following"),
    ("scicode", "SciCode", "coding"),
    ("livecodebench", "LiveCodeBench", "coding"),
    ("aa-lcr", "AA-LCR", "long-context"),
]
SOURCES = [
    {"id": "aa-api-2026-07", "name": "Artificial Analysis API (2026-07)", "url": "https://artificialanalysis.ai/",
     "licence": "CC BY 4.0", "attribution": "Artificial Analysis", "provenance": "third-party"},
    {"id": "lab-claims", "name": "Model cards", "url": "javascript:alert(1)", "licence": "various",
     "attribution": "Each lab", "provenance": "self-reported", "licence_flag": "check each card"},
    {"id": "pedagogy-lb", "name": "Pedagogy leaderboard", "url": "https://github.com/AI-for-Education/pedagogy-benchmark",
     "licence": "MIT", "attribution": "AI-for-Education", "provenance": "third-party"},
]
INDEX_NAMES = {
    "aa-intelligence-v2-2": ("Artificial Analysis Intelligence Index v2.2", "aa", 8),
    "aa-intelligence-v3-0": ("Artificial Analysis Intelligence Index v3.0", "aa", 8),
    "aa-math-v2-2": ("AA Math Index v2.2", "aa", 2),
    "aa-coding-v2-2": ("AA Coding Index v2.2", "aa", 2),
    "aa-coding-v3-0": ("AA Coding Index v3.0", "aa", 2),
    "ai-iq": ("AI IQ", "iq", 4),
    "ai-eq": ("AI EQ", "iq", 2),
    "pedagogy-cdpk": ("Pedagogy: CDPK", "pedagogy", 1),
    "pedagogy-send": ("Pedagogy: SEND", "pedagogy", 1),
    "hle": ("Humanity's Last Exam", "hle", 1),
    "hle-calibration": ("Humanity's Last Exam — RMS calibration error", "hle", 1),
}


def make_models(n: int, rng: random.Random) -> list[dict]:
    models = []
    for i in range(n):
        org = ORGS[i % len(ORGS)]
        slug = org.lower().replace(" ", "-") if org != HOSTILE_IMG else "evil"
        name = f"Model {i:05d}"
        if i == 3:
            name = HOSTILE_SCRIPT
        if i == 5:
            name = HOSTILE_IMG
        total = round(rng.choice([1, 3, 8, 14, 32, 70, 120, 405, 671]) * 1.0, 1) if i % 4 else None
        models.append({
            "id": f"{slug}/model-{i:05d}",
            "name": name,
            "release": f"{slug}/model-{i:05d}",
            "organization": org,
            "released": f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}",
            "weights": "open" if i % 3 == 0 else "closed",
            # every fourth of ten: the vendor does not state the mode; every sixth: nobody has entered it
            "reasoning": None if i % 10 in (4, 6) else bool(i % 2),
            "reasoning_state": {4: "not stated", 6: "not known"}.get(i % 10, "yes" if i % 2 else "no"),
            "parameters": {"total_b": total, "active_b": (round(total / 4, 1) if total else None)},
            "pricing": {"input_per_mtok": round(0.1 + (i % 17) * 0.37, 2), "output_per_mtok": round(0.4 + (i % 13) * 1.1, 2),
                        "as_of": "2026-07-01", "source": "aa-api-2026-07"} if i % 7 else
                       {"input_per_mtok": None, "output_per_mtok": None, "as_of": None, "source": None},
            "family": f"family-{i % 5}",
            "context_window": 128000 if i % 2 else None,
            "licence": "apache-2.0" if i % 3 == 0 else None,
            "aliases": [],
            "results": [],
        })
    return models


def make_context(n: int = 40, seed: int = 7) -> SiteContext:
    rng = random.Random(seed)
    models = make_models(n, rng)
    skill = {m["id"]: rng.uniform(0.1, 0.95) for m in models}
    bench_boards = {}
    for bid, bname, _ in BENCHMARKS:
        rows = []
        for j, m in enumerate(models):
            if (j + len(bid)) % 5 == 0:
                continue
            v = round(min(99.0, max(1.0, 100 * skill[m["id"]] + rng.uniform(-8, 8))), 1)
            src = "lab-claims" if j % 6 == 0 else "aa-api-2026-07"
            url = "javascript:alert(1)" if j == 3 else f"https://example.org/{bid}/{j}"
            res = {"benchmark": bid, "value": v, "metric": "", "subset": "", "harness": "lm-eval" if j % 2 else "",
                   "source": src, "retrieved": "2026-07-02", "url": url, "stderr": 1.2 if j % 3 == 0 else None,
                   "ci95": None, "notes": None, "self_reported": src == "lab-claims"}
            m["results"].append(res)
            if bid == "hle":
                m["results"].append({**res, "metric": "calibration-error", "value": round(rng.uniform(20, 90), 1)})
            rows.append({"model": m["id"], "value": v, "rank": None, "how": "observed", "source": src,
                         "retrieved": "2026-07-02", "url": url, "stderr": res["stderr"],
                         "ci_low": None, "ci_high": None, "harness": res["harness"], "self_reported": src == "lab-claims"})
        rows.sort(key=lambda r: (-r["value"], r["model"]))
        for k, r in enumerate(rows):
            r["rank"] = k + 1
        bench_boards[bid] = {"benchmark": bid, "name": bname, "rows": rows}

    boards = {}
    for iid, (iname, kind, of) in INDEX_NAMES.items():
        rows = []
        for j, m in enumerate(models):
            if (j + len(iid)) % 9 == 0:
                continue
            comps = []
            for ci, (bid, _bn, _c) in enumerate(BENCHMARKS[:of]):
                how = "observed"
                reason = None
                if (j + ci) % 7 == 0:
                    how, reason = "imputed", f"{HOSTILE_SCRIPT} regression from {BENCHMARKS[(ci + 1) % 8][1]}"
                if (j + ci) % 11 == 0:
                    how, reason = "missing", "no result in snapshot"
                val = None if how == "missing" else round(100 * skill[m["id"]] + rng.uniform(-5, 5), 1)
                comps.append({"id": bid, "kind": "benchmark", "value": val, "raw": val, "how": how, "reason": reason,
                              "source": "aa-api-2026-07" if how == "observed" else None, "retrieved": "2026-07-02"})
            have = sum(c["how"] != "missing" for c in comps)
            value = round((60 + 90 * skill[m["id"]]) if kind == "iq" else 100 * skill[m["id"]], 1)
            status = "ranked" if have == of else ("provisional" if have >= of / 2 else "unranked")
            row = {"model": m["id"], "value": value if status != "unranked" else None, "rank": None, "status": status,
                   "coverage": {"have": have, "of": of}, "components": comps}
            if kind == "iq":
                row["interval"] = [round(value - 3.5, 1), round(value + 3.5, 1)]
                row["interval_measurement"] = [round(value - 1.5, 1), round(value + 1.5, 1)]  # measurement alone
                # what indices/uncertainty.py writes: the method and its reason, the imputed share, and on the
                # first component its own interval (the rest have none, with the reason)
                row.update(interval_how="derived", interval_reason="simulated from component intervals: 1 derived",
                           imputed_share=sum(c["how"] == "imputed" for c in comps) / of)
                for k, c in enumerate(comps):
                    if c["value"] is not None:
                        c.update(interval=[round(c["value"] - 2.0, 1), round(c["value"] + 2.0, 1)],
                                 interval_how="published") if k == 0 else c.update(
                            interval=None, interval_how=None, interval_reason="no question count is known")
            if j == 1 and iid == "ai-iq":
                row["manual"] = {"value": 101.0, "source": "https://example.org/manual-iq"}
            rows.append(row)
        ranked = sorted((r for r in rows if r["value"] is not None), key=lambda r: (-r["value"], r["model"]))
        for k, r in enumerate(ranked):
            r["rank"] = k + 1
            if kind == "iq":  # rank ranges of +-2 and tiers of five rows, as annotate() would write them
                r.update(rank_interval=[max(1, k - 1), min(len(ranked), k + 3)], tier=1 + k // 5)
        boards[iid] = {"index": iid, "name": iname, "version": iid.rsplit("-v", 1)[-1] if "-v" in iid else "1",
                       "kind": kind, "unit": "IQ" if kind == "iq" else "points",
                       "description": f"{iname}: computed from {of} components. <b>not bold</b>",
                       "source_snapshot": "aa-api-2026-07", "rows": rows, "definition": iid,
                       # the level annotate() writes with the rows' intervals (tests/site/test_interval_level.py)
                       **({"uncertainty": {"simulations": 1000, "level": 0.95}} if kind == "iq" else {})}
    # what uncertainty.imputation_calibration writes: one rule x component with an estimate, one without
    boards["ai-iq"]["imputation_calibration"] = [
        {"rule": "benchmark", "component": BENCHMARKS[0][0], "dimension": "knowledge", "cases": 40, "bias": -3.25,
         "se": 0.5, "sd": 3.2, "seen": [80.0, 130.0], "fitted": [90.0, 125.0], "span": [70.0, 130.0],
         "coverage_cases": 40, "coverage": 0.95, "coverage_by_tercile": [1.0, 0.9, None], "imputes": 12},
        {"rule": "family", "component": BENCHMARKS[0][0], "dimension": "knowledge", "cases": 1, "bias": -7.0, "se": None,
         "sd": None, "seen": [100.0, 100.0], "fitted": [93.0, 93.0], "span": [70.0, 130.0], "coverage_cases": 0,
         "coverage": None, "coverage_by_tercile": [None, None, None], "imputes": 2,
         "reason": "1 held-out case(s): too few to estimate the rule's error"}]
    iq_ranked = sorted((r for r in boards["ai-iq"]["rows"] if r["rank"] is not None), key=lambda r: r["rank"])
    # what uncertainty.annotate(pairs=True) writes (build.compute moves it to ctx.ahead): each AI IQ row's rank in
    # each of 1,000 draws. The first three rows' values move: in 600 draws they are 99, 98, 97 (in rank order), in
    # 50 draws 97, 98, 97, in 50 draws 96, 98, 97 and in 300 draws 96, 96.5, 97; the others' stay below. So the 1st
    # is ahead of the 3rd in 600 draws, behind in 350 and tied in 50; the 2nd is ahead of the 3rd in 700 and
    # behind in 300; every pair with a row from the 4th on is settled in rank order.
    top = np.repeat([[99, 98, 97], [97, 98, 97], [96, 98, 97], [96, 96.5, 97]], [600, 50, 50, 300], axis=0)
    rest = np.tile(95.0 - np.arange(len(iq_ranked) - 3), (1000, 1))
    ahead = {"ai-iq": {"simulations": 1000, "models": [r["model"] for r in iq_ranked],
                       "ranks": [r["rank"] for r in iq_ranked],
                       "draws": u.rank_draws(u.competition_ranks(np.hstack([top, rest])))}}
    cost_rows = []
    for j, m in enumerate(models):
        if j % 7 == 0:
            continue
        eff = round(0.05 + (j % 23) * 0.9 * (1 + skill[m["id"]]), 3)
        # the engine's cost components (indices/cost.py): token-cost, aa-suite-tokens, token-efficiency, aa-response-time
        comps = [
            {"id": "token-cost", "kind": "dimension", "value": round(eff * 0.6, 3), "raw": None, "how": "derived",
             "reason": "2 × input + 1 × output per 1M tokens", "source": "aa-api-2026-07", "retrieved": "2026-07-02"},
            {"id": "aa-suite-tokens", "kind": "benchmark", "value": round(40 + 80 * skill[m["id"]], 1), "raw": None,
             "how": "observed", "source": "aa-api-2026-07", "retrieved": "2026-07-02"},
            {"id": "token-efficiency", "kind": "dimension", "value": round(0.5 + skill[m["id"]], 3), "raw": None, "how": "derived",
             "reason": "tokens ÷ median", "source": None, "retrieved": None},
            {"id": "aa-response-time", "kind": "benchmark", "value": round(1.5 + (j % 19) * 2.3, 2), "raw": None,
             "how": "observed", "source": "aa-api-2026-07", "retrieved": "2026-07-02"},
        ]
        cost_rows.append({"model": m["id"], "value": eff, "rank": None, "status": "ranked",
                          "coverage": {"have": 4, "of": 4}, "components": comps})
    cost_rows.sort(key=lambda r: (r["value"], r["model"]))
    for k, r in enumerate(cost_rows):
        r["rank"] = k + 1
    boards["cost"] = {"index": "cost", "name": "Cost and speed", "version": "1", "kind": "cost", "unit": "USD",
                      "description": "Effective cost per task and response time.", "source_snapshot": "aa-tokens-2026-07",
                      "rows": cost_rows, "higher_is_better": False, "definition": "cost"}

    benchmarks = [{"id": b, "name": n, "category": c, "scale": {"min": 0, "max": 100, "unit": "percent"},
                   "higher_is_better": True, "url": f"https://example.org/{b}" if b != "ifbench" else "javascript:alert(1)",
                   "description": f"Description of {n}."} for b, n, c in BENCHMARKS]
    # the real ai-iq.yaml shape: dimensions -> benchmarks with anchors and (for compressed ones) the original ceiling
    dims = [{"id": "knowledge", "name": "Academic reasoning", "imputable": True, "benchmarks": [
                {"benchmark": b, "tier": "compressed" if i % 2 else "hard", "ceiling": 130 + i,
                 **({"ceiling_original": 145 + i} if i % 2 else {}),
                 "anchors": [[0, 70], [25, 85], [50, 100], [75, 118], [100, 130 + i]]}
                for i, (b, _n, _c) in enumerate(BENCHMARKS[:4])]}]
    index_defs = {
        "ai-iq": {"id": "ai-iq", "kind": "ai-iq", "name": "AI IQ", "version": "1.0", "dimensions": dims,
                  "compression": {"pivot": 100}, "uncertainty": {"simulations": 1000, "level": 0.95}},
        "aa-intelligence-v3-0": {"id": "aa-intelligence-v3-0", "name": "AA Intelligence v3.0",
                                 "components": [{"benchmark": b, "weight": 0.125} for b, _n, _c in BENCHMARKS]},
        "cost": {"id": "cost", "kind": "cost", "response_time": {"benchmark": "aa-response-time"}},
    }
    cdpk = {r["model"]: r["value"] for r in boards["pedagogy-cdpk"]["rows"] if r["value"] is not None}
    pts = sorted((m["pricing"]["input_per_mtok"], cdpk[m["id"]], m["id"]) for m in models
                 if m["id"] in cdpk and m["pricing"]["input_per_mtok"])
    front, best = [], -1.0
    for x, y, mid in pts:
        if y > best:
            front.append(mid)
            best = y
    hull = [[x, y] for x, y, mid in pts if mid in front]
    # build.compute pops each pedagogy board's frontiers into ctx.frontiers[board id]; x is log10, x_raw the price
    import math
    points = [{"model": mid, "x": math.log10(x), "x_raw": x, "y": y} for x, y, mid in pts]
    frontiers = {"pedagogy-cdpk": {
        "value": {"axes": [["x", "log10 input price"], ["y", "accuracy (%)"]], "points": points,
                  "excluded": [{"model": models[0]["id"], "reason": "no input price"}], "frontier": front,
                  "hull": [[math.log10(x), y] for x, y in hull],
                  "by_month": {"2025-06": front[: max(1, len(front) // 2)], "2026-01": front},
                  "hull_by_month": {"2025-06": [[math.log10(x), y] for x, y in hull[: max(1, len(front) // 2)]],
                                    "2026-01": [[math.log10(x), y] for x, y in hull]},
                  "by_month_excluded": []},
        "size": {"axes": [["x", "log10 total parameters"], ["y", "accuracy (%)"]],
                 "points": [{"model": m["id"], "x": math.log10(m["parameters"]["total_b"]), "x_raw": m["parameters"]["total_b"],
                             "y": cdpk[m["id"]]} for m in models if m["id"] in cdpk and m["parameters"]["total_b"]],
                 "excluded": [], "frontier": front[:3], "hull": [[math.log10(x), y] for x, y in hull[:3]]},
    }}
    boards["pedagogy-cdpk"]["references"] = [{"id": "human-baseline", "value": 50.0, "how": "published", "estimate": True,
                                              "label": "Estimated human baseline", "note": "An estimate.", "source": "pedagogy-lb"}]
    methodology_pages = {
        "ai-iq.md": "# AI IQ\n\nHow we compute **AI IQ**. <script>alert(1)</script>\n\n"
                    "| a | b |\n|---|---|\n| 1 | 2 |\n\n[bad](javascript:alert(1)) [good](https://example.org/x)\n",
        "index.md": "# Methodology\n\nOverview of the indices.\n",
        # boards with tiers and the compare page link it
        "uncertainty.md": "# Uncertainty: intervals, rank ranges and tiers\n\nHow intervals are had.\n",
    }
    api_files = {"api/v1/boards/ai-iq.json": '{"index": "ai-iq"}\n', "api/v1/models.csv": "id,name\n"}
    return SiteContext(boards=boards, benchmark_boards=bench_boards, models=models, benchmarks=benchmarks,
                       sources=SOURCES, index_defs=index_defs, methodology_pages=methodology_pages,
                       frontiers=frontiers, data_date="2026-07-15", api_files=api_files,
                       repo_url="https://github.com/example/leaderboards",
                       history=make_history([m["id"] for m in models]), citation=CITATION, ahead=ahead,
                       presentation=PRESENTATION)


CITATION = {
    "cff-version": "1.2.0", "message": "If you use this, cite it as below.", "type": "software",
    "title": "sitegen: a static-site generator", "version": "0.1.0", "license": "MIT",
    "date-released": "2026-07-01", "doi": "10.5281/zenodo.1234567",
    "authors": [{"given-names": "Ada", "family-names": "Lovelace"}, {"name": f"Org {HOSTILE_IMG}"}],
}


def history_entry(n: int, date: str, subject: str, release=None, **changes) -> dict:
    """One summary_entries item (the shape history.summary_entries returns)."""
    entry = {"commit": f"{n:040x}", "date": date, "subject": subject, "root": False, "shallow": False,
             "models_added": [], "models_removed": [], "models_changed": [], "imported": [], "methodology": [],
             "files": [], "release": release}
    entry.update(changes)
    return entry


def make_history(model_ids: list[str]) -> list[dict]:
    """Four commits newest first: one unreleased, two in data-2026-07 (one hostile), one in data-2026-01."""
    july = {"tag": "data-2026-07", "date": "2026-07-10T12:00:00Z", "commit": f"{3:040x}", "subject": "July data"}
    january = {"tag": "data-2026-01", "date": "2026-01-31T00:00:00Z", "commit": f"{1:040x}", "subject": ""}
    return [
        history_entry(4, "2026-07-14T08:00:00Z", "Remove a model", models_removed=["gone/removed-model"],
                      files=[{"file": "scores/overrides.yaml", "status": "changed"}]),
        history_entry(3, "2026-07-09T23:30:00Z", f"Re-import AA {HOSTILE_SCRIPT}", july,
                      imported=[{"source": "aa-api-2026-07", "status": "changed"}],
                      methodology=[{"file": "methodology/indices/ai-iq.yaml", "status": "changed", "index": "ai-iq"},
                                   {"file": "methodology/indices/retired.yaml", "status": "deleted", "index": "retired"},
                                   {"file": "methodology/ai-iq.md", "status": "changed", "index": None}]),
        history_entry(2, "2026-07-01T10:00:00Z", "Update model files", july, models_changed=model_ids[:20]),
        history_entry(1, "2026-01-02T10:00:00Z", "Base data", january, root=True, models_added=model_ids),
    ]
