"""The Dramatiq side of benchmarks/job_queues.py: the broker and the actor its worker imports (`dramatiq` loads a
module by name)."""

import os

from benchmarks import job_queues

job_queues._dramatiq_broker(os.environ["BENCH_REDIS"])
started = job_queues.dramatiq_actor()
