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
