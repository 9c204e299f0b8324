"""Inverse optimization: learning feasible regions of linear programs from input-decision pairs."""
