"""Shapes a corpus of real public question files brought (issue 34).

Each file here is written for the test, in the shape those files had:
MkDocs question boxes, metadata lines over every answer, pointers to the
answer after a question, a bracket that ends a question, a popularity mark
after a heading.
"""

from __future__ import annotations

import json

from imported import questions, read


def test_mkdocs_question_boxes_are_questions_with_their_indented_answers(tmp_path):
    report = read(
        tmp_path,
        "# Normalisation\n\n"
        '!!! tip "How to use this page"\n'
        "    Read each box, answer aloud, then open it.\n\n"
        '??? question "Why does a deep network need normalisation at all?"\n'
        "    Activations drift in scale from layer to layer, so the step size that suits one\n"
        "    layer is wrong for the next.\n\n"
        "    1. It keeps gradients in a usable range.\n"
        "    2. It lets a larger learning rate work.\n\n"
        '???+ faq "Pre-norm or post-norm"\n'
        "    Pre-norm trains more stably in deep stacks; post-norm can reach a higher ceiling.\n\n"
        "Which norm does LLaMA use?\n\n"
        '??? success "Show Answer"\n'
        "    RMSNorm, before attention and before the MLP.\n",
    )
    assert questions(report) == [
        "Why does a deep network need normalisation at all?",
        "Pre-norm or post-norm",
        "Which norm does LLaMA use?",
    ]
    first, second, third = report.bank.questions
    assert first.reference.startswith("Activations drift in scale")
    assert "2. It lets a larger learning rate work." in first.reference
    assert second.reference.startswith("Pre-norm trains more stably")
    assert third.reference == "RMSNorm, before attention and before the MLP."
    assert not report.lost
    assert "How to use this page" not in "".join(questions(report))  # a tip box is no question


