"""The twin of `rust/core/schema/`: the schema check of a stream in pure Python
(`checker.py` ~ checker.rs); `checked.py`'s `CheckedSink` feeds it the machine's events and
its `CheckedEngine` runs it inside the twin's engine, as `rust/python/schema.rs` does for the
core's inside the native one."""
