"""Write a tiny random-weight Qwen2 GGUF from llama.cpp's Qwen2 vocabulary file.

The answers of such a model are noise, but everything studybot meets on a
real engine is the engine's own: the Qwen2 tokenizer, the chat template,
the slot cache, structured output and the usage it reports. Run it with the
Python that has llama.cpp's ``gguf-py`` installed (``pip install
LLAMA_CPP/gguf-py``)::

    python bench/tiny_qwen2.py LLAMA_CPP/models/ggml-vocab-qwen2.gguf tiny-qwen2.gguf

The architecture is tiny (2 layers, hidden 64, 4 heads, 2 KV heads) so the
engine runs it on any CPU. The output bias gives ``<|im_end|>`` a head
start (``--end-bias``), so answers end after a random number of tokens,
about 150 on average: some fit the token limit, some are cut and asked again.
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np

try:
    import gguf
except ImportError:  # the bench's own Python need not have it
    sys.exit("needs llama.cpp's gguf-py: pip install LLAMA_CPP/gguf-py")

LAYERS = 2
HIDDEN = 64  # n_embd
HEADS = 4  # query heads; head_dim = 16
KV_HEADS = 2
FFN = 128  # n_ff
CONTEXT = 32768  # n_ctx_train: a 16K server context needs no warning
END_TOKEN = "<|im_end|>"
# The logit bias of <|im_end|>: at 1.55, llama-server's default sampler ended 24 answers to
# short prompts after 14 to 546 tokens, 152 on average (higher ends them sooner).
END_BIAS = 1.55
NOISE = 1.0  # standard deviation of a logit before the bias
# Metadata copied from the vocabulary file as it is: the tokenizer and chat template.
COPIED = ("tokenizer.", "general.name")


def copy_field(writer: gguf.GGUFWriter, field: gguf.ReaderField) -> None:
    """One key of the vocabulary file, with its type, into ``writer``."""
    kind = field.types[0]
    item = field.types[-1] if kind == gguf.GGUFValueType.ARRAY else None
    writer.add_key_value(field.name, field.contents(), kind, sub_type=item)


def write(vocab_path: str, out_path: str, end_bias: float, seed: int) -> None:
    reader = gguf.GGUFReader(vocab_path)
    tokens = reader.fields["tokenizer.ggml.tokens"].contents()
    vocab = len(tokens)
    end_id = tokens.index(END_TOKEN)
    rng = np.random.default_rng(seed)

    writer = gguf.GGUFWriter(out_path, "qwen2")
    writer.add_name("tiny-qwen2")
    writer.add_block_count(LAYERS)
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(HIDDEN)
    writer.add_feed_forward_length(FFN)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(KV_HEADS)
    writer.add_rope_freq_base(1_000_000.0)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    for name, field in reader.fields.items():
        if name.startswith(COPIED) and name != "general.name":
            copy_field(writer, field)

    def matrix(rows: int, cols: int, std: float) -> np.ndarray:
        # numpy's (rows, cols) is ggml's {cols, rows}: the loader's shapes read backwards
        return (rng.standard_normal((rows, cols)) * std).astype(np.float16)

    head_dim = HIDDEN // HEADS
    kv = KV_HEADS * head_dim
    writer.add_tensor("token_embd.weight", matrix(vocab, HIDDEN, 1.0))  # {n_embd, n_vocab}
    writer.add_tensor("output_norm.weight", np.ones(HIDDEN, dtype=np.float32))
    # The final norm makes the hidden state unit-RMS, so this std sets the logits' noise.
    writer.add_tensor("output.weight", matrix(vocab, HIDDEN, NOISE / math.sqrt(HIDDEN)))
    bias = np.zeros(vocab, dtype=np.float32)
    bias[end_id] = end_bias
    writer.add_tensor("output.bias", bias)
    scale = 1.0 / math.sqrt(HIDDEN)
    for i in range(LAYERS):
        blk = f"blk.{i}"
        writer.add_tensor(f"{blk}.attn_norm.weight", np.ones(HIDDEN, dtype=np.float32))
        writer.add_tensor(f"{blk}.attn_q.weight", matrix(HIDDEN, HIDDEN, scale))
        writer.add_tensor(f"{blk}.attn_k.weight", matrix(kv, HIDDEN, scale))
        writer.add_tensor(f"{blk}.attn_v.weight", matrix(kv, HIDDEN, scale))
        writer.add_tensor(f"{blk}.attn_q.bias", np.zeros(HIDDEN, dtype=np.float32))
        writer.add_tensor(f"{blk}.attn_k.bias", np.zeros(kv, dtype=np.float32))
        writer.add_tensor(f"{blk}.attn_v.bias", np.zeros(kv, dtype=np.float32))
        writer.add_tensor(f"{blk}.attn_output.weight", matrix(HIDDEN, HIDDEN, scale))
        writer.add_tensor(f"{blk}.ffn_norm.weight", np.ones(HIDDEN, dtype=np.float32))
        writer.add_tensor(f"{blk}.ffn_gate.weight", matrix(FFN, HIDDEN, scale))
        writer.add_tensor(f"{blk}.ffn_up.weight", matrix(FFN, HIDDEN, scale))
        writer.add_tensor(f"{blk}.ffn_down.weight", matrix(HIDDEN, FFN, 1.0 / math.sqrt(FFN)))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    print(f"wrote {out_path}: qwen2, {LAYERS} layers, hidden {HIDDEN}, vocab {vocab}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vocab", help="llama.cpp's models/ggml-vocab-qwen2.gguf")
    parser.add_argument("out", help="where to write the model, e.g. tiny-qwen2.gguf")
    parser.add_argument("--end-bias", type=float, default=END_BIAS, help="logit bias of <|im_end|>")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    write(args.vocab, args.out, args.end_bias, args.seed)


if __name__ == "__main__":
    main()
