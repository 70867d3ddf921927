"""The prefix-cache simulators against hand-worked traces."""

from __future__ import annotations

import pytest

from studybot.costs.cache.paged import BlockCache
from studybot.costs.cache.radix import RadixCache
from studybot.costs.cache.replay import make, replay
from studybot.costs.cache.rules import StepCache


def serve(cache, *requests):
    return [cache.request(r) for r in requests]


# -- radix tree ---------------------------------------------------------------


def test_a_partial_match_splits_the_edge_and_both_branches_hit_afterwards():
    tree = RadixCache()
    # [1 2 3 4] then [1 2 5]: the edge splits after [1 2]
    assert serve(tree, [1, 2, 3, 4], [1, 2, 5]) == [0, 2]
    assert tree.tokens_held == 5  # 1 2 | 3 4 | 5: the split copies nothing
    assert serve(tree, [1, 2, 3, 4, 9], [1, 2, 5, 6], [1, 7]) == [4, 3, 1]


def test_a_request_ending_inside_an_edge_hits_up_to_its_end():
    tree = RadixCache()
    assert serve(tree, [1, 2, 3, 4, 5, 6], [1, 2, 3], [1, 2, 3, 4, 5, 6]) == [0, 3, 6]
    assert tree.tokens_held == 6


def test_hits_round_down_to_whole_pages_and_only_whole_pages_are_kept():
    tree = RadixCache(page_size=4)
    assert tree.request(list(range(1, 11))) == 0  # 10 tokens: pages [1-4] [5-8] kept, 9 10 not
    assert tree.tokens_held == 8
    # shares 6 tokens with the first request: 1 whole page
    assert tree.request([1, 2, 3, 4, 5, 6, 99, 98, 97]) == 4
    assert tree.tokens_held == 12  # [5 6 99 98] is the new page; 97 is a partial page
    assert tree.request(list(range(1, 8))) == 4  # 7 tokens hold one whole page
    assert tree.request(list(range(1, 11))) == 8


def test_eviction_frees_the_least_recently_used_leaf_first():
    tree = RadixCache(capacity=10)
    assert serve(tree, [1, 2, 3, 4], [5, 6, 7], [1, 2, 8, 9]) == [0, 0, 2]
    # holds 9: [1 2] -> {[3 4], [8 9]}, both at t3 (the split stamped [3 4]), [5 6 7] at t2.
    # 3 new tokens need 2 freed: the oldest leaf, [5 6 7], goes, and only it.
    assert tree.request([10, 11, 12]) == 0
    assert tree.tokens_held == 9
    assert serve(tree, [1, 2, 3, 4], [1, 2, 8, 9], [10, 11, 12]) == [4, 4, 3]
    assert tree.request([5, 6, 7]) == 0


def test_a_parent_becomes_evictable_once_its_children_are_gone():
    tree = RadixCache(capacity=6)
    assert serve(tree, [1, 2, 3], [1, 2, 4]) == [0, 2]  # [1 2] -> {[3], [4]}: 4 tokens
    # 6 new tokens need all 4 freed: [3], [4], then their parent [1 2]
    assert tree.request([7, 8, 9, 10, 11, 12]) == 0
    assert tree.tokens_held == 6
    assert tree.request([1, 2, 3]) == 0


def test_matching_refreshes_a_node_so_eviction_spares_it():
    tree = RadixCache(capacity=9)
    serve(tree, [1, 2, 3], [4, 5, 6], [7, 8, 9])  # full
    assert tree.request([1, 2, 3]) == 3  # [1 2 3] is now the most recent
    assert tree.request([10, 11, 12]) == 0  # evicts [4 5 6], the oldest
    assert serve(tree, [1, 2, 3], [7, 8, 9], [4, 5, 6]) == [3, 3, 0]


def test_the_locked_path_of_the_request_in_flight_survives_eviction():
    tree = RadixCache(capacity=6)
    assert tree.request([1, 2, 3, 4, 5, 6]) == 0
    # hits [1 2 3]; its 3 new tokens need room: only the unlocked [4 5 6] may go
    assert tree.request([1, 2, 3, 9, 9, 9]) == 3
    assert tree.tokens_held == 6
    assert serve(tree, [1, 2, 3], [1, 2, 3, 9, 9, 9]) == [3, 6]
    assert tree.request([1, 2, 3, 4]) == 3  # [4 5 6] was the one evicted


def test_a_request_larger_than_the_cache_is_inserted_whole_as_sglang_does():
    tree = RadixCache(capacity=4)
    assert tree.request([1, 2, 3, 4, 5, 6]) == 0
    assert tree.tokens_held == 6  # over capacity until the next eviction
    assert tree.request([1, 2, 3, 4, 5, 6]) == 6
    # the next request evicts down to capacity: the 6-token leaf, unlocked now, goes
    assert tree.request([7, 8]) == 0
    assert tree.tokens_held == 2


