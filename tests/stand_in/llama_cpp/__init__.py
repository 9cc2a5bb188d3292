"""A stand-in for the package ``llama_cpp``, found first when this folder leads PYTHONPATH (tests only)."""
