"""`/metrics` under `tablero serve --workers N`: each worker's own registry, summed at scrape time.

Each worker counts in its own process, in prometheus_client's ordinary in-process registry (an
update costs what it costs in a single server: no shared file written on every request). Once a
second (`FLUSH_INTERVAL`), and when it stops, a worker writes its exposition to `<dir>/<pid>.prom`
in the directory the supervisor gives the workers (`TABLERO_METRICS_DIR`). A scrape of any
worker's `/metrics` answers its own live registry merged with the other workers' files:

- counters and histograms are summed over every worker that ever ran in the pod: the supervisor
  renames a dead worker's file to `<pid>.dead` (`retire`), and its counts stay in the sums, so a
  restart does not make the pod's counters go back;
- gauges come from live workers only, summed, or their maximum where the gauge says so
  (`GAUGE_MERGE` in server/metrics.py: the bot queue's depth is the same store-wide figure seen
  by every worker).

Everything here is prometheus_client's public API: the text parser, `Metric` families, a
collector registered on a `CollectorRegistry`, `generate_latest`. Other workers' figures are at
most `FLUSH_INTERVAL` old.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Iterable
from pathlib import Path

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

log = logging.getLogger("tablero")

ENV = "TABLERO_METRICS_DIR"
FLUSH_INTERVAL = 1.0

SampleKey = tuple[str, tuple[tuple[str, str], ...]]
OURS = "tablero_"  # families merged over the workers; prometheus_client's process_*/python_* are per process


def directory() -> Path | None:
    """The shared directory of `serve --workers N` (None in a single server)."""
    found = os.environ.get(ENV)
    return Path(found) if found else None


def publish(where: Path) -> None:
    """Write this worker's exposition to `<where>/<pid>.prom` (whole, by rename)."""
    target = where / f"{os.getpid()}.prom"
    tmp = target.with_suffix(".tmp")
    tmp.write_bytes(generate_latest(REGISTRY))
    os.replace(tmp, target)


async def publish_every(where: Path, interval: float = FLUSH_INTERVAL) -> None:
    """Publish once a second until cancelled (the server publishes a last time after its drain)."""
    while True:
        try:
            publish(where)
        except OSError:
            log.warning("could not publish this worker's metrics", exc_info=True)
        await asyncio.sleep(interval)


def retire(where: Path, pid: int) -> None:
    """A dead worker: its counters and histograms stay in the sums, its gauges leave them."""
    with contextlib.suppress(FileNotFoundError):
        os.replace(where / f"{pid}.prom", where / f"{pid}.dead")


def merge(texts: Iterable[tuple[str, bool]], gauge_max: frozenset[str] = frozenset()) -> list[Metric]:
    """Families of the expositions `texts` ((text, live) pairs) combined: samples with the same
    name and labels are summed; gauges only from live texts, the maximum for `gauge_max`.
    Families that are not Tablero's (the process and Python collectors') come from the first
    text only: a start time or a file limit summed over processes means nothing."""
    families: dict[str, Metric] = {}
    values: dict[str, dict[SampleKey, float]] = {}
    for i, (text, live) in enumerate(texts):
        for family in text_string_to_metric_families(text):
            if family.type == "gauge" and not live:
                continue
            if i and not family.name.startswith(OURS):
                continue  # the process's own figures (start time, fds, Python): the first text's only
            if family.name not in families:
                families[family.name] = Metric(family.name, family.documentation, family.type)
                values[family.name] = {}
            acc = values[family.name]
            maxing = family.type == "gauge" and family.name in gauge_max
            for s in family.samples:
                key = (s.name, tuple(s.labels.items()))
                if key in acc:
                    acc[key] = max(acc[key], s.value) if maxing else acc[key] + s.value
                else:
                    acc[key] = s.value
    for name, family in families.items():
        for (sample, labels), value in values[name].items():
            family.add_sample(sample, dict(labels), value)
    return list(families.values())


class _Merged:
    def __init__(self, families: list[Metric]) -> None:
        self.families = families

    def collect(self) -> list[Metric]:
        return self.families


def exposition(where: Path, gauge_max: frozenset[str] = frozenset()) -> bytes:
    """This worker's live registry and the other workers' files, merged."""
    own = os.getpid()
    texts = [(generate_latest(REGISTRY).decode(), True)]
    for path in sorted(where.iterdir()):
        if path.suffix not in (".prom", ".dead") or path.stem == str(own):
            continue
        with contextlib.suppress(OSError, UnicodeDecodeError):
            texts.append((path.read_text(), path.suffix == ".prom"))
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Merged(merge(texts, gauge_max)))
    return generate_latest(registry)
