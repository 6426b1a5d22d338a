"""The twin of `rust/core/schema/`: the schema check of a stream in pure Python, file for
file (`checker.py` ~ checker.rs, `scanner.py` ~ scanner.rs); `checked.py`'s `CheckedEngine`
runs it inside the twin's engine as `rust/python/schema.rs` runs the core's inside the native
one."""
