"""The preview names ``--questions headings:N`` for a file whose questions are headings that do
not ask (issue 34, item 2): ``## Case N: topic`` sections, each with ``### 背景``/``### 思路``
and numbered ``#### 1.`` points below. By default the points are taken and the problems become
chapters; no asking line tells the reading apart, the sections with their answers do.

The file is written for the test in the shape of a real interview write-up seen in the corpus.
"""

from __future__ import annotations

import json

from imported import questions, read

PROBLEMS = """# 系统设计面试题

## 目录

- Case 1 到 Case 4，每题含背景、思路与要点。

## Case 1: 设计短链接服务

### 背景

面试官给出日均一亿次跳转的读多写少场景。

### 思路

#### 1. 编码方案

自增 ID 转 62 进制，或取哈希前缀并处理冲突。

#### 2. 存储与缓存

键值存储保存映射，热点短码放进缓存，命中率决定延迟。

### 小结

先估算容量，再谈编码与缓存。

## Case 2: 设计限流器

### 背景

一个开放 API 需要按用户限制每秒请求数。

### 思路

#### 1. 令牌桶

按固定速率补充令牌，请求取走一个令牌才放行，允许突发。

#### 2. 滑动窗口

按时间窗口计数，窗口边界处用加权平均平滑。

## Case 3: 设计消息队列的重试

### 背景

消费者偶发失败，消息不能丢也不能无限重试。

### 思路

#### 1. 退避策略

指数退避加随机抖动，避免同时重试压垮下游。

#### 2. 死信队列

超过次数的消息转入死信队列，由人工或离线任务处理。

## Case 4: 设计排行榜

### 背景

游戏需要实时展示前一百名与任意玩家的名次。

### 思路

#### 1. 有序集合

用跳表实现的有序集合按分数排序，取前 N 名是对数复杂度。

#### 2. 分片

玩家很多时按分数段分片，名次由各分片计数相加。
"""

TOPICS = ["设计短链接服务", "设计限流器", "设计消息队列的重试", "设计排行榜"]


def test_the_preview_names_the_heading_level_that_holds_the_answers(invoke, tmp_path):
    path = tmp_path / "design.md"
    path.write_text(PROBLEMS, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    out = shown.stdout
    assert "Found in: 8 headings (read by default)." in out  # the #### points
    assert (
        "Try --questions headings:2: 5 questions, 5 sections with an answer under level 2's "
        "headings" in out
    )
    assert f"studybot bank import {path} --questions headings:2 --preview" in out
    followed = invoke("bank", "import", str(path), "--preview", "--questions", "headings:2")
    assert followed.exit_code == 0, followed.stderr
    assert "Try --questions" not in followed.stdout  # what it reads is what was suggested
    last = followed.stdout.rstrip("\n").split("\n")[-1]
    assert last == f"Run: studybot bank import {path} --name design --questions headings:2"


def test_following_it_takes_each_problem_with_its_whole_section_as_the_answer(tmp_path):
    report = read(tmp_path, PROBLEMS, questions="headings:2")
    taken = questions(report)
    assert [q.split(": ", 1)[-1] for q in taken[1:]] == TOPICS
    first = report.bank.questions[1]
    answer = " ".join([first.reference, *first.key_points])
    for said in ("日均一亿次", "62 进制", "命中率", "先估算容量"):
        assert said in answer


def test_the_json_says_why_it_is_named(invoke, tmp_path):
    path = tmp_path / "design.md"
    path.write_text(PROBLEMS, encoding="utf-8")
    data = json.loads(invoke("bank", "import", str(path), "--preview", "--json").stdout)
    suggestion = data["steer"]["suggestion"]
    assert suggestion["option"] == "--questions headings:2"
    assert suggestion["why"] == "5 sections with an answer under level 2's headings"


def test_no_heading_level_is_named_when_the_default_takes_the_sections(invoke, tmp_path):
    asking = PROBLEMS
    for topic in TOPICS:
        asking = asking.replace(f": {topic}", f": 如何{topic}？")
    path = tmp_path / "asking.md"
    path.write_text(asking, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    assert "Took 4 question(s): 4 of the file's 4 asking line(s), 0 that do not ask." in (
        shown.stdout
    )
    assert "headings:" not in shown.stdout
