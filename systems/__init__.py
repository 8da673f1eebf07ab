"""Systems: plain functions `(world, ...) -> list[Event]`, one concern per module."""
