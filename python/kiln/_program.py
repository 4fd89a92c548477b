"""``kiln.compile``: a tensor program as a Python callable."""

import os

from . import _kiln
from ._tensor import from_wire, to_wire


class Program:
    """A tensor program (MLIR 19 text) compiled for a device. Call it with
    numpy arrays, kiln tensors or numbers: ``prog(x, y)`` runs its only (or
    first) function, ``prog.run("name", x, y)`` a named one; results come
    back as numpy arrays (one array, or a tuple when there are several)."""

    def __init__(self, native):
        self._p = native

    @property
    def functions(self):
        """The program's functions, in order."""
        return self._p.functions

    def run(self, function, *args):
        """Runs ``function`` with ``args``; a list of numpy arrays."""
        wire = tuple(
            a if isinstance(a, (bool, int, float)) else to_wire(a, f"argument {i}")
            for i, a in enumerate(args)
        )
        return [from_wire(r) for r in self._p._run(function, wire)]

    def __call__(self, *args):
        out = self.run(self.functions[0], *args)
        return out[0] if len(out) == 1 else tuple(out)

    def explain(self):
        """Each dispatch's iteration space, strategy and kernels (what
        ``kiln compile --explain`` prints)."""
        return self._p.explain()

    def close(self):
        """Frees the program; later calls raise ``kiln.SessionClosed``."""
        self._p.close()


def compile(mlir_text_or_path, device=None):
    """Compiles a tensor program: MLIR 19 text (``func.func`` with linalg,
    tensor, arith, math) or the path of a ``.mlir`` file holding it."""
    src = mlir_text_or_path
    if isinstance(src, os.PathLike) or (
        isinstance(src, str) and "\n" not in src and src.endswith(".mlir") and os.path.exists(src)
    ):
        with open(os.fspath(src)) as f:
            src = f.read()
    return Program(_kiln._compile(src, device))
