"""The plugin host: the value types plugins declare, the loader and catalogue, bots in a worker
process, and the limits plugins and bots run under."""
