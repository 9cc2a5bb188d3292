"""The embedded model: a 135M model served by supervised llama.cpp servers on loopback (``kind: embedded``).

``python -m stad_utils.models.embedded.build`` installs a llama.cpp build for this machine's
architecture; ``python -m stad_utils.models.embedded.check`` asks it one question.
"""

from __future__ import annotations

from ._servers import EmbeddedServerDied, embedded_model_path, free_port, llama_server, llama_servers, served_endpoint
from .build import LLAMA_CPP_VERSION, PORTABLE_X86_64_FLAGS, cmake_args, wheel_folder
from .check import EmbeddedModelBroken, compiled_features, explain_exit, smoke_test

__all__ = [
    "EmbeddedModelBroken", "EmbeddedServerDied", "LLAMA_CPP_VERSION", "PORTABLE_X86_64_FLAGS", "cmake_args",
    "compiled_features", "embedded_model_path", "explain_exit", "free_port", "llama_server", "llama_servers",
    "served_endpoint", "smoke_test", "wheel_folder",
]
