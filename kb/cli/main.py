"""`kb`: the terminal front end. Commands parse options, call the core, print; errors are one line.

Exit status (contracts.md): 0 ok, 2 bad input (one line on stderr saying what and how to fix),
1 anything else.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from kb.errors import BadInput, KbError

# kb.settings imports pydantic (~0.35 s): a no-op `kb index` does without (kb/retrieve/index_settings.py)
if TYPE_CHECKING:
    from kb.settings import Settings


@contextmanager
def _progress_bar() -> Iterator[Callable[[str, int, int], None]]:
    """A progress bar on stderr for index builds (rich is imported only when a build happens).

    The rate is chunks embedded a second, counted from the first report, so vectors the cache gave at once
    do not inflate it.
    """
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    labels = {"parse": "parsing corpus", "embed": "embedding chunks", "lexical": "lexical index"}
    with Progress(TextColumn("{task.description:<18}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[rate]}"), console=_stderr_console(), transient=False) as bar:
        tasks: dict[str, Any] = {}
        first: dict[str, tuple[float, int]] = {}

        def report(stage: str, done: int, total: int) -> None:
            now = time.perf_counter()
            if stage not in tasks:
                tasks[stage] = bar.add_task(labels.get(stage, stage), total=total, rate="")
                first[stage] = (now, done)
            since, start = first[stage]
            rate = f"{(done - start) / (now - since):.1f} chunks/s" if stage == "embed" and done > start else ""
            bar.update(tasks[stage], completed=done, total=total, rate=rate)

        yield report


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _settings(**overrides: Any) -> Settings:
    from kb.settings import get_settings

    base = get_settings()
    return base.model_copy(update={k: v for k, v in overrides.items() if v is not None})


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from kb.about import version_lines

    click.echo("\n".join(version_lines(_settings())))
    ctx.exit()


class _Commands(click.Group):
    """kb's commands, with the heavy ones imported only when they run: `kb fit` pulls in the fit engine
    (~0.3 s of imports), which `kb index` with nothing to do, `kb --version` and `kb ask` must not pay for."""

    LAZY: ClassVar[dict[str, str]] = {"fit": "kb.cli.fit:fit", "docs": "kb.cli.docs:docs",
                                      "gaps": "kb.cli.gaps:gaps"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY and cmd_name not in self.commands:
            import importlib

            module, _, name = self.LAZY[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), name), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show kb's version, the corpus (its hash) and the index it uses, and exit.")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Cited answers and computed fit checks for choosing GPUs for LLM work."""
    if ctx.invoked_subcommand != "index":  # (index checks them itself, after its pydantic-free look: see there)
        _settings()  # every KB_* value checked before any command runs: a bad one is exit 2, naming it


def _engine(s: Settings) -> Any:
    """The Engine over the settings' index, built first (with a progress bar) when missing or stale."""
    from kb.engine import Engine
    from kb.retrieve.index import is_stale

    if s.corpus_dir.is_dir() and is_stale(s.index_dir, s.corpus_dir):
        click.echo(f"building the index at {s.index_dir} (first use or the corpus changed)…", err=True)
        with _progress_bar() as report:
            return Engine.open(s, progress=report)
    return Engine.open(s, build_if_needed=False)


@cli.command()
@click.argument("question")
@click.option("--top-k", type=int, default=None, help="How many passages (default 5).")
@click.option("--after", "after", multiple=True, metavar="EARLIER",
              help="An earlier question of the same conversation (repeat, oldest first): QUESTION is a follow-up.")
