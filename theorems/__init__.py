"""Paper modules: one file per paper, grouped by venue; importing one registers its claims."""
