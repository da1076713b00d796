"""Start the Jupyter kernels of the book build and of nbval on IPC sockets, not TCP ports.

``jupyter_client`` picks a kernel's five TCP ports by binding port 0 and closing the socket; the
kernel binds them a moment later. Its ``LocalPortCache`` keeps one process from handing out a port
twice, but two processes (the two Sphinx readers, the two pytest-xdist workers) can still collide,
and so can any outgoing connection that takes the freed port in between: the kernel then dies with
``ZMQError: Address already in use`` (jupyter/jupyter_client#487). One CI run failed this way.

Unix-domain sockets in a fresh private directory per kernel cannot collide. ``use_ipc_kernels``
switches every kernel that this process (and the processes it forks) provisions locally to them.
It is called by ``dev.py _sphinx`` before the build and by ``tests/conftest.py``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from functools import wraps
from typing import Any


def use_ipc_kernels() -> bool:
    """Make locally provisioned kernels use IPC sockets in private directories.

    Returns
    -------
    bool
        True when the switch is active, False on platforms without Unix-domain sockets
        (Windows), where kernels keep TCP.
    """
    if sys.platform == "win32":
        return False
    from jupyter_client.provisioning.local_provisioner import LocalProvisioner

    if getattr(LocalProvisioner.pre_launch, "_assocmem_ipc", False):
        return True
    # Short base path: a socket path must stay under ~107 bytes.
    base = tempfile.mkdtemp(prefix="amk-", dir="/tmp" if os.path.isdir("/tmp") else None)
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    original = LocalProvisioner.pre_launch

    @wraps(original)
    async def pre_launch(self: LocalProvisioner, **kwargs: Any) -> dict[str, Any]:
        manager = self.parent
        # Only on the first launch: a restart keeps the manager's transport and socket paths.
        if manager is not None and manager.transport == "tcp" and not manager.connection_file:
            manager.transport = "ipc"
            manager.ip = os.path.join(tempfile.mkdtemp(dir=base), "k")
        return await original(self, **kwargs)

    pre_launch._assocmem_ipc = True  # type: ignore[attr-defined]
    LocalProvisioner.pre_launch = pre_launch  # type: ignore[method-assign]
    return True