@click.option("--json", "as_json", is_flag=True, help="Print the Answer as JSON.")
def ask(question: str, top_k: int | None, after: tuple[str, ...], as_json: bool) -> None:
    """Answer QUESTION from the local index (built first if missing or stale)."""
    from kb.engine import MAX_HISTORY
    from kb.understand.question import clean_question, clean_top_k

    s = _settings()
    clean_question(question, s.max_question_chars)  # fail fast, before any loading
    clean_top_k(top_k, s.default_top_k, s.max_top_k)
    if len(after) > MAX_HISTORY:
        raise BadInput(f"--after is given {len(after)} times; a conversation carries at most {MAX_HISTORY} "
                       "earlier questions", field="after")
    for earlier in after:
        clean_question(earlier, s.max_question_chars, "--after")
    answer = _engine(s).answer(question, top_k, history=list(after) or None)
    from kb.gaps.entries import record_quietly
    from kb.gaps.factory import gap_log

    record_quietly(gap_log(s), answer.question, answer.coverage, answer.unknown)
    if as_json:
        click.echo(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        from kb.cli.render import render_answer

        click.echo(render_answer(answer), nl=False)


@cli.command()
@click.option("--top-k", type=int, default=None, help="How many passages (default 5).")
def chat(top_k: int | None) -> None:
    """A conversation in the terminal: each question may follow up the earlier ones; /new starts over, /quit ends."""
    from kb.cli.render import render_answer

    s = _settings()
    engine = _engine(s)
    state: dict[str, Any] | None = None
    click.echo("kb chat: ask in Chinese or English; /new starts a new conversation, /quit (or Ctrl-D) ends.",
               err=True)
    while True:
        try:
            line = input("kb> ").strip()
        except EOFError:
            break
        if line in ("/quit", "/exit"):
            break
        if line == "/new":
            state = None
            click.echo("(new conversation)", err=True)
            continue
        if not line:
            continue
        try:
            answer = engine.answer(line, top_k, state=state)
        except KbError as e:
            click.echo(f"kb: {e}", err=True)
            continue
        state = answer.state
        click.echo(render_answer(answer), nl=False)


@cli.command()
@click.option("--corpus", "corpus", type=click.Path(path_type=Path), default=None, help="Corpus folder.")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None, help="Artifact folder.")
@click.option("--info", is_flag=True, help="Say which index and corpus are in use (and whether it is current); "
                                           "build nothing.")
@click.option("--no-cache", is_flag=True, help="Embed every chunk afresh (the embedding cache is rewritten).")
@click.option("--force", is_flag=True, help="Rebuild even when the index is current.")
def index(corpus: Path | None, out: Path | None, info: bool, no_cache: bool, force: bool) -> None:
    """(Re)build the index artifact, atomically, with a progress bar; unchanged chunks reuse cached vectors.

    With nothing changed (corpus, indexing code, embedder) it says "current" and stops: the check reads the
    manifest and the corpus only, so it imports neither FAISS nor jieba nor the model, and where the
    environment sets nothing but plain paths and names, not pydantic either (kb/retrieve/index_settings.py)."""
    import time

    from indexer.freshness import current_corpus_hash, embedder_name, staleness
    from kb.retrieve.index_settings import IndexSettings, index_settings

    if info:
        from kb.about import index_lines

        click.echo("\n".join(index_lines(_settings(corpus_dir=corpus, index_dir=out))))
        return
    light = None if force or no_cache else index_settings()
    s: Settings | IndexSettings = _settings(corpus_dir=corpus, index_dir=out) if light is None else \
        light._replace(corpus_dir=corpus or light.corpus_dir, index_dir=out or light.index_dir)
    if not s.corpus_dir.is_dir():
        raise click.BadParameter(f"corpus folder {s.corpus_dir} does not exist", param_hint="--corpus")
    current = staleness(s.index_dir, s.corpus_dir, embedder_name(s.embedder), check_files=True) is None
    if current and not (force or no_cache):
        click.echo(f"index at {s.index_dir} is current (corpus {current_corpus_hash(s.corpus_dir)[:12]}); "
                   "nothing to do (--force rebuilds it)", err=True)
        return
    s = _settings(corpus_dir=corpus, index_dir=out)  # building: every setting read and checked
    from indexer.build import build_index
    from indexer.embedder import make_embedder

    started = time.perf_counter()
    embedder = make_embedder(s.embedder)
    with _progress_bar() as report:
        built = build_index(s.corpus_dir, s.index_dir, embedder, report, use_cache=not no_cache)
    click.echo(f"index written to {s.index_dir} ({embedder.name}, {built.chunks} chunks: {built.embedded} embedded, "
               f"{built.reused} reused from the embedding cache ({built.cache}), {built.segmented} segmented; "
               f"{time.perf_counter() - started:.1f} s)", err=True)


@cli.command("eval")
@click.option("--questions", type=click.Path(path_type=Path), default=None,
              help="JSONL question set (default: kb's own development set, shipped with kb).")
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
@click.option("--sweep", is_flag=True, help="Also report each dense/lexical weight from 0 to 1, per language.")
@click.option("--answers", type=click.Path(path_type=Path), default=None,
              help="JSONL answer set ({q, type, must, en?, selection?, no_fit?}): answer pass rates instead.")