def test_a_split_stamps_both_halves_with_the_access_time_as_sglang_does():
    tree = RadixCache(capacity=7)
    assert serve(tree, [1, 2, 3, 4], [5, 6]) == [0, 0]  # [1 2 3 4] at t1, [5 6] at t2
    # t3 splits [1 2 3 4] into [1 2] -> [3 4]; SGLang stamps [3 4] with t3 too
    assert tree.request([1, 2, 9]) == 2
    assert tree.tokens_held == 7
    # 2 tokens must go: the least recent leaf is now [5 6] (t2), not [3 4]
    assert tree.request([7, 8]) == 0
    assert serve(tree, [1, 2, 3, 4], [5, 6]) == [4, 0]


# -- blocks -------------------------------------------------------------------


def test_only_full_blocks_hit():
    blocks = BlockCache(block_size=4)
    assert blocks.request(list(range(10))) == 0  # two full blocks and a partial one
    assert blocks.request(list(range(10))) == 8
    assert blocks.request(list(range(7))) == 4  # the second block is not full here
    assert blocks.request(list(range(13))) == 8  # a third full block, new
    assert blocks.request(list(range(13))) == 12


def test_a_fully_cached_prompt_still_computes_its_last_token_as_vllm_does():
    blocks = BlockCache(block_size=4)
    assert blocks.request(list(range(8))) == 0
    # all 8 tokens are cached, but the hit is capped at 8 - 1: one whole block
    assert blocks.request(list(range(8))) == 4
    assert blocks.request(list(range(9))) == 8


def test_a_hit_run_stops_at_the_first_missing_block():
    blocks = BlockCache(block_size=4)
    first = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    blocks.request(first)
    # block 2 differs; block 3 has the same tokens as before but another parent
    changed = [1, 1, 1, 1, 9, 9, 9, 9, 3, 3, 3, 3]
    assert blocks.request(changed) == 4
    assert blocks.request(first) == 8  # capped at 12 - 1 tokens: two whole blocks
    assert blocks.request(first + [0]) == 12


def test_block_eviction_is_lru_and_takes_a_chain_tail_before_its_head():
    blocks = BlockCache(block_size=2, capacity=8)  # 4 blocks
    assert blocks.request([1, 1, 2, 2, 3, 3]) == 0  # chain a1 a2 a3
    assert blocks.request([7, 7]) == 0  # b1: the pool is full
    # one block needed: the free queue's front is a3, the tail of the older chain
    assert blocks.request([8, 8]) == 0
    assert blocks.request([1, 1, 2, 2, 3, 3]) == 4  # a1 a2 still there, a3 gone
    assert blocks.request([7, 7]) == 0  # re-adding a3 took b1, the least recently used


def test_a_freed_partial_tail_is_reused_before_any_cached_block_as_vllm_does():
    blocks = BlockCache(block_size=2, capacity=6)  # 3 blocks
    assert blocks.request([1, 1]) == 0  # x, hashed
    # y (hashed) and a partial tail t: freed tail first, t to the queue's front,
    # y to its back, so the queue is t, x, y (appending t would give x, t, y)
    assert blocks.request([2, 2, 5]) == 0
    assert blocks.request([3, 3]) == 0  # takes t: x survives
    assert blocks.request([1, 1, 9]) == 2
    assert blocks.request([2, 2, 9]) == 0  # y was the next at the front


def test_blocks_and_radix_agree_on_block_aligned_traces():
    trace = [
        [1, 2, 3, 4, 5, 6, 7, 8],
        [1, 2, 3, 4, 9, 9, 9, 9],
        [1, 2, 3, 4, 5, 6, 7, 8, 1, 1, 1, 1],
    ]
    radix = replay(trace, RadixCache(page_size=4))
    blocks = replay(trace, BlockCache(block_size=4))
    # no request here is fully cached, so vLLM's last-token cap never bites
    assert radix.hits == blocks.hits == (0, 4, 8)


# -- the provider rule ----------------------------------------------------------


def test_provider_rule_caches_nothing_under_the_minimum_and_steps_the_rest():
    cache = StepCache(min_tokens=1024, step=128)
    short = list(range(900))
    assert cache.request(short) == 0
    assert cache.request(short + list(range(5000, 5300))) == 0  # 1200: the 900 were never kept
    longer = short + list(range(5000, 5600))  # shares 1200 tokens with the previous one
    assert cache.request(longer) == 1152  # 9 steps of 128
    assert cache.request(short) == 0  # under the minimum, even though it is held


def test_make_and_replay_report_hit_rate_of_hit_tokens_over_prompt_tokens():
    result = replay([[1, 2, 3, 4], [1, 2, 3, 4]], make("radix"))
    assert result.hits == (0, 4) and result.hit_rate == pytest.approx(0.5)
    assert set(result.to_json()) == {"requests", "hit_rate", "elapsed_s"}
    assert result.to_json()["requests"] == [{"tokens": 4, "hit": 0}, {"tokens": 4, "hit": 4}]
    with pytest.raises(ValueError):
        make("lru")
