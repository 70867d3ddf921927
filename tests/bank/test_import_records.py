"""JSON, JSONL and CSV with their own keys: the usual names, --map, keys not used, nesting."""

from __future__ import annotations

import json

from studybot import bank
from studybot.bank import importer


def write(tmp_path, name: str, data) -> str:
    path = tmp_path / name
    if name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data), "utf-8")
    else:
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2), "utf-8")
    return str(path)


def test_the_usual_names_are_mapped_and_the_mapping_and_unused_keys_are_printed(invoke, tmp_path):
    rows = [
        {
            "prompt": "什么是 SFT？",
            "good_answer": "用指令数据微调。",
            "topic": "微调",
            "author": "a",
        },
        {"prompt": "什么是 DPO？", "good_answer": "直接偏好优化。", "topic": "对齐", "level": 2},
    ]
    path = write(tmp_path, "qa.jsonl", rows)
    result = invoke("bank", "import", path, "--name", "qa")
    assert result.exit_code == 0, result.stderr
    assert "Read question ← 'prompt', answer ← 'good_answer', chapter ← 'topic'" in result.stdout
    assert "Not used: 'author'" in result.stdout
    assert "As tags: 'level'" in result.stdout  # how hard it is: a tag (issue 34)
    loaded = bank.load("qa")
    assert [(q.question, q.reference, q.chapter) for q in loaded.questions] == [
        ("什么是 SFT？", "用指令数据微调。", 1),
        ("什么是 DPO？", "直接偏好优化。", 2),
    ]
    assert [c.title for c in loaded.chapters] == ["微调", "对齐"]


def test_keys_nobody_names_get_a_map_suggestion_and_map_reads_them(invoke, tmp_path):
    rows = [{"kysymys": "Mikä on LoRA?", "vastaus": "Matala-asteinen sovitus.", "n": 1}] * 1
    rows.append({"kysymys": "Mikä on RAG?", "vastaus": "Haku ja tuotanto.", "n": 2})
    path = write(tmp_path, "fi.json", rows)
    refused = invoke("bank", "import", path, "--name", "fi")
    assert refused.exit_code == 2
    assert "no key holds the questions (keys: kysymys, vastaus, n)" in refused.stderr
    assert "Hint: --map question=kysymys" in refused.stderr
    mapped = invoke(
        "bank", "import", path, "--name", "fi", "--map", "question=kysymys,answer=vastaus"
    )
    assert mapped.exit_code == 0, mapped.stderr
    assert "Read question ← 'kysymys', answer ← 'vastaus'" in mapped.stdout
    assert "Not used: 'n'" in mapped.stdout
    assert bank.load("fi").get(2).reference == "Haku ja tuotanto."
    bad = invoke("bank", "import", path, "--name", "pt", "--map", "questoin=pergunta")
    assert bad.exit_code == 2 and "expected FIELD=KEY" in bad.stderr


def test_nested_json_chapters_and_line_numbers(tmp_path):
    doc = {
        "meta": {"version": 3, "questions": "not this"},
        "title": "嵌套题库",
        "chapters": [
            {"title": "基础", "questions": [{"q": "什么是词元？", "a": "最小单位。"}]},
            {"title": "进阶", "questions": [{"q": "什么是 MoE？"}, {"q": ""}]},
        ],
    }
    path = write(tmp_path, "nested.json", doc)
    report = importer.inspect(path, force=True)
    assert report.bank.title == "嵌套题库"
    assert [(c.title, c.first, c.last) for c in report.bank.chapters] == [
        ("基础", 1, 1),
        ("进阶", 2, 2),
    ]
    assert report.bank.get(1).reference == "最小单位。"
    # the empty record is named at its own line (indent=2: line 23) and left out
    assert [(s.where, s.why) for s in report.lost] == [
        (f"{path}:23", "a question with no text; not taken")
    ]


def test_an_object_of_chapters_and_a_data_list_at_any_depth(tmp_path):
    by_topic = {"统计": ["什么是 p 值？"], "机器学习": ["什么是过拟合？", "什么是正则化？"]}
    loaded = importer.read(write(tmp_path, "topics.json", by_topic))
    assert [c.title for c in loaded.chapters] == ["统计", "机器学习"]
    deep = {"data": {"items": [{"question": "什么是 KV 缓存？", "answer": "保存 K 和 V。"}]}}
    assert importer.read(write(tmp_path, "deep.json", deep)).get(1).reference == "保存 K 和 V。"


def test_chat_and_alpaca_records(tmp_path):
    chats = [
        {
            "messages": [
                {"role": "system", "content": "你是面试官。"},
                {"role": "user", "content": "什么是 <|im_end|>？"},
                {"role": "assistant", "content": "ChatML 的消息结束符。"},
            ]
        },
        {
            "conversations": [
                {"from": "human", "value": "什么是 </s>？"},
                {"from": "gpt", "value": "结束符。"},
            ]
        },
    ]
    report = importer.inspect(write(tmp_path, "chat.jsonl", chats))
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("什么是 <|im_end|>？", "ChatML 的消息结束符。"),
        ("什么是 </s>？", "结束符。"),
    ]
    assert report.notes[0] == "read question ← the first user turn, answer ← the reply"
    alpaca = [{"instruction": "翻译成英文", "input": "你好", "output": "Hello"}]
    loaded = importer.read(write(tmp_path, "alpaca.json", alpaca))
    assert (loaded.get(1).question, loaded.get(1).reference) == ("翻译成英文\n\n你好", "Hello")


def test_a_csv_without_a_header_reads_question_and_answer_columns(tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text("什么是词元？,最小单位\n什么是嵌入？,向量表示\n", encoding="utf-8")
    report = importer.inspect(path)
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("什么是词元？", "最小单位"),
        ("什么是嵌入？", "向量表示"),
    ]
    assert "no header row" in report.notes[0]


def test_a_chapter_that_comes_back_and_a_repeat_are_facts_not_errors(invoke, tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_text(
        "章节,题目,答案\n词元,什么是词元？,\n注意力,什么是注意力？,加权求和\n"
        "词元,什么是嵌入？,向量\n词元,什么是词元？,最小单位\n",
        encoding="utf-8",
    )
    result = invoke("bank", "import", str(path), "--name", "mixed")
    assert result.exit_code == 0, result.stderr
    loaded = bank.load("mixed")
    assert [(c.title, c.first, c.last) for c in loaded.chapters] == [
        ("词元", 1, 2),
        ("注意力", 3, 3),
    ]
    assert [q.question for q in loaded.questions] == [
        "什么是词元？",
        "什么是嵌入？",
        "什么是注意力？",
    ]
    assert loaded.get(1).reference == "最小单位"  # the repeat's answer fills the bare first
    assert f"{path}:5: asked again (first at line 2)" in result.stdout
    assert f"{path}:4: chapter '词元' comes back" in result.stdout
