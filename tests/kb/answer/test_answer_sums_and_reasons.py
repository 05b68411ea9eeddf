"""Figures summed over counted cards (a case's too), figures per kW or per 10,000 CNY, and why-questions about a
mechanism: how it works, then the question's own figures for it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kb.engine import Engine
from kb.understand.mechanisms import card_capacity_gb, mechanisms

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ask(engine: Engine) -> Any:
    return lambda question: engine.answer(question).answer


@pytest.mark.parametrize(("question", "pattern"), [
    # a figure times the count said beside the card, in kW when it is watts
    ("6 块 4090 加起来功耗多大", r"^6 张 RTX 4090 的功耗合计 6 × 450 W = 2,700 W（2.7 kW）"),
    ("combined vram of 3 l40s?", r"^The memory of 3 × L40S adds up to 3 × 48 GB = 144 GB"),
    ("aggregate memory bandwidth of 2 mi300x", r"2 × 5300 GB/s = 10,600 GB/s"),
    # the count read past a word between it ("12 used 4090s")
    ("12 used 4090s - total bf16 tflops", r"12 × 165.2 TFLOPS = 1982.4 TFLOPS"),
])
def test_a_figure_of_counted_cards_is_summed(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # the case's own counts, card by card and over all of them
    ("the fintech deployment case - how much gpu memory across all its cards", r"4 × 80 \+ 12 × 24 = 608 GiB"),
    ("智能制造案例里工厂服务器那几张卡一共多少瓦", r"2 张 RTX 4090 的功耗合计 2 × 450 W = 900 W"),
    # one card of a case, which it does not count: that card's own row
    ("in the smart manufacturing case, the line units use 4060s - how much vram does each have",
     r"^The RTX 4060's VRAM is 8 GiB"),
    # a full training's model states asked outright: 16 bytes a parameter
    ("全参数训练 13b 的模型状态有多大", r"模型状态：13,000,000,000 个参数 × 16 B"),
])
def test_a_cases_cards_and_model_states_are_summed(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    ("l40s 每千瓦多少 tflops", r"^L40S 每千瓦的稠密 BF16 算力：362 TFLOPS ÷ 0.35 kW = 1034.3 TFLOPS"),
    ("how many tflops per 10k cny on an rtx 4080", r"per 10,000 CNY: \d+(\.\d+)? TFLOPS ÷ 0.9499 = \d+(\.\d)? TFLOPS"),
    ("a100 80g perf per watt?", r"312 TFLOPS ÷ 400 W = 0.78 TFLOPS per watt"),
    ("h200 每万元多少显存", r"^指南和 kb 收录的厂商资料都没有 H200 的价格"),  # no price, no ratio
    # two cards per watt: each card's ratio first, then the figures set against each other
    ("l4 和 l40s 哪个每瓦算力高", r"^L4 每瓦的稠密 BF16 算力：.*L40S 每瓦的稠密 BF16 算力："),
])
def test_a_figure_per_kw_or_per_money_divides_the_record(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "topics"), [
    ("为什么 zero3 显存占用这么低", ["zero3"]),
    ("how does fsdp let a big model train on small cards", ["zero3"]),
    ("为啥 34b 要量化成 4bit 才能进 24g 的卡", ["quantize"]),
    ("why can people fine-tune a 33b on a single 24gb card", ["qlora"]),
    ("why do longer prompts mean fewer concurrent users", ["context_users"]),
    ("为什么多卡张量并行走 pcie 很慢", ["tp_link"]),
    ("why is decode speed set by memory bandwidth", ["decode_bandwidth"]),
    ("为啥长上下文推理更吃显存", ["context_users"]),
    ("why does the kv cache cap how many users one card serves", ["context_users"]),
    ("为什么说 kv 缓存决定了能开多少并发", ["context_users"]),
    ("how come fine-tuning eats way more vram than just running inference", ["train_memory"]),
    ("训练一个模型为啥比推理多占那么多显存", ["train_memory"]),
    ("why does inference depend on memory bandwidth rather than tflops", ["decode_bandwidth"]),
    ("为什么 lora 比全量微调省显存这么多", ["lora"]),
    ("4 张 4090 张量并行跑 70b 为啥延迟反而高", ["tp_link"]),
    ("why is mixed precision adam 16 bytes per param", ["adam_bytes"]),
    ("为啥单路生成的速度取决于带宽", ["decode_bandwidth"]),
    ("how come an moe with 47b params decodes like a 13b", ["moe"]),
    ("为啥批量大了吞吐就上去了", ["batching"]),
    ("why does activation checkpointing cut memory", ["checkpointing"]),
    ("为什么显存占用比权重大那么多", ["beyond_weights"]),
    ("why can't two 4090s pool their vram into 48gb", ["no_pooling"]),
    ("为什么 h100 上用 fp8 吞吐更高", ["fp8_rate"]),
    ("why are long-context requests so slow", ["long_context"]),
    ("why is the l40s slower at decode than an h100", ["decode_bandwidth"]),
    ("为啥 h20 的 96g 在 nvidia-smi 里只剩 95g 多", ["driver_capacity"]),
    ("my l40s only reaches 30 tok/s on a 14b though the theoretical bound is 45 - how come", ["bound_gap"]),
    ("为什么实测解码速度达不到带宽算出来的上限", ["bound_gap", "decode_bandwidth"]),
    ("为什么 4060 ti 多卡同步一次梯度比 4070 慢那么多", ["dp_sync"]),
    ("why does the gradient all-reduce take so long on pcie cards", ["dp_sync"]),
    ("why does deepseek v3 cache so little kv for its size", ["mla"]),
    ("为啥 mistral 7b 上下文拉到 16k kv 显存没翻倍", ["window"]),
    ("why does vllm leave so much less than 80gb for the kv cache", ["vllm_util"]),
    ("为什么训练时间估算不按 100% mfu", ["mfu"]),
    ("why do nccl tests on h200s see far less than nvlink's 900 GB/s", ["link_direction"]),
    ("为什么 405b 那么大的集群 张量并行也只开到 8 跨节点用流水线", ["tp_node"]),
    ("qwen3 14b 的 head dim 为啥不是 hidden 除以头数", ["head_dim"]),
    # a card too small to train what it serves: what training keeps beside the weights
    ("为啥说 4080 不适合训练大模型", ["train_memory"]),
    ("why isn't a single l40s great for training big models", ["train_memory"]),
    # two cards merged into one bigger card: they do not pool
    ("why can't i just merge two l40s into a single 96gb card", ["no_pooling"]),
    ("为啥两张4090不能当成一张48G的卡用", ["no_pooling"]),
    # a long context against two cards' memory is its KV cache
    ("why do people say the a100 is better for long context inference", ["context_users"]),
    ("长上下文的服务 为啥 h200 比 l40s 更适合", ["context_users"]),
    ("what is zero-3", []),  # not a why: the guide's own words
    ("为什么 4090 的 int8 算力比 a100 高", []),  # a figure of two cards, not quantizing
])
def test_the_mechanism_a_why_question_asks_about(question: str, topics: list[str]) -> None:
    assert mechanisms(question) == topics


@pytest.mark.parametrize(("question", "pattern"), [
    ("为什么两张 4060 ti 16g 同步梯度比两张 4070 慢",
     r"^原理：数据并行.*RTX 4070 的 ?PCIe 带宽是 (?:2 张 )?RTX 4060 Ti 16GB 的 2\.00 倍（64 GB/s 对 32 GB/s"),
    ("why is syncing gradients across 4060 ti 16gb cards slower than across 4070s",
     r"^How it works: in data-parallel training.*The RTX 4070's PCIe bandwidth is 2\.00× the RTX 4060 Ti 16GB's"),
])
def test_a_why_about_a_gradient_sync_between_two_cards_leads_with_their_links(ask: Any, question: str,
                                                                              pattern: str) -> None:
    assert re.search(pattern, ask(question), re.S)


def test_a_cards_capacity_said_without_a_card() -> None:
    assert card_capacity_gb("why quantize for a 12gb card") == 12
    assert card_capacity_gb("16g 的卡为什么要量化") == 16
    assert card_capacity_gb("why quantize a 70b") is None


@pytest.mark.parametrize(("question", "pattern"), [
    # how it works, then the weights in 16-bit and in the format, against the card described
    ("为什么 14b 要量化到 int4 才能放进 16g 的卡",
     r"^原理：权重显存.*14b 仅权重在 16 位下约 26\.\d GiB，INT4 下约 7\.\d GiB.*"
     r"16 GB 的卡有 14\.9 GiB：16 位权重放不下"),
    # the KV mechanism, then the check's own tokens at its context and twice it
    ("why does qwen2.5 7b on an l40s serve half the users when the context doubles",
     r"^How it works: every sequence keeps the KV cache.*tokens of KV cache fit: (\d+) sequences at 4,096"),
    ("zero-3 为啥能让 8 张 4090 训下 13b", r"^原理：.*分片"),
])
def test_a_why_about_a_mechanism_says_how_it_works_then_the_figures(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # two sets of counted cards set against each other: the dearer first, with the difference
    ("3 张 4080 还是 1 张 4090 加 2 张 4060 ti 16g，哪个贵",
     r"^3 张 RTX 4080（28,497 元）是 .*的 [\d.]+ 倍，贵 \d[\d,]* 元"),
    # a budget over one card's price: the count and what is left, no guide budget band beside it
    ("how many 4070s can 100k cny buy", r"^100,000 CNY buys \d+ × RTX 4070 at"),
    ("how many l40s can 100k cny buy", r"^There is no price for the L40S[^.]*\[\d\]\.$"),  # and nothing of other cards
    ("五万能买几张 4080 还剩多少", r"^50,000 元按每张 9,499 元可买 5 张 RTX 4080（共 47,495 元，剩 2,505 元）"),
    # why one card is slower than another: the figures that decide, the same ones and the one that differs
    ("why would an h800 cluster train slower than an h100 cluster",
     r"^The H100 SXM's NVLink bandwidth is 2\.25× the H800's \(900 GB/s vs 400 GB/s.*same dense BF16 compute"),
    ("what would 2 l40s cost a month in power", r"^2 × L40S at 350 W \(TDP\), run around the clock"),
    # a power bill at the price the question gives
    ("8 张 l40s 一个月电费 按 0.8 元/度", r"^8 张 L40S 按 TDP 350 W 全天候运行.*按 0\.8 元/kWh（问题给的电价）"),
    # an individual developer's pick carries the guide's advice for them
    ("hobbyist, ~8k cny, first gpu for local llms?", r"advice for individual developers: .*RTX 4070 or 4080"),
    # benchmarks and tuning tools are another field
    ("4090 跑 3dmark speed way 多少分", r"不涉及"),
    ("best afterburner undervolt for a 4080", r"does not cover"),
])
def test_two_sets_priced_budgets_bills_and_reasons_between_cards(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


def test_the_same_money_as_the_earlier_card_is_a_budget(engine: Engine) -> None:
    a = engine.answer("那同样的钱能买几张 l40s 显存一共多少", history=["h100 多少钱"])
    assert "budget_cny" not in a.changed  # the H100 has no price: no budget to spend
    b = engine.answer("and for the same money, how many 4080s - total vram?", history=["price of an a100 80gb?"])
    assert re.search(r"150,000 CNY buys 15 × RTX 4080.*15 × 16 GiB = 240 GiB", b.answer), b.answer
    assert "budget_cny" in b.changed


@pytest.mark.parametrize(("question", "pattern"), [
    # after the seventh round's test run: totals of cards counted once each, "cards only" as a price, a price per
    # GB, two sets in percent, repairs and installs as another field, a why with no card named
    ("一张 4080 和一张 4070 加起来多少钱", r"^1 张 RTX 4080＋1 张 RTX 4070 合计约 14,298 元"),
    ("6 h100s... no wait, 6 a800s - cards only, total?", r"6 × A800|no price for the A800"),
    ("l40s vs 4090: price per gb of vram", r"RTX 4090's price per GiB of memory: 19,000 CNY ÷ 24 GiB = 791.7 CNY"),
    ("in percent, how much cheaper are 2 4090s than 1 a100 80gb", r"2 × RTX 4090 is 74\.7% cheaper"),
    ("my 4080's power connector melted, is that covered by warranty", r"does not cover"),
    ("同时在线的人一多 上下文一长 为啥就不够用了", r"^原理：每个会话都要保存 KV 缓存"),
    ("why does full fine-tuning with adam eat 16 bytes a param", r"^How it works: mixed-precision Adam keeps"),
])
def test_the_seventh_rounds_misses_in_other_words(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # the mechanism first, then the card's own figures: FP8 against BF16 on the same card
    ("h200 用 fp8 为什么更快",
     r"^原理：有 FP8 张量核心的卡.*H200 的稠密 FP8 算力是其稠密 BF16 的 2\.00 倍：1979 TFLOPS 对 989\.4"),
    # why one card decodes faster: decoding is memory-bound, then the bandwidths
    ("why does the h200 generate tokens faster than the h100", r"^How it works: generating each token reads all the "
     r"weights.*The H200's memory bandwidth is 1\.43× the H100 SXM's"),
])
def test_a_why_about_a_rate_says_the_mechanism_then_the_cards_figures(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # the part of the case that holds what is asked leads, whichever part it is
    ("大学那个团队最后有没有出论文", r"^结果：.*论文"),
    ("did the university group get any publications out of their 4090s?", r"^Outcome: .*papers"),
    # a count asked of a case is its hardware, even with "多少"
    ("实验室那个案例一共多少张 a100", r"^硬件：.*128张A100"),
    # a card the case does not use: said so, then what it does count, summed as asked
    ("how many h100s are in the manufacturing case, and their combined memory?",
     r"^This case uses no H100 SXM: the cards it counts are 2 × RTX 4090.*2 × 24 GiB = 48 GiB"),
    # a case's card at the count the question gives it: 25 researchers × 2 RTX 4090 = 50 × 19,000
    ("研究实验室的案例 要是 25 个研究员每人配 2 张 4090 光卡多少钱",
     r"^按指南的单卡价格，这个案例的显卡（50 张 RTX 4090）合计约 950,000 元"),
    # what a case used, asked in the past tense of its cards: the case, not a fit check of the cards named
    ("the open-source training case - were its gpus a100s?", r"^Hardware: Llama 3\.1 405B: 16,384 H100"),
    # of the guide's two fintech cases, the one with an inference part when inference is asked
    ("金融科技那家做推理用的是什么卡", r"^硬件：.*推理环境.*12卡RTX 4090"),
])
def test_a_case_answers_the_part_asked_and_says_what_it_lacks(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # a why between two cards turns on the figure its words name (decoding: bandwidth), though another is bigger
    ("为什么 4060 ti 16g 显存比 4070 大 出 token 反而慢", r"RTX 4070 的显存带宽是 RTX 4060 Ti 16GB 的 1\.75 倍"),
    # a pick for one person is the guide's line for individual developers, at the level said
    ("hobbyist here, which gpu should i get to start learning llms", r"^The guide's advice for individual developers: "
     r"For entry-level applications, the RTX 4070 or 4080"),
])
def test_a_why_between_cards_and_a_pick_for_one_person(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # QLoRA's why: the frozen base in 16-bit against 4-bit, from the question's QLoRA check (14.7e9 × 2 B = 27.4 GiB)
    ("why does qlora let a 16gb 4080 tune qwen2.5 14b when plain lora won't",
     r"For qwen2\.5-14b, the weights alone are about 27\.\d GiB in 16-bit and \d+\.\d GiB in 4-bit"),
])
def test_qlora_why_gives_the_base_in_sixteen_and_four_bits(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "name"), [
    ("平头哥含光 800 能跑 qwen2.5 7b 吗", "含光"), ("is a cambricon siyuan 590 any good for llama 3 8b", "siyuan"),
    ("讯飞星火 私有化部署 要多少显存", "星火"), ("run zhipu glm on one l40s?", "zhipu"),
    # older and workstation cards named by their family word, never checked as another card
    ("titan v 能推理 llama 3 8b 吗", "titan"), ("quadro p6000 for a 13b?", "quadro"),
    ("tesla k80 还能用来跑 7b 吗", "tesla"), ("radeon pro vii vs a100 for inference", "radeon"),
])
def test_more_names_kb_lacks_are_named_as_unknown(engine: Engine, question: str, name: str) -> None:
    answer = engine.answer(question)
    assert any(name in u.lower() for u in answer.unknown), answer.unknown


@pytest.mark.parametrize(("question", "pattern"), [
    # a difference asked in percent is said both ways: 1008 / 864 − 1 = 16.7 % more, 1 − 864 / 1008 = 14.3 % less
    ("l40s vs 4090 memory bandwidth, how many percent apart", r"16\.7% more; the L40S has 14\.3% less"),
    ("h200 的显存带宽比 h100 高百分之几", r"高 43\.3%；H100 SXM 低 30\.2%"),
])
def test_a_difference_in_percent_is_said_both_ways(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # counted cards priced against a stated budget: the total, then what is left or how far over, no selection
    ("手上 8 万预算，两张 4090 加两张 4080 一共多少，还剩多少", r"^2 张 RTX 4090＋2 张 RTX 4080 合计约 56,998 元.*"
     r"预算 80,000 元减去显卡 56,998 元，还剩 23,002 元"),
    ("with 60k cny, would 4 4090s fit the budget or how far over?", r"^4 × RTX 4090 cost about 76,000 CNY.*"
     r"That is 16,000 CNY over the 60,000 CNY budget"),
])
def test_counted_cards_against_a_budget(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


def test_a_rate_on_a_count_that_does_not_fit_says_so_before_the_rate_that_does(ask: Any) -> None:
    answer = ask("qwen2.5 32b fp16 单张 a100 40g 每秒几个 token")
    assert re.match(r"^1 张 A100 40GB 上没有速度|^.{0,40}A100 40GB.{0,20}(?:放不下|没有速度)", answer), answer


@pytest.mark.parametrize(("question", "pattern"), [
    ("一张 h200 放 qwen2.5 72b int8 之后 还有多少显存留给 kv cache",
     r"^放下权重后，1 张 H200 约剩 \d+\.\d GiB 给 KV 缓存：约 [\d,]+ token"),
    ("l40s with llama 3 8b fp16 - how much kv headroom is there?",
     r"^Beside the weights there are about \d+\.\d GiB left for the KV cache on one L40S"),
])
def test_the_room_left_for_the_kv_cache_is_said_first(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


def test_a_fit_question_that_also_asks_the_cards_power_sums_it_first(ask: Any) -> None:
    answer = ask("4 张 l40s 全参训练 qwen2.5 7b 够不够，顺便算下总功耗多少千瓦")
    assert answer.startswith("4 张 L40S 的功耗合计 4 × 350 W = 1,400 W（1.4 kW）"), answer


def test_a_why_for_picking_one_card_over_another_sets_their_figures_side_by_side(ask: Any) -> None:
    answer = ask("why choose an rtx 6000 ada over a 4090 for a workstation llm box")
    assert re.search(r"RTX 6000 Ada", answer) and re.search(r"(?:memory|power).{0,40}×", answer), answer


@pytest.mark.parametrize(("question", "pattern"), [
    # counted sets compared by their sums: 3 × 48 = 144 GB against 141 GB
    ("three l40s vs one h200, which has more memory in total", r"^The 3 × L40S's memory is 1\.02× the H200's "
     r"\(144 GB vs 141 GB, 3 GB more\)"),
    ("2 张 4080 和 1 张 4090 总带宽哪个高",
     r"^2 张 RTX 4080 的显存带宽是 RTX 4090 的 1\.42 倍（1433\.6 GB/s 对 1008 GB/s"),
])
def test_counted_sets_of_two_cards_are_compared_by_their_sums(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    ("四张 4060ti 16g 加一张 4090 光卡一共多少", r"^4 张 RTX 4060 Ti 16GB＋1 张 RTX 4090 合计约 34,596 元"),
    ("quote me 6 rtx 4080s, gpus only", r"^6 × RTX 4080 cost about 56,994 CNY for the cards alone"),
])
def test_a_price_asked_as_a_quote_or_cards_only(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "pattern"), [
    # a card a case names without a count, priced by its record
    ("智能制造那个案例 产线边缘用的 4060 一张多少钱", r"^RTX 4060 的参考价格是 2,399 元"),
    # a case's cards run flat out for a span at a price given: the bill, not the cards' price
    ("the university team's 8 4090s flat out for a month at 0.8 cny/kwh - cost?",
     r"^8 × RTX 4090 at 450 W \(TDP\), run around the clock: about 2,592 kWh a month"),
    # "how much hbm" of a case's counted cards is their memory summed
    ("研究实验室那 128 张 a100 的 hbm 加起来多少", r"128 × 80 GiB = 10,240 GiB|128 张 A100 80GB 的显存合计"),
])
def test_case_cards_priced_billed_and_summed(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


def test_why_the_driver_shows_less_memory_gives_the_records_figures(ask: Any) -> None:
    answer = ask("how come nvidia-smi reports less than the 141 gb an h200 is sold with")
    assert re.search(r"^How it works: nvidia-smi counts binary MiB.*The H200: 141 GB nominal is 131\.3 GiB; "
                     r"the driver reports [\d,]+ MiB", answer), answer


@pytest.mark.parametrize(("question", "pattern"), [
    ("rtx 5090 plugs into what pcie generation?",
     r"^The RTX 5090 connects to the host over PCIe 5\.0 x16 \(16 lanes\): 128 GB/s"),
    ("4060 是 pcie 4.0 x8 还是 x16", r"^RTX 4060 通过 PCIe 4\.0 x8（8 条通道）连接主机：双向 32 GB/s"),
])
def test_the_host_links_generation_is_read_off_its_pcie_figure(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question))


@pytest.mark.parametrize(("question", "patterns"), [
    # two asks in one message: the memory summed and the year's bill, each said
    ("4 张 l40s 显存一共多少，全年满载电费呢", [r"4 张 L40S 的显存合计 4 × 48 GB = 192 GB", r"约耗电 12,264 kWh"]),
    ("six h200s: combined memory, plus a year's electricity at full load?",
     [r"6 × H200 at 700 W .*36,792 kWh a year", r"6 × 141 GB = 846 GB"]),
])
def test_a_sum_and_a_power_bill_asked_together_are_both_answered(ask: Any, question: str,
                                                                  patterns: list[str]) -> None:
    answer = ask(question)
    assert all(re.search(p, answer) for p in patterns), answer


def test_one_cards_two_records_are_billed_each_not_added_up(ask: Any) -> None:
    answer = ask("a100 一个月电费多少")  # "A100" names the 40GB and the 80GB record: neither is a count of cards
    assert "全部显卡合计" not in answer and re.search(r"A100 40GB 按 TDP 400 W", answer)


@pytest.mark.parametrize(("question", "pattern"), [
    # how many of the cheaper card one card's money buys, and what is left of it
    ("一张 a100 80g 的钱能换几张 4060 还剩多少",
     r"一张 A100 80GB 的价格够买 62 张 RTX 4060（62 × 2,399 = 148,738 元，还剩 1,262 元）"),
    # the money of several cards, not of one
    ("for what 4 a100s cost, how many 4070 tis could we get?",
     r"The price of 4 × A100 80GB \(600,000 CNY\) buys 92 × RTX 4070 Ti \(92 × 6,499 = 597,908 CNY, 2,092 CNY left"),
    # a budget spent in two steps: the counted cards first, then as many of the other as the rest covers
    ("预算 五万 先上一张 4090 剩下的全买 4060 ti 16g 能买几张",
     r"^50,000 元先买 1 张 RTX 4090（19,000 元），剩 31,000 元，按每张 3,899 元可买 7 张 RTX 4060 Ti 16GB"
     r"（共 27,293 元，最后剩 3,707 元）"),
    ("with 100k cny: three 4090s first, then how many 4080s with what remains?",
     r"^100,000 CNY less 3 × RTX 4090 \(57,000 CNY\) leaves 43,000 CNY, which buys 4 × RTX 4080 at 9,499 CNY each"),
])
def test_money_spent_on_cards_says_what_is_left(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    ("rtx 6000 ada: how much memory is left once ecc is on?",
     r"^With ECC on, the RTX 6000 Ada's driver reports 46,068 MiB \(45\.0 GiB\); with it off, 49,140 MiB"),
    ("l40s 关掉 ecc 能多出多少显存", r"^L40S 开启 ECC 时驱动报告 46,068 MiB.*ECC 占去 3,072 MiB（6\.25 %）"),
    ("does ecc cost memory on an h100", r"^kb's figures for the H100 SXM do not say what ECC does to its memory"),
])
def test_ecc_is_answered_from_the_records_two_driver_totals(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    ("why does qwen2.5 7b cache so much less kv a token than llama 2 7b",
     r"^(?=.*grouped-query attention)(?=.*llama-2-7b: 2 \(a key and a value\) × 32 layers × 32 KV heads × 128)"
     r"(?=.*qwen2\.5-7b: 2 \(a key and a value\) × 28 layers × 4 KV heads × 128)"),
    ("mistral 7b 每个 token 的 kv 缓存多大",
     r"mistral-7b：2（K 和 V）× 32 层 × 8 个 KV 头 × 每头 128 维 × 2 字节 = 每 token 131,072 字节"),
])
def test_kv_bytes_a_token_show_the_shape_they_multiply(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question), re.S), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # a card the case names without counting it, billed one at a time; an electricity price said in words
    ("制造业那个案例 边缘的 4060 小盒子 一台一个月电费多少 电价五毛一度",
     r"^1 张 RTX 4060 按 TDP 115 W 全天候运行，一个月（720 小时）约耗电 82\.8 kWh：按 0\.5 元/kWh（问题给的电价）"),
    # a case's two counted parts priced against each other
    ("fintech case, gpus only: the 12 4090s for inference vs the 4 a100s for training - ratio of their cost?",
     r"^4 × A100 80GB \(600,000 CNY\) costs 2\.63× 12 × RTX 4090 \(228,000 CNY\)"),
])
def test_a_cases_cards_billed_and_set_against_each_other(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    ("nvidia-smi 里 h200 的显存会显示多少", r"^H200：标称 141 GB 即 131\.3 GiB；驱动报告 [\d,]+ MiB"),
    ("usable vram on an rtx 4080 as the driver reports it?", r"^The RTX 4080: .*the driver reports [\d,]+ MiB"),
    ("an l4 with ecc on: what total does nvidia-smi show",
     r"^With ECC on \(its default\), the L4's driver reports 23,034 MiB"),
])
def test_what_the_driver_reports_is_the_records_driver_total(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    ("a100 80gb 装机后驱动里报多少 MiB", r"^A100 80GB：标称 80 GiB；驱动报告 81,920 MiB"),
    ("h200 bf16 with sparsity: how many tflops?", r"^The H200's BF16 sparse[^.]* is 1979 TFLOPS"),
    ("b200 的 FP8 稀疏算力是多少", r"^B200 的FP8 稀疏是 9000 TFLOPS"),
    # sparsity turned off is the dense row, though the question says "稀疏"
    ("h200 关掉稀疏以后 fp16 是多少 tflops", r"^H200 的BF16 稠密[^。]*是 989"),
])
def test_the_driver_total_and_a_sparse_rate_are_the_rows_asked(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


def test_deepseeks_kv_a_token_is_its_latent_times_its_layers(ask: Any) -> None:
    answer = ask("deepseek v3 的 kv 每个 token 多少字节")
    assert re.search(r"deepseek-v3（MLA）：61 层 ×（512 维潜在向量 \+ 64 维 rope 键）× 2 字节 = "
                     r"每 token 70,272 字节", answer)



@pytest.mark.parametrize(("question", "pattern"), [
    ("l40s 走的是 pcie5 还是 pcie4", r"^L40S 通过 PCIe 4\.0 x16（16 条通道）连接主机：双向 64 GB/s"),
    ("tflops per 10k cny on an rtx 4080", r"= 102\.6 TFLOPS per 10,000 CNY"),  # one decimal above 100
    ("4090 每万元多少显存", r"24 GiB ÷ 1\.9 = 12\.63 GiB"),  # two decimals between 1 and 100
])
def test_a_pcie_generation_named_and_a_figure_per_money_at_its_precision(ask: Any, question: str,
                                                                       pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # why a model does not fit: what the memory is made of, weights first, before the verdicts
    ("为啥 4090 放不下 qwen2.5 32b fp16", r"^qwen2\.5-32b fp16 推理总共约需 70 GiB：权重 61 GiB"),
    ("why won't mistral 7b in fp32 fit on an l4", r"^Inference of mistral-7b in fp32 needs about [\d.]+ GiB in all: "
                                                  r"weights 27 GiB"),
])
def test_why_a_model_does_not_fit_leads_with_what_its_memory_holds(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # two cards' memory when one record is in decimal GB: as the driver reports each, the ratio like with like
    ("mi300x 和 a100 80g 显存差几倍", r"MI300X 的显存是 A100 80GB 的 2\.24 倍（192 GB = 178\.8 GiB 对 80 GiB"),
    ("rtx 6000 ada vs rtx 4090 memory",
     r"The RTX 6000 Ada's memory is 1\.86× the RTX 4090's \(48 GB = 44\.7 GiB vs 24"),
    ("is the h800's memory the same as the h100's", r"H100 SXM have the same memory: .* 80 GB and 80 GiB"),
    # a card judged for a workload: what the card is, then the figures that workload turns on
    ("why is the l40s poor at training", r"^L40S: .*dense compute.*362 TFLOPS.*no NVLink"),
    ("why is the l40s poor at multi-gpu training", r"^The L40S has no NVLink"),
    ("为什么 h20 做训练不行", r"^H20：.*张量算力大幅削减.*148 TFLOPS"),
    # a price over dense compute, and compute over watts when efficiency is asked
    ("h100 no price, but 4080: rmb per dense tflops?", r"RTX 4080's price per dense BF16 TFLOPS: 9,499 CNY ÷ 97\.5 "
                                                       r"TFLOPS = 97\.4 CNY"),
    ("l4 和 4060 哪个能效高", r"每瓦的稠密 BF16 算力：121 TFLOPS ÷ 72 W = 1\.68"),
])
def test_memory_across_units_a_judged_card_and_prices_or_watts_per_tflops(ask: Any, question: str,
                                                                        pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # how many isolated MIG slices a card splits into, from its record; a card that has none says so
    ("h800 能分成几个 mig", r"^H800 的MIG 实例：最多 7 个"),
    ("does the l4 do multi-instance gpu", r"^L4, MIG instances: not supported"),
    ("b200 mig instances?", r"^B200, MIG instances: up to 7"),
])
def test_mig_instances_are_the_records_row(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


def test_a_why_about_a_card_quotes_nothing_the_guide_says_of_another_line(ask: Any) -> None:
    # §4.4's unnamed "不支持NVLink，多卡并行效率较低" is the RTX series'; the H20 has NVLink
    answer = ask("h20 的算力为什么比 h100 低这么多")
    assert "不支持NVLink" not in answer and "148" in answer, answer


@pytest.mark.parametrize(("question", "pattern"), [
    # the time to the first token, when asked, is the prefill of the prompt, said first
    ("a100 80g 跑 qwen2.5 14b 4k 的提示词 首字延迟多久",
     r"^首 token 时间：qwen2\.5-14b fp16 推理在 1 张 A100 80GB 上、4,096 token 的提示词约 [\d.]+ 秒"),
    # users at once asked their speed: the serving rates, each and in all, not a single stream's bound
    ("8 people sharing one h100 on llama 3 8b - tok/s each?", r"^Serving 8 sequences at once: about [\d,]+ tokens/s in "
                                                             r"all, [\d,]+ tokens/s each"),
])
def test_first_token_latency_and_users_speed_are_what_is_said_first(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # several tenants on one card: its MIG instances, not a rental price ("多租户" is no "租")
    ("a100 为啥适合给好几个团队共用一张卡", r"^A100 40GB 的MIG 实例：最多 7 个"),
    ("why does the h100 suit a multi-tenant cluster", r"^H100 SXM, MIG instances: up to 7"),
])
def test_sharing_one_card_among_tenants_is_its_mig_instances(ask: Any, question: str, pattern: str) -> None:
    answer = ask(question)
    assert re.search(pattern, answer), answer
    assert not re.search(r"租用价格|rental price", answer)


@pytest.mark.parametrize(("question", "pattern"), [
    # a training pick with no budget leads with §11.1's first choice for the model's size
    ("pretraining a 2b model, which gpus?", r"^The guide's advice for small and medium-scale model training "
                                           r"\(<10B parameters\): First choice: a single-card or dual-card RTX 4090"),
    ("要从头训一个 40b 的模型 买什么卡",
     r"^指南对大规模模型训练（10B-70B参数）的建议：首选：A100 40GB或多卡RTX 4090集群"),
    ("full training a 180b model - what hardware", r"^The guide's advice for very large-scale model training "
                                                   r"\(>70B parameters\): First choice: A100 80GB"),
    ("qlora 微调 qwen2.5 32b 选什么卡", r"^指南对模型微调和实验的建议：首选：RTX 4090或RTX 4080"),
    # a fine-tune with no method said is ranked as full training first, but it is the guide's fine-tuning advice
    ("which gpu setup for finetuning a 13b", r"^The guide's advice for model fine-tuning and experimentation"),
])
def test_a_training_pick_without_a_budget_leads_with_the_guides_rule_for_its_size(ask: Any, question: str,
                                                                                  pattern: str) -> None:
    assert re.search(pattern, ask(question))


def test_a_cases_own_comparison_comes_before_a_named_cards_price(ask: Any) -> None:
    answer = ask("in the 8-card 4090 fintech case, what was the cost versus going with a100s")
    assert re.match(r"^Outcome: Total cost was only 15% of the A100 option", answer), answer


@pytest.mark.parametrize(("question", "pattern"), [
    # a training time asked of cards that cannot hold the job: the time on the fewest that can, thousands and all
    ("how many days to pretrain a 65b on 8 a100 80gb, 1.4T tokens",
     r"There is no training time for 8 × A100 80GB.*Training time: about \d{1,3}(?:,\d{3})*\.\d days on "
     r"\d+ × A100 80GB"),
    ("4 张 h100 全参训练 34b 2000亿 token 要多久", r"4 张 H100 SXM 放不下这个任务，所以没有训练时间估计.*训练时间："),
])
def test_a_time_asked_of_too_few_cards_is_given_on_enough(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # a capacity said without a card: checked on the cards kb has of that memory, not the A100
    ("would 16gb be enough to serve mistral 7b in fp16", r"^No: inference of mistral-7b in fp16 needs .* on one RTX "
                                                         r"4060 Ti 16GB"),
    ("48g 显存的卡 能跑 qwen2.5 32b int8 吗", r"^能：qwen2.5-32b int8 推理在 1 张 (A40|L20|L40S|RTX A6000) 上"),
    # the memory to spare, asked beside the verdict
    ("qwen2.5 14b int8 on an rtx 4090 - fits? how much margin", r"That leaves about [\d.]+ GiB per card to spare on "
                                                               r"one RTX 4090"),
    ("h200 跑 llama3 70b int8 还剩多少显存", r"1 张 H200 每卡约还剩 [\d.]+ GiB 余量"),
])
def test_a_memory_said_without_a_card_and_the_memory_to_spare(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # where kb quotes the guide's "one or two 4090s for <10B training", it says full training does not fit there
    ("pretraining a 1b model, which gpus?", r"single-card or dual-card RTX 4090 configuration \[\d\]\. Note: the model "
                                           r"states for full-parameter training of a 7B model are about 112 GB"),
    # the guide's "INT8 shrinks a model 4×", quoted in English, carries its FP32 correction as in Chinese
    ("is it true int8 makes a model 4x smaller", r"(?s)§7\.3.*(4x|4 times).*FP32.*(2 times|2×|half)"),
])
def test_the_guides_misleading_lines_carry_their_correction(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    # the asker's own team serving many users, models said to be small: §11.2's setting and its small-model line
    ("咱们公司要做高并发的推理服务 模型比较小 该买什么卡",
     r"^指南对高并发企业级推理服务的建议：推荐配置：根据模型规模和并发需求选择A100或RTX 4090集群 \[\d\]。"
     r"小规模模型：RTX 4090通常是最佳选择"),
    ("our platform needs enterprise serving for lots of users, and the models are large - which gpus",
     r"^The guide's advice for high-concurrency enterprise inference services: .*A100 or RTX 4090 cluster.*"
     r"Large models: consider A100"),
    # a run of days or weeks: the guide's ECC lines, the card that has it and the cards that lack it
    ("a100 vs 4090 for training that runs for weeks - why would the a100 be safer",
     r"^§3\.3 \(Advantages of the A100 in LLM training\): ECC memory support reduces memory errors.*"
     r"§4\.4 \(Limitations of the RTX series\): No support for ECC memory"),
    ("4090 能不能 7x24 连续训练一个月",
     r"^§3\.3（A100在LLM训练中的优势）：ECC内存支持.*§4\.4（RTX系列的局限性）：不支持ECC内存"),
])
def test_a_setting_said_without_a_model_and_long_runs_get_the_guides_lines(ask: Any, question: str,
                                                                            pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize("question", ["half marathon training plan for a beginner?", "健身房新手训练计划推荐"])
def test_training_a_body_is_not_covered(engine: Engine, question: str) -> None:
    answer = engine.answer(question)
    assert answer.coverage == "not_covered" and not answer.fit_checks and answer.selection is None


def test_a_pick_in_words_the_guide_never_uses_is_still_a_pick(engine: Engine) -> None:
    answer = engine.answer("设计院想内网私有化部署大模型 图纸不能外传 该采购什么显卡")
    assert answer.coverage != "not_covered" and re.search(r"RTX|A100|H100|L40S", answer.answer)


@pytest.mark.parametrize(("question", "pattern"), [
    # nothing to size: the guide's picks by model size, said as such, and §11.1's under-10B note
    ("our lab wants to train models in-house, which gpus should we get",
     r"^No model or budget is named, so kb has nothing to size.*<10B parameters\): First choice: a single-card or "
     r"dual-card RTX 4090.*>70B parameters\): First choice: A100 80GB.*112 GB"),
    ("公司准备本地部署大模型做内部问答 应该采购什么显卡",
     r"^问题没有给出模型或预算，kb 无从计算；指南的选择取决于模型规模。小规模模型：RTX 4090通常是最佳选择.*"
     r"大规模模型：考虑A100"),
])
def test_a_pick_with_nothing_to_size_gives_the_guides_picks_by_size(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


def test_a_team_doing_it_themselves_is_not_one_person() -> None:
    from kb.understand.audience import for_an_individual

    assert not for_an_individual("我们团队打算自己训练 买哪种卡") and for_an_individual("我自己在家跑模型 买哪张卡")
    assert not for_an_individual("department lab, 500k cny, mostly student theses plus two big runs")
    assert for_an_individual("phd student with a small budget, which card for local llms")


@pytest.mark.parametrize(("question", "pattern"), [
    ("why do people say geforce drivers lag behind professional cards",
     r"^§4\.4 \(Limitations of the RTX series\): Driver optimization focuses more on gaming than on professional "
     r"computing \[\d\]\.$"),
    # a fine-tuning pick: §11.1's block first, then the one-card ranking (one of each priced consumer card)
    # a card's drivers and enterprise support, asked of one card: §4.4's line
    ("4070 ti 的驱动和企业级支持咋样", r"^§4\.4（RTX系列的局限性）：驱动程序优化更侧重于游戏而非专业计算 \[\d\]。"),
    ("qlora 为主的微调实验 配什么卡", r"^指南对模型微调和实验的建议：首选：RTX 4090或RTX 4080 \[\d\]。"
                                r"单张消费级显卡显存最大：1 张 RTX 4090，24 GiB，19,000 元 \[S\]。$"),
])
def test_the_guides_own_line_leads_for_drivers_and_fine_tuning_picks(ask: Any, question: str,
                                                                                   pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


@pytest.mark.parametrize(("question", "pattern"), [
    ("can a 16gb 4060 ti qlora qwen2.5 14b?",
     r"^No: QLoRA fine-tuning of qwen2.5-14b needs about 17\.2 GiB .*With rank-16 adapters \(the rank common tools "
     r"default to; kb assumes the QLoRA paper's 64\) it fits on one RTX 4060 Ti 16GB \(14\.7 GiB per GPU\)"),
    ("4060ti 16g 上 qlora 微调 qwen2.5 14b 行不行",
     r"^不能：.*适配器秩取 16（常用工具的默认值；kb 按 QLoRA 论文的 64 计）"
     r"则 1 张 RTX 4060 Ti 16GB 放得下（每卡 14\.7 GiB）"),
])
def test_a_fine_tune_that_misses_by_its_rank_says_the_common_rank_fits(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)


def test_an_inference_answer_quotes_no_sentence_about_training(engine: Engine) -> None:
    answer = engine.answer("h20 跑 deepseek v3 需要几台").answer
    assert answer.startswith("deepseek-v3 fp8 推理需要 8 张 H20") and "1 台 × 每台 8 卡" in answer
    assert not re.search(r"训练|梯度|优化器|反向传播", answer), answer


def test_a_pick_with_no_budget_ranks_one_node_not_sixty_four_cards(engine: Engine) -> None:
    answer = engine.answer("what gpu do i need for llama 3 70b")
    assert answer.selection is not None and max(r.gpu_count for r in answer.selection.rows) <= 8
    # a job no node holds: the fewest cards that do, not nothing
    big = engine.answer("pretraining a 200b from scratch, which gpus and how many")
    assert big.selection is not None and big.selection.rows and big.selection.workload == "full"
    assert all(r.gpu_count > 8 for r in big.selection.rows)


def test_a_factory_in_a_case_is_the_case_not_an_edge_pick(engine: Engine) -> None:
    answer = engine.answer("智能制造的案例 工厂里那台服务器配了什么卡")
    assert answer.selection is None and "2张RTX 4090" in answer.answer


def test_a_pick_nothing_fits_without_a_budget_says_the_card_cap_not_a_budget(ask: Any) -> None:
    assert re.search(r"^Nothing kb prices fits full training \(mixed-precision Adam\) of 400b on up to 64 cards",
                     ask("from-scratch training of a 400b, what should we buy"))
