"""How long a long streamed answer takes to draw: in a terminal against piped.

Starts the tests' local OpenAI-compatible server (``tests/openai_server.py``)
streaming a Markdown answer of about 4,000 tokens (headings, lists, a table,
code, formulas, Chinese and English) in small chunks as fast as it can, then
runs ``studybot run --from 1 --to 1`` live against it twice: (a) in a
pseudo-terminal of 100 columns x 40 rows, read continuously the way a
terminal reads, and (b) piped. Prints both wall times and their ratio.

    python bench/stream_draw.py [--runs 3] [--chunk 4] [--serve [--cut N]]

``--serve`` only starts the server and prints the environment to use it by
hand (for example in tmux), until Ctrl-C; ``--cut N`` drops the stream of
every other request after N chunks, so each answer is cut once and asked
again.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from openai_server import Fault, OpenAIServer  # noqa: E402  (the tests' server, reused)

KEY = "sk-bench-stream-draw-0123456789"
MODEL = "bench-model"
COLUMNS, ROWS = 100, 40

SECTION = """## 第 {n} 部分：KV cache 与注意力

在长对话里，每一轮都会把**整个历史**重新发送，prefill 的代价随上下文长度 $n$ 增长，
注意力分数的计算量是 $O(n^2)$。Each turn re-sends the history, so the prompt grows
linearly and the attention work grows with its square.

1. 先算每个 token 的 KV 字节数：$2 \\times L \\times h_{{kv}} \\times d_{{head}} \\times b$。
2. 再乘以上下文长度 $n$，得到整段对话的 KV cache 大小。
3. 从 8K 扩到 32K 时，KV cache 变为 4 倍，注意力分数变为 16 倍。

- 前缀缓存（prefix caching）让相同前缀的请求跳过 prefill：
  - vLLM 以 16 个 token 为一块做哈希；
  - SGLang 用 radix tree 匹配最长公共前缀。
- 系统提示必须**逐字节稳定**，否则后面的每个 token 都无法命中。

| 上下文 | KV cache | 注意力分数 |
|---|---|---|
| 8K | 1× | 1× |
| 32K | 4× | 16× |

```python
def kv_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int) -> int:
    per_token = 2 * layers * kv_heads * head_dim * 2  # K and V, BF16

    return per_token * tokens
```

> 小结：把长会话切成 5–8 题一段，并带上不超过 5 行的摘要，是最省的做法。

"""


def long_answer(tokens: int = 4_000) -> str:
    """A realistic Markdown answer of about ``tokens`` tokens (studybot's own count)."""
    from studybot.costs.tokens import count

    parts = ["# 长回答：为什么长上下文会变慢\n\n"]
    while count("".join(parts)) < tokens:
        parts.append(SECTION.format(n=len(parts)))
    return "".join(parts)


def environment(home: str, server: OpenAIServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "PYTEST_CURRENT_TEST"}}
    env.pop("CODEX_HOME", None)
    env.update(
        STUDYBOT_HOME=home,
        TAOTOKEN_API_KEY=KEY,
        STUDYBOT_BASE_URL=server.base_url,
        STUDYBOT_MODEL=MODEL,
        TERM="xterm-256color",
        COLUMNS=str(COLUMNS),
        LINES=str(ROWS),
        PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
    )
    return env


def command() -> list[str]:
    script = Path(sys.executable).with_name("studybot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "studybot"]


ARGS = ["run", "--from", "1", "--to", "1", "--fresh"]


def on_terminal(env: dict[str, str]) -> float:
    """Seconds from start to exit in a 100x40 pseudo-terminal, read as it is written."""
    import pexpect

    started = time.perf_counter()
    child = pexpect.spawn(
        command()[0],
        [*command()[1:], *ARGS],
        env=env,
        dimensions=(ROWS, COLUMNS),
        encoding="utf-8",
        timeout=600,
        maxread=65536,
    )
    child.expect("next")  # the key prompt after the answer
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()
    elapsed = time.perf_counter() - started
    if child.exitstatus != 0:
        raise SystemExit(f"studybot failed in the terminal (exit {child.exitstatus})")
    return elapsed


def piped(env: dict[str, str], answer: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [*command(), *ARGS], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or answer.strip() not in done.stdout:
        raise SystemExit(f"studybot failed piped (exit {done.returncode}): {done.stderr[-500:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each; the median is shown")
    parser.add_argument("--chunk", type=int, default=4, help="characters per streamed chunk")
    parser.add_argument("--tokens", type=int, default=4_000, help="answer length in tokens")
    parser.add_argument("--serve", action="store_true", help="only serve, for a run by hand")
    parser.add_argument("--cut", type=int, default=0, help="--serve: cut every other stream")
    options = parser.parse_args()

    from studybot.costs.tokens import count

    answer = long_answer(options.tokens)
    with (
        OpenAIServer(
            key=KEY, models=[MODEL], answer=lambda body: answer, chunk_chars=options.chunk
        ) as server,
        tempfile.TemporaryDirectory() as home,
    ):
        env = environment(home, server)
        print(
            f"answer: {count(answer):,} tokens, {len(answer):,} characters, "
            f"in chunks of {options.chunk} characters"
        )
        if options.serve:
            for name in ("STUDYBOT_BASE_URL", "STUDYBOT_MODEL", "TAOTOKEN_API_KEY"):
                print(f"export {name}={env[name]}")
            if options.cut:
                server.script(*[Fault.cut(after_chunks=options.cut), None] * 50)
            print("serving; Ctrl-C stops", flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                return
        terminal = statistics.median(on_terminal(env) for _ in range(options.runs))
        pipe = statistics.median(piped(env, answer) for _ in range(options.runs))
    print(f"terminal ({COLUMNS}x{ROWS} pseudo-terminal): {terminal:.2f} s")
    print(f"piped:                                 {pipe:.2f} s")
    print(f"terminal / piped:                      {terminal / pipe:.1f}x")


if __name__ == "__main__":
    main()
