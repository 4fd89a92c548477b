"""Ctrl-C during a long compile: kiln waits for its compile thread in short
slices without the GIL and checks for signals between them (a session's
compiles and ``_interruptible_sleep``, the tests' stand-in for a compile
of known length, share the wait)."""

import _thread
import signal
import threading
import time

import numpy as np
import pytest

import kiln
import models


def test_ctrl_c_interrupts_a_long_wait():
    # A shell starts background jobs with SIGINT ignored (as CI's script
    # runs pytest), and Python then installs no handler: interrupt_main
    # would do nothing. Install Python's own, as an interactive run has.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.2, _thread.interrupt_main)  # as Ctrl-C does
        t0 = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            kiln._kiln._interruptible_sleep(30.0)
        assert time.perf_counter() - t0 < 5.0
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_the_wait_returns_the_work_and_sessions_still_compile():
    t0 = time.perf_counter()
    assert kiln._kiln._interruptible_sleep(0.05) is None
    assert time.perf_counter() - t0 >= 0.05
    s = kiln.InferenceSession(models.cnn().SerializeToString())
    (y,) = s.run(None, {"img": np.zeros((1, 3, 16, 16), np.float32)})
    assert y.shape == (1, 10)
