"""The kernels that nbval and the book build start talk over IPC sockets, not TCP ports."""

from __future__ import annotations

import json
import sys

import nbclient
import nbformat
import pytest
from kernel_transport import use_ipc_kernels

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no Unix-domain sockets")


def test_switch_is_idempotent() -> None:
    from jupyter_client.provisioning.local_provisioner import LocalProvisioner

    first = LocalProvisioner.pre_launch
    assert use_ipc_kernels()
    assert use_ipc_kernels()
    assert LocalProvisioner.pre_launch is first  # conftest already switched; no second wrapper


def test_notebook_kernel_uses_private_ipc_sockets() -> None:
    code = "from ipykernel import get_connection_info\nprint(get_connection_info())"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3").execute()
    info = json.loads(nb.cells[0].outputs[0]["text"])
    assert info["transport"] == "ipc"
    assert info["ip"].startswith("/") and "amk-" in info["ip"]
    assert len(f"{info['ip']}-{info['hb_port']}") < 100  # Unix socket path limit is ~107 bytes
