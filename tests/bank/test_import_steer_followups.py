"""The preview names ``--questions headings:N`` when the default reading takes questions that sit
inside another question's answer, and the heading reading keeps them there as answer text
(issue 34, item 2): interview follow-ups (``*Q: …?*``) and ``**How it works:**`` sub-headings
under numbered ``###`` questions; numbered labels (``**1. Scope:**``) under ``###`` topics
that do not ask. It names nothing where the headings would lose a question: a question
written without its ``###`` in a run of numbered ones, asking list items under topic headings,
asking ``####`` headings under ``##`` groups beside three ``###`` notes.

The files are written for the tests in the shapes of real ones seen in the corpus.
"""

from __future__ import annotations

from imported import questions, read

FOLLOW_UPS = """# Caching interview guide

## Basics

### 1. What is a cache hit ratio?

The share of reads served from the cache rather than the backing store.

**How it works:**

Every read counts as a hit or a miss; the ratio is hits over all reads.

**Interview scenario:**

*Q: Your hit ratio dropped from 95% to 60% overnight. What do you check first?*

*Good answer:* a deploy that changed keys, an eviction storm, or a new traffic pattern.

### 2. What is write-through caching?

Every write goes to the cache and the store together, so reads never see stale data.

**Interview scenario:**

*Q: Writes got twice as slow after switching to write-through. Is that expected?*

*Good answer:* yes, each write now waits for both; batch writes or go write-behind.

### 3. How does LRU eviction decide what to drop?

It drops the entry that was read least recently, tracked with a list and a map.

**How it works:**

A read moves the entry to the front; eviction takes the entry at the back.

**Interview scenario:**

*Q: Would LRU suit a nightly scan over every key?*

*Good answer:* no, one scan flushes the hot set; use LRU-K or a scan-resistant policy.
"""

HEADINGS = [
    "What is a cache hit ratio?",
    "What is write-through caching?",
    "How does LRU eviction decide what to drop?",
]

LABELS = """# Batch and stream processing

### Batch processing

###### Definition:
Processing a bounded data set in one run, on a schedule.

**Strengths:**
- High throughput per machine.
- Simple to re-run after a failure.

### Stream processing

###### Definition:
Processing unbounded events one by one as they arrive.

**Strengths:**
- Results within seconds.
- Reacts to events as they happen.

### Key Differences

**1. Scope:**

- Batch: the whole data set at once.
- Stream: one event or a small window.

**2. Latency:**

- Batch: minutes to hours.
- Stream: milliseconds to seconds.

**3. State:**

- Batch: recomputed on each run.
- Stream: kept and updated as events arrive.

**4. Failures:**

- Batch: re-run the job.
- Stream: replay from a checkpoint.
"""

TOPICS = ["Batch processing", "Stream processing", "Key Differences"]


def _preview(invoke, tmp_path, text: str, *options: str) -> tuple[str, str]:
    path = tmp_path / "guide.md"
    path.write_text(text, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview", *options)
    assert shown.exit_code == 0, shown.stderr
    return str(path), shown.stdout


def _names_no_heading_level(invoke, tmp_path, text: str, took: str) -> None:
    """The preview of ``text`` says it ``took`` what the default reads, and names no level."""
    _, out = _preview(invoke, tmp_path, text)
    assert took in out
    assert "Try --questions headings:" not in out


def test_follow_ups_inside_answers_name_the_heading_level(invoke, tmp_path):
    path, out = _preview(invoke, tmp_path, FOLLOW_UPS)
    assert "Took 6 question(s)" in out  # the three questions and their three follow-ups
    assert (
        "Try --questions headings:3: 3 questions, 3 follow-ups inside answers kept as answer text"
        in out
    )
    assert f"studybot bank import {path} --questions headings:3 --preview" in out
    _, followed = _preview(invoke, tmp_path, FOLLOW_UPS, "--questions", "headings:3")
    assert "Try --questions" not in followed  # what it reads is what was suggested
    last = followed.rstrip("\n").split("\n")[-1]
    assert last == f"Run: studybot bank import {path} --name guide --questions headings:3"


def test_the_named_command_keeps_each_follow_up_in_its_questions_answer(tmp_path):
    report = read(tmp_path, FOLLOW_UPS, questions="headings:3")
    assert [q.split(". ", 1)[-1] for q in questions(report)] == HEADINGS
    first = report.bank.questions[0]
    answer = " ".join([first.reference or "", *first.key_points])
    for said in ("backing store", "How it works", "What do you check first?", "eviction storm"):
        assert said in answer


def test_labels_under_topics_name_the_heading_level(invoke, tmp_path):
    path, out = _preview(invoke, tmp_path, LABELS)
    assert "Took 4 question(s)" in out  # the four numbered labels, the definitions left
    assert "Try --questions headings:3: 3 questions, 4 labels inside sections kept as answer" in (
        " ".join(out.split())
    )
    report = read(tmp_path, LABELS, questions="headings:3")
    assert questions(report) == TOPICS
    first, _, last = report.bank.questions
    assert "bounded data set" in " ".join([first.reference or "", *first.key_points])
    assert "Latency" in " ".join([last.reference or "", *last.key_points])


NUMBERED = """# Caching questions

### Q1. What is a cache hit ratio?

The share of reads served from the cache.

### Q2. What is write-through caching?

Every write goes to the cache and the store together.

### Q3. What is a TTL on a cache entry?

How long the entry may be served before it is read again from the store.

Q4. What is cache stampede?

Many clients missing the same key at once and all loading it.

Q5. How does a bloom filter help a cache?

It answers "surely not stored" cheaply, so misses skip the store.

Q6. What is write-behind caching?

Writes are queued and flushed to the store later, in batches.
"""


def test_questions_written_without_their_heading_name_nothing(invoke, tmp_path):
    # Q4 to Q6 continue the numbered headings: the headings would bury them in Q3's answer
    _names_no_heading_level(invoke, tmp_path, NUMBERED, "Took 6 question(s): 6 of the file's")


def test_asking_items_under_topics_name_no_heading_level(invoke, tmp_path):
    text = "# Network questions\n\n"
    for topic in ("TCP", "DNS", "HTTP"):
        text += f"## {topic}\n\n{topic} notes for the on-site round.\n"
        text += (
            f"Read the {topic} chapter of the course first.\nBring your own {topic} diagram.\n\n"
        )
        text += f"1. How does the {topic} handshake work?\n\n   It works in steps.\n\n"
        text += f"2. {topic} caching\n\n   Answers are kept for a while.\n\n"
    took = "Took 6 question(s): 3 of the file's 3 asking line(s), 3 that do not ask."
    _names_no_heading_level(invoke, tmp_path, text, took)


def test_groups_over_asking_headings_without_answers_name_no_heading_level(invoke, tmp_path):
    text = "# 面试题合集\n\n"
    for note in ("关于", "使用", "贡献"):
        text += f"### {note}\n\n" + "".join(f"{note}说明第{n}行。\n" for n in range(8)) + "\n"
    for company, asked in (("阿里", ("进程", "线程", "协程")), ("腾讯", ("索引", "事务", "锁"))):
        text += f"## {company}\n\n"
        text += "".join(f"#### {n}. 如何理解{word}？\n\n" for n, word in enumerate(asked, 1))
        text += "#### 4. 虚函数表\n\n#### 5. 内存对齐\n\n"  # topics that do not ask
    took = "Took 10 question(s) (2 asked again, imported once: 8 in the Total): 6 of the file's"
    _names_no_heading_level(invoke, tmp_path, text, took)
