"""One GRPO step with TRL on officegym, end to end, on a tiny model built here from a
config (nothing is downloaded): the env is `officegym.gym.trl_env.environment_factory`,
the data `trl_dataset`, the reward the env's grade.

    pip install 'officegym[trl]' datasets   # trl pulls torch
    python scripts/trl_grpo.py --steps 1

A real run swaps the tiny model and tokenizer for a pretrained tool-calling model
(``GRPOTrainer(model="Qwen/Qwen3-0.6B", ...)``); everything else stays as it is. The
tiny model's rollouts are random text, so its rewards are 0: the script shows the
plumbing (tools rendered in the prompt, tool calls parsed and stepped, grades read back),
not learning.
"""

from __future__ import annotations

import argparse
import time

from datasets import Dataset
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM
from trl import GRPOConfig, GRPOTrainer
from trl.chat_template_utils import qwen3_chat_template

from officegym.gym.tools_env import tool_specs
from officegym.gym.trl_env import environment_factory, trl_dataset

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>",
            "<tool_response>", "</tool_response>", "<think>", "</think>"]  # fmt: skip


def tiny_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    """A byte-level BPE tokenizer trained on `texts`, with Qwen3's chat template."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=2000, special_tokens=SPECIALS))
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.chat_template = qwen3_chat_template
    return fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1)
    parser.add_argument("--template", default="slack.pin-message")
    args = parser.parse_args()

    rows = trl_dataset([args.template], per_template=4)
    specs = tool_specs(("slack",))
    tokenizer = tiny_tokenizer([str(s) for s in specs] + [r["prompt"][0]["content"] for r in rows])
    config = Qwen3Config(
        vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=16384,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
    )  # fmt: skip
    model = Qwen3ForCausalLM(config)
    training = GRPOConfig(
        output_dir="/tmp/officegym-grpo", max_steps=args.steps, per_device_train_batch_size=2,
        num_generations=2, max_completion_length=48, learning_rate=1e-5, report_to="none",
        logging_steps=1, use_cpu=True, save_strategy="no", bf16=False,
    )  # fmt: skip
    trainer = GRPOTrainer(
        model=model,
        args=training,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        environment_factory=environment_factory(args.template.split(".")[0]),
    )
    start = time.perf_counter()
    trainer.train()
    print(f"{args.steps} GRPO step(s) in {time.perf_counter() - start:.1f} s")
    for line in trainer.state.log_history:
        print({k: v for k, v in line.items() if "reward" in k or k == "step"})


if __name__ == "__main__":
    main()
