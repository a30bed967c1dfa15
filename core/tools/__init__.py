"""Developers' tools: catalogue upkeep and the hook reference."""
