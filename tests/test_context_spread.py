"""Where Context.map runs its items: small work stays in this process, long work goes to the
workers after a small timed probe, and the results are in order either way."""

import os
import time

from workbench.context import PARALLEL_MIN_SECONDS, Context


def _slow_pid(item):
    time.sleep(0.02)
    return item, os.getpid()


def _fast_pid(item):
    return item, os.getpid()


def test_small_work_stays_in_this_process():
    ctx = Context("spread:test", jobs=2)
    out = ctx.map(_fast_pid, range(40))
    assert [i for i, _ in out] == list(range(40))
    assert {pid for _, pid in out} == {os.getpid()}


def test_long_work_goes_to_the_workers_after_a_small_probe():
    n = 64
    assert 0.02 * n > 2 * PARALLEL_MIN_SECONDS  # long enough to be spread
    ctx = Context("spread:test", jobs=2)
    out = ctx.map(_slow_pid, range(n))
    assert [i for i, _ in out] == list(range(n))
    here = [i for i, pid in out if pid == os.getpid()]
    # the probe is an eighth of the first of 4 x jobs parts: 1 item of 64 here, the rest elsewhere
    assert here == [0]
