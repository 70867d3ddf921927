"""A point's claim said of another name the bank writes: the point is contradicted.

Q121's fourth point credits the cross-encoder denoising to RocketQA, Q94's third
HyDE to Gao et al. 2022. An answer that says the point's words and gives them to
ColBERT or to Lewis et al. (names the bank writes elsewhere, not in these questions)
has one confident error: the point is ⚠ with that clause as evidence. The right
source, a source turned down, and a name cited beside the claim with no word of
where it comes from ("论文里也…", "和 … 一样") leave the point covered.
"""

from __future__ import annotations

import pytest

from studybot.learn.marks import CONTRADICTED, COVERED

DENOISE = (
    "难负样本里的假负例可以这样处理：跳过排名最前的十来名再采样；"
    "另外让 cross-encoder 给候选打分、把高分的滤掉，"
)
HYDE = (
    "先让 LLM 针对问题写一段假想的答案文档，再拿这段文档的向量去检索，"
    "把问题和文档的匹配变成文档和文档的匹配。"
)


def _point(grader, shipped, question, point, text):
    return grader.grade(shipped.get(question), text).points[point - 1]


@pytest.mark.parametrize(
    "question, point, text, evidence, key",
    [
        (
            121,
            4,
            DENOISE + "这个去噪办法是 ColBERT 提出的。",
            "这个去噪办法是 ColBERT 提出的",
            "RocketQA",
        ),
        (94, 3, "HyDE 是 Lewis 等人 2020 年提出的：" + HYDE, "Lewis 等人 2020 年提出的", "Gao"),
    ],
)
def test_another_name_as_the_source_contradicts_the_point(
    grader, shipped, question, point, text, evidence, key
):
    seen = _point(grader, shipped, question, point, text)
    assert seen.state == CONTRADICTED
    assert evidence in seen.evidence
    assert key in seen.key  # the point's own source is shown beside it


@pytest.mark.parametrize(
    "question, point, text",
    [
        (121, 4, DENOISE + "这个去噪办法是 RocketQA 提出的。"),  # the right source
        (121, 4, DENOISE + "这个去噪办法并不是 ColBERT 提出的。"),  # turned down
        (121, 4, DENOISE + "ColBERT 论文里也拿这种打分做过对比。"),  # cited, no origin word
        (94, 3, "HyDE 是 Gao 等人 2022 年提出的：" + HYDE),
        (94, 3, "HyDE 并非 Lewis 等人提出的：" + HYDE),
        (94, 3, "和 Lewis 等人的 RAG 论文一样要先检索；HyDE " + HYDE),
    ],
)
def test_the_right_source_a_denied_one_or_one_cited_beside_it_is_no_error(
    grader, shipped, question, point, text
):
    assert _point(grader, shipped, question, point, text).state == COVERED
