"""Plain scientific code behind the checks: models, algorithms, samplers and exact solvers.

It imports neither ``workbench`` nor ``theorems`` and is usable on its own as a library.
"""
