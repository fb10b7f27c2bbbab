"""What keeps a long board under its page budget without losing what a reader can find: the interval note most
rows share said once, the filter's aliases without what the row already holds, rank ranges as text."""

from __future__ import annotations

from sitegen.site.views import _aka, _rank_range, search_words, shared_interval_note

COMMON = "derived: simulated from component intervals: {}; imputed parts widened by their rule's leave-one-out error"


def rows(*notes):
    return [{"interval": [1.0, 2.0] if n is not None else None, "interval_note": n or ""} for n in notes]


def test_the_note_most_rows_share_is_said_once_and_rows_keep_only_what_they_add():
    table = rows(*[COMMON.format("3 derived")] * 6, *[COMMON.format("4 derived, 1 published")] * 5,
                 "derived: simulated from component intervals: 3 derived; none to be had for arc-agi-2 (held fixed); "
                 "imputed parts widened by their rule's leave-one-out error",
                 "published", None)
    legend = shared_interval_note(table)
    # 11 rows share one kind once counts are set aside (3 derived / 4 derived, 1 published): said once, as a legend
    assert legend == "simulated from component intervals; imputed parts widened by their rule's leave-one-out error"
    assert [r["interval_note"] for r in table] == [""] * 11 + ["none to be had for arc-agi-2 (held fixed)",
                                                              "published", ""]


def test_fewer_than_ten_rows_sharing_a_note_keep_their_own():
    table = rows(*[COMMON.format("3 derived")] * 9)
    assert shared_interval_note(table) == ""
    assert all(r["interval_note"] == COMMON.format("3 derived") for r in table)


def test_a_published_interval_legend_says_so():
    assert shared_interval_note(rows(*["published"] * 10)) == "as the source publishes it"


def test_aliases_the_row_already_holds_as_a_phrase_are_left_out():
    assert search_words("DeepSeek-V3 (Mar '25)") == "deepseek v3 mar '25"
    # the id's words hold "deepseek v3 0324"; the Hugging Face name and the -fp8 variant add words; web addresses go
    assert _aka("DeepSeek V3 0324", "DeepSeek", "deepseek/deepseek-v3-0324",
                ("", "deepseek-v3-0324", "deepseek-ai/DeepSeek-V3-0324", "deepseek-v3-0324-fp8",
                 "https://huggingface.co/deepseek-ai/DeepSeek-V3-0324")) == \
        "deepseek-ai/deepseek-v3-0324 deepseek-v3-0324-fp8"
    # a phrase must start a word: "seek v3" is inside "deepseek v3" but not a word of it, so it stays
    assert _aka("DeepSeek V3", "DeepSeek", "deepseek/deepseek-v3", ("seek-v3",)) == "seek-v3"


def test_rank_ranges():
    assert (_rank_range([3, 7]), _rank_range([1, 1]), _rank_range(None), _rank_range([2, None])) == ("3–7", "1", "", "")
