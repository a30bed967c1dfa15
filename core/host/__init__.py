"""The plugin host: hook specifications, the loader and catalogue, and the limits plugins and bots
run under."""