def eval_(questions: Path | None, as_json: bool, sweep: bool, answers: Path | None) -> None:
    """Retrieval quality on a labelled question set (recall@1, recall@5, MRR), or answer quality (--answers)."""
    from kb.engine import Engine
    from kb.evaluation.retrieval import evaluate, load_questions
    from kb.evaluation.sets import development_set

    if answers is not None:
        _eval_answers(answers, as_json)
        return
    path = questions or development_set("questions.jsonl")
    qs = load_questions(path)
    engine = Engine.open(_settings())
    config = engine.searcher.config
    knobs = {"dense_weight": dict(config.dense_weight), "record_prior": config.record_prior,
             "named_boost": config.named_boost}
    report: dict[str, Any] = {"questions": str(path), "settings": knobs, "metrics": evaluate(engine, qs)}
    if sweep:
        plain = config.but(record_prior=1.0, use_glossary=False, named_boost=0.0)
        report["baselines"] = {
            "e5 alone": evaluate(engine, qs, plain.but(dense_weight={"zh": 1.0, "en": 1.0})),
            "bm25 alone": evaluate(engine, qs, plain.but(dense_weight={"zh": 0.0, "en": 0.0})),
        }
        grid = [round(0.1 * i, 1) for i in range(11)]
        report["sweep"] = {f"dense={w:.1f}": evaluate(engine, qs, config.but(dense_weight={"zh": w, "en": w}))
                           for w in grid}
        report["sweep"] |= {f"prior={p:.1f}": evaluate(engine, qs, config.but(record_prior=p))
                            for p in (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)}
        report["sweep"] |= {f"named={b:.1f}": evaluate(engine, qs, config.but(named_boost=b))
                            for b in (0.0, 0.1, 0.2, 0.3, 0.5, 1.0)}
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    click.echo(f"{report['questions']}  {report['settings']}")
    _print_metrics("hybrid", report["metrics"])
    for section in ("baselines", "sweep"):
        for label, m in report.get(section, {}).items():
            _print_metrics(label, m)


def _eval_answers(path: Path, as_json: bool) -> None:
    from kb.engine import Engine
    from kb.evaluation.answers import load_answer_cases, report, run_answers

    cases = load_answer_cases(path)
    engine = Engine.open(_settings())
    result = report(run_answers(cases, engine.answer))
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    for f in result["failures"]:
        click.echo(f"FAIL [{f['type']}] {f['q']}\n     {'; '.join(f['why'])}\n     answer: {f['answer']}")
    for label, part in (("type", result["by_type"]), ("language", result["by_language"])):
        for key, r in part.items():
            click.echo(f"{label:<8} {key:<13} n={int(r['n']):<3} pass={r['pass']:.1%}")
    click.echo(f"all      {'':<13} n={int(result['all']['n']):<3} pass={result['all']['pass']:.1%}")


def _print_metrics(label: str, m: dict[str, dict[str, float]]) -> None:
    for lang in ("all", "zh", "en"):
        if lang in m:
            x = m[lang]
            click.echo(f"{label:<11} {lang:<3} n={int(x['n']):<3} recall@1={x['recall@1']:.3f} "
                       f"recall@5={x['recall@5']:.3f} MRR={x['mrr']:.3f}")


@cli.command()
@click.option("--host", default=None, help="Bind address (KB_HOST, default 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port (KB_PORT, default 8000).")
@click.option("--workers", type=int, default=None, help="Worker processes (KB_WORKERS, default 1).")
def serve(host: str | None, port: int | None, workers: int | None) -> None:
    """Serve the HTTP API (and /slack/events where Slack is configured)."""
    from service.server import run

    run(_settings(host=host, port=port, workers=workers))


@cli.command()
def slack() -> None:
    """Run the Slack bot over Socket Mode (needs KB_SLACK_APP_TOKEN and KB_SLACK_BOT_TOKEN)."""
    from service.slack.socket_mode import run_socket_mode

    run_socket_mode(_settings())


def main(argv: list[str] | None = None) -> None:
    """Console entry point: every expected failure is one line on stderr and the contract's exit code."""
    try:
        cli.main(args=argv, prog_name="kb", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.UsageError as e:
        hint = f" (see `kb {e.ctx.info_name} --help`)" if e.ctx and e.ctx.info_name != "kb" else " (see `kb --help`)"
        click.echo(f"error: {e.format_message()}{hint}", err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except KbError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(e.exit_code)
    except Exception as e:  # the last line of defence: one line, and the traceback on request
        if os.environ.get("KB_DEBUG"):
            raise
        click.echo(f"error: unexpected {type(e).__name__}: {e} (set KB_DEBUG=1 for a traceback)", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
