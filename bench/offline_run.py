"""Per-turn local overhead of an offline run over the whole shipped bank.

Everything a turn costs besides the model: assembling the request,
counting its tokens, writing the turn to SQLite, summaries. Runs in a
temporary STUDYBOT_HOME and prints totals and the per-turn figure.

    python bench/offline_run.py
"""

from __future__ import annotations

import os
import tempfile
import time


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        os.environ["STUDYBOT_HOME"] = home
        from studybot import bank
        from studybot.channel import config, providers
        from studybot.storage.store import Store
        from studybot.study import session

        loaded = bank.load()
        settings = config.load({"offline": True})
        provider, _ = providers.choose(settings, loaded)
        store = Store.open()
        study = session.Study(loaded, provider, settings)

        started = time.perf_counter()
        record = session.start(study, store, loaded.first, loaded.last)
        planned = time.perf_counter()
        record = session.run(study, store, record, session.Listener())
        finished = time.perf_counter()

        turns = store.turns(record.id)
        segments = store.segments(record.id)
        per_turn = (finished - planned) / len(turns)
        print(f"questions {len(turns)} in {len(segments)} segments ({loaded.first}–{loaded.last})")
        print(f"plan + session creation  {1000 * (planned - started):8.1f} ms")
        print(f"answering + recording    {1000 * (finished - planned):8.1f} ms")
        print(f"local overhead per turn  {1000 * per_turn:8.2f} ms (summaries included)")
        print(f"prompt tokens counted    {sum(t.prompt_tokens for t in turns):8d}")
        print(f"peak context n           {max(t.context_tokens for t in turns):8d}")


if __name__ == "__main__":
    main()
