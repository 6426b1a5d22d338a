"""`jsondrip bench`: jsondrip against its peers, streaming and one-shot, with plots.

Small modules, each importable on its own: `workloads` (the seeded documents), `contenders`
(each peer through its public API), `timing` (a time budget per contender and case), `correctness`
(final value and retractions), `runner` (presets and the run), `report` (Markdown and JSON),
`plots` (matplotlib) and `cli` (the subcommand). Nothing here is imported by `import jsondrip`.
"""
