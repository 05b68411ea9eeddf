"""`kb gaps`: what people asked that kb could not answer, grouped, so a team knows what to add."""

from __future__ import annotations

import json

import click


@click.command()
@click.option("--since", default=None, help="Only this recent: 7d, 12h, 30m (default: the retention period).")
@click.option("--json", "as_json", is_flag=True, help="Print the groups as JSON.")
def gaps(since: str | None, as_json: bool) -> None:
    """Unknown names most asked, questions not covered or partly covered, answers marked wrong."""
    from kb.gaps.entries import parse_since, read_summary
    from kb.gaps.factory import gap_log
    from kb.settings import get_settings

    seconds = parse_since(since) if since is not None else None
    summary = read_summary(gap_log(get_settings()), seconds)
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    click.echo(f"the last {summary['since_days']:g} days")
    labels = {"unknown_names": "names kb has no record for", "not_covered": "not covered",
              "partial": "partly covered", "wrong": "marked wrong (👎)"}
    for key, label in labels.items():
        click.echo(f"{label}:")
        items = summary[key]
        if not items:
            click.echo("  (none)")
        for item in items:
            click.echo(f"  {item['asked']:>4} × {item.get('name') or item.get('question')}")
    for key, label in (("by_name", "by the names they mention"), ("by_topic", "by topic")):
        click.echo(f"{label}:")
        if not summary.get(key):
            click.echo("  (none)")
        for item in summary.get(key, []):
            kinds = ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in item["kinds"].items())
            click.echo(f"  {item['asked']:>4} × {_named(item['name'], item['of'])} ({kinds})")
            for question in item["questions"]:
                click.echo(f"         “{question}”")


def _named(name: str, of: str) -> str:
    """A card's id as people write it (h100-sxm → H100 SXM); a topic's key in words (rent_or_buy → rent or buy)."""
    from kb.words.answer import gpu_name

    return gpu_name(name) if of == "gpu" else name.replace("_", " ")
