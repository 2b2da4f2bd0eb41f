"""Execute notebooks top to bottom (used by `make notebooks` and `make notebooks-check`).

    python notebooks/run.py [--out DIR] NOTEBOOK.ipynb...

Each notebook runs with its own directory as the working directory and the caller's
environment (HAIFU_FRAMES, HAIFU_SANMA_FRAMES, HAIFU_IMG). The notebooks' first code cells
(shared setup and interval helpers) must be identical. The source notebooks are never modified; with --out,
an executed copy (outputs included) is written to DIR. Exit status 1 if any notebook fails.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from traitlets.config import Config


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="write executed copies here")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    ap.add_argument("notebooks", type=Path, nargs="+")
    args = ap.parse_args()

    # Only this environment's kernel: a user-level "python3" kernelspec elsewhere on the machine
    # would otherwise win over the venv's own ipykernel.
    private = tempfile.mkdtemp(prefix="haifu-jupyter-")
    os.environ["JUPYTER_DATA_DIR"] = private
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    # Kernel channels over Unix sockets in that private directory rather than loopback TCP.
    config = Config()
    config.KernelManager.transport = "ipc"
    config.KernelManager.ip = os.path.join(private, "kernel")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)

    passed, failed = 0, 0
    # The first code cell (paths, the Wilson and normal interval helpers, the report
    # cross-check) is shared: every notebook must carry the same copy.
    setups = {}
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        setups[path] = next((c.source for c in nb.cells if c.cell_type == "code"), "")
    reference = args.notebooks[0]
    for path, source in setups.items():
        if source != setups[reference]:
            failed += 1
            print(f"FAILED {path}: its first code cell differs from {reference}'s (keep the shared setup identical)")

    for path in args.notebooks:
        start = time.monotonic()
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, config=config, timeout=args.timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent.resolve())}})
        try:
            client.execute()
            ok, detail = True, ""
        except CellExecutionError as e:
            ok, detail = False, re.sub(r"\x1b\[[0-9;]*m", "", str(e))  # no terminal colours in logs
        except Exception as e:  # a dead kernel, a cell time-out, a kernel that never started
            ok, detail = False, f"{type(e).__name__}: {e}"
        if args.out:
            nbformat.write(nb, args.out / path.name)
        elapsed = time.monotonic() - start
        if ok:
            passed += 1
            print(f"ok     {path} ({elapsed:.1f} s)", flush=True)
        else:
            failed += 1
            print(f"FAILED {path} ({elapsed:.1f} s)\n{detail}", flush=True)
    shutil.rmtree(private, ignore_errors=True)
    print(f"notebooks: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
