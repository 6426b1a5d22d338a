"""Present only in the pure-Python (py3-none-any) wheel, as `jsondrip/_pure_build.py`.

Its presence tells `jsondrip` that no native extension was meant to be installed, so that its
absence is expected rather than a failed build (see `jsondrip._engine.BUILD`).
"""