def test_a_file_of_mkdocs_boxes_is_no_longer_refused(tmp_path, invoke):
    path = tmp_path / "metrics.md"
    path.write_text(
        "# Métricas\n\n"
        '??? question "Por que a acurácia engana com classes desbalanceadas?"\n'
        "    Porque prever sempre a classe maior já acerta quase tudo.\n\n"
        '??? question "O que mede o recall?"\n'
        "    Quantos positivos reais o modelo encontrou.\n",
        encoding="utf-8",
    )
    result = invoke("bank", "import", str(path), "--preview", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["totals"]["questions"] == 2
    assert shown["totals"]["with_reference"] == 2


def test_metadata_lines_over_an_answer_become_tags(tmp_path):
    report = read(
        tmp_path,
        "# Bank\n\n"
        "### Q: Why does retrieval help a small model?\n\n"
        "**Difficulty:** Medium  \n"
        "**Tags:** rag, retrieval\n"
        "**Question:** Your 3B model invents citations; say what retrieval changes.\n\n"
        "It grounds the answer in text the model can quote.\n\n"
        "### Q: What limits the batch size at inference?\n\n"
        "**Company**: Acme AI | **Round**: Onsite\n\n"
        "The KV cache: it grows with every sequence in the batch.\n\n"
        "### Q: How is attention scaled?\n\n"
        "**Topic:** Attention, **Level:** Easy\n"
        "By the square root of the key dimension.\n\n"
        "### Q: What does the level of a tree mean?\n\n"
        "Level: the number of edges from the root, which is not a tag.\n",
    )
    retrieval, batch, scaled, tree = report.bank.questions
    assert retrieval.tags == ("difficulty:medium", "rag", "retrieval")
    assert retrieval.reference.startswith("**Question:** Your 3B model invents citations")
    assert batch.tags == ("company:acme-ai", "round:onsite")
    assert batch.reference == "The KV cache: it grows with every sequence in the batch."
    assert scaled.tags == ("topic:attention", "level:easy")
    assert scaled.reference == "By the square root of the key dimension."
    assert tree.tags == ()
    assert tree.reference.startswith("Level: the number of edges")


def test_a_pointer_to_the_answer_after_a_question_is_dropped(tmp_path):
    report = read(
        tmp_path,
        "# 高频题索引\n\n"
        "1. Q、K、V 分别从哪里来？ → [01](../01_basics/README.md)\n"
        "2. 为什么要除以 `sqrt(d_k)`？→ [Attention](/basics/attention)\n"
        "3. KV Cache 省了什么？ → [03](../03/README.md), [05](../05/README.md)\n"
        "4. Prefill → Decode 的瓶颈各在哪？\n"
        "5. What does a reranker add? -> [RAG](rag.md)\n",
    )
    assert questions(report) == [
        "Q、K、V 分别从哪里来？",
        "为什么要除以 `sqrt(d_k)`？",
        "KV Cache 省了什么？",
        "Prefill → Decode 的瓶颈各在哪？",
        "What does a reranker add?",
    ]


def test_a_bracket_that_ends_a_question_stays_in_it(tmp_path):
    report = read(
        tmp_path,
        "## Optimisation\n\n"
        "1. What is the problem with sigmoid in backpropagation? (think of its largest slope)\n"
        "1. How do you pick hyperparameters? (grid, random, Bayesian search)\n"
        "1. 为什么指标一旦成为目标就会失效？（Goodhart's Law）\n"
        "1. What is transfer learning?\n",
        force=True,
    )
    assert questions(report) == [
        "What is the problem with sigmoid in backpropagation? (think of its largest slope)",
        "How do you pick hyperparameters? (grid, random, Bayesian search)",
        "为什么指标一旦成为目标就会失效？（Goodhart's Law）",
        "What is transfer learning?",
    ]
    assert not any(q.reference for q in report.bank.questions)


def test_a_write_ups_account_of_the_answer_in_brackets_is_still_its_answer(tmp_path):
    report = read(
        tmp_path,
        "## 二面\n\n"
        "1. 为什么用 bge 做向量检索？（说了中文效果好、能私有化部署，没答上维度怎么选）\n"
        "2. Attention 为什么要 scale？\n",
        force=True,
    )
    assert questions(report) == ["为什么用 bge 做向量检索？", "Attention 为什么要 scale？"]
    assert report.bank.questions[0].reference == "说了中文效果好、能私有化部署，没答上维度怎么选"


def test_a_popularity_mark_after_a_heading_is_no_part_of_the_question(tmp_path):
    report = read(
        tmp_path,
        "## Async\n\n"
        "### Що таке event loop? [💡21/100]\n\nЦикл, що по черзі виконує готові корутини.\n\n"
        "### Для чого gather()? [🔥47/100]\n\nЗапускає кілька корутин разом і чекає на всі.\n",
    )
    assert questions(report) == ["Що таке event loop?", "Для чого gather()?"]


def test_a_box_shown_as_code_stays_code(tmp_path):
    report = read(
        tmp_path,
        "# Writing this page\n\n"
        "### How do I add a question box?\n\n"
        "Write it like this:\n\n"
        "```markdown\n"
        '??? question "Why scale attention?"\n'
        "    So the softmax does not saturate.\n"
        "```\n",
    )
    assert questions(report) == ["How do I add a question box?"]
    assert '??? question "Why scale attention?"' in report.bank.questions[0].reference


def test_a_table_that_lists_question_numbers_is_an_index_not_questions(tmp_path):
    report = read(
        tmp_path,
        "# ML Q&A\n\n## Topic index\n\n"
        "| **Topic** | **Questions** | **Count** |\n| --- | --- | --- |\n"
        "| Foundations | 1--2, 4 | 3 |\n| Evaluation | 3 | 1 |\n\n"
        "## Foundations\n\n"
        "### Q1: What is overfitting?\n\n**Answer.** Fitting noise in the training set.\n\n"
        "### Q2: What is a validation set for?\n\n**Answer.** Choosing models without the test set.\n\n"
        "## Evaluation\n\n"
        "### Q3: What is a confusion matrix?\n\n**Answer.** Counts of each true/predicted pair.\n\n"
        "### Q4: Why regularise?\n\n**Answer.** To trade a little bias for less variance.\n",
    )
    assert questions(report) == [
        "What is overfitting?",
        "What is a validation set for?",
        "What is a confusion matrix?",
        "Why regularise?",
    ]


def test_numbered_tips_after_marked_questions_are_listed_but_do_not_refuse_the_file(tmp_path):
    path = tmp_path / "moe.md"
    path.write_text(
        "# MoE 面试题\n\n"
        "### Q1. MoE 的核心思想是什么？\n\n每个 token 只走少数几个专家。\n\n"
        "### Q2. 为什么替换的是 FFN？\n\nFFN 占了大部分参数和计算。\n\n"
        "### Q3. 负载均衡损失起什么作用？\n\n防止路由塌缩到少数专家。\n\n"
        "## 答题建议\n\n"
        "1. 先讲直觉，再写公式；\n"
        "2. 伪代码写对 topk、capacity、dispatch 三段即可；\n"
        "3. 答完一个点，主动延伸到相关的点。\n"
        "4. 不确定时直说没做过，再讲论文里的结论。\n"
        "5. 路由器\n",
        encoding="utf-8",
    )
    from studybot.bank import importer

    report = importer.inspect(path)
    assert [q.question for q in report.bank.questions] == [
        "MoE 的核心思想是什么？",
        "为什么替换的是 FFN？",
        "负载均衡损失起什么作用？",
    ]
    assert not report.refused
    listed = [(s.text, s.counts) for s in report.skipped]
    assert ("先讲直觉，再写公式；", False) in listed
    assert ("路由器", True) in listed  # a short topic may be a question: it still counts


def test_a_request_with_an_adverb_before_its_verb_is_a_question_and_no_bullet_vanishes(tmp_path):
    report = read(
        tmp_path,
        "# Transformer\n\n"
        "- **为什么要除以根号 dk？**\n"
        "    - 防止点积过大，softmax 饱和。\n"
        "- **简单讲一下残差连接以及意义。**\n\n"
        "    残差的意义：\n\n"
        "    1. 缓解梯度消失：梯度可以直接传回浅层。\n"
        "    2. 便于优化：子层只需学习残差。\n"
        "- **详细说说 LayerNorm 和 BatchNorm 的区别**\n"
        "    - 一个按样本归一，一个按批归一。\n",
    )
    assert questions(report) == [
        "为什么要除以根号 dk？",
        "简单讲一下残差连接以及意义。",
        "详细说说 LayerNorm 和 BatchNorm 的区别",
    ]
    assert "缓解梯度消失" in report.bank.questions[1].reference


def test_a_numbered_item_that_goes_on_from_the_questions_before_it_is_a_question(tmp_path):
    report = read(
        tmp_path,
        "## 某厂 NLP 实习一面\n\n"
        "1. 介绍一下 bagging 和 boosting 的区别\n"
        "2. 过拟合怎么解决？\n"
        "3. Dropout\n"
        "> 训练时按概率临时丢弃神经元。\n\n"
        "4. 激活函数的比较\n"
        "> 面试官问了一个小时，都是基础题。\n\n"
        "## 算法刷题\n\n"
        "1. 《剑指 Offer》\n"
        "2. LeetCode\n",
    )
    assert questions(report) == [
        "介绍一下 bagging 和 boosting 的区别",
        "过拟合怎么解决？",
        "Dropout",
        "激活函数的比较",
    ]


def test_a_marked_first_heading_is_the_first_question_not_the_title(tmp_path):
    report = read(
        tmp_path,
        "# Q1. Explain the skip-gram objective.\n\n"
        "### 1. **Context window:**\n   - the words around the target.\n\n"
        "### 2. **Negative sampling:**\n   - a few random words as negatives.\n\n"
        "# Q2. Explain CBOW.\n\n"
        "### 1. **Averaging:**\n   - the context vectors are averaged.\n\n"
        "# Q3. Why is GloVe called global?\n\nIt fits the whole co-occurrence matrix.\n",
    )
    assert questions(report) == [
        "Explain the skip-gram objective.",
        "Explain CBOW.",
        "Why is GloVe called global?",
    ]
    assert "Negative sampling" in report.bank.questions[0].reference
