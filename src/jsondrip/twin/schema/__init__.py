"""The twin of `rust/core/schema/`: the schema check of a stream in pure Python, file for
file (`checker.py` ~ checker.rs, `scanner.py` ~ scanner.rs); `guard.py` runs it beside the
twin's engine as `rust/python/schema.rs` runs the core's beside the native one."""
