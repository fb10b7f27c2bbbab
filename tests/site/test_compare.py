"""The compare page's data: a benchmark run on several question sets has a labelled row for each, and every number
arrives with the text the site's one formatter wrote."""

from __future__ import annotations

from fixtures import make_context

from sitegen.site.assembly import _compare_data
from sitegen.site.pages import Urls
from sitegen.site.views import Lookups


def test_each_question_set_of_a_benchmark_is_its_own_labelled_row():
    ctx = make_context(6)
    a, b = sorted(m["id"] for m in ctx.models)[:2]
    hle = ctx.benchmark_boards["hle"]
    hle["question_set"] = "Full set: the paper's 2,500 questions"
    # the second model is on Artificial Analysis' set only (as GPT-5.5 (high) is, which feeds its AI IQ)
    hle["rows"] = [r for r in hle["rows"] if r["model"] != b]
    hle["other_question_sets"] = [{"subset": "aa-2684", "label": "Artificial Analysis' set: 2,684 questions",
                                   "rows": [{"model": b, "value": 43.05, "rank": 1, "source": "aa-api-2026-07",
                                             "retrieved": "2026-07-02"}]}]
    data = _compare_data(ctx, Lookups(ctx, Urls(ctx)), Urls(ctx))
    ids = [x[0] for x in data["benchmarks"]]
    assert ids.count("hle") == 1 and "hle/aa-2684" in ids
    full, aa = data["benchmarks"][ids.index("hle")], data["benchmarks"][ids.index("hle/aa-2684")]
    assert (full[1], full[3]) == ("Humanity's Last Exam", "Full set: the paper's 2,500 questions")
    assert (aa[1], aa[3]) == ("Humanity's Last Exam", "Artificial Analysis' set: 2,684 questions")
    m = [x[0] for x in data["models"]]
    # [number, text]: percent with the benchmark's one decimal, half up: 43.05 -> 43.1%
    # columns are sparse, by model number: the model without a value on this set has no entry
    assert aa[2][m.index(b)] == [43.05, "43.1%"] and m.index(a) not in aa[2]
    source, retrieved, link = aa[5][m.index(b)]
    assert data["sources"][source] and retrieved == "2026-07-02" and data["links"][link].startswith("http")
    assert m.index(a) not in aa[5]
    # a benchmark on one set has no label
    assert data["benchmarks"][ids.index("gpqa-diamond")][3] is None


def test_prices_and_parameters_arrive_as_the_model_pages_texts():
    ctx = make_context(6)
    model = sorted(ctx.models, key=lambda m: m["id"])[0]
    model["pricing"]["input_per_mtok"] = 0.075
    model["pricing"]["output_per_mtok"] = 1.125
    data = _compare_data(ctx, Lookups(ctx, Urls(ctx)), Urls(ctx))
    assert data["models"][0][4:6] == [[0.075, "$0.075"], [1.125, "$1.13"]]
